<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>BundleDialog</name>
    <message>
        <source>Install a server package (.mcpb)…</source>
        <translation>安装服务器安装包（.mcpb）…</translation>
    </message>
</context>
<context>
    <name>WindowMenus</name>
    <message>
        <source>&amp;Servers</source>
        <translation>服务器(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Add server…</source>
        <translation>添加服务器(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Import from</source>
        <translation>导入自(&amp;I)</translation>
    </message>
    <message>
        <source>File…</source>
        <translation>文件…</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>导出(&amp;E)…</translation>
    </message>
    <message>
        <source>Connect &amp;all</source>
        <translation>全部连接(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>查看(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Activity log</source>
        <translation>活动日志(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Developer mode</source>
        <translation>开发者模式(&amp;D)</translation>
    </message>
    <message>
        <source>Show what developers need: tool ids, raw results, protocol versions, messages</source>
        <translation>显示开发者需要的内容：工具 ID、原始结果、协议版本、消息记录</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Welcome guide</source>
        <translation>欢迎指南(&amp;W)</translation>
    </message>
    <message>
        <source>As the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>MCP Desk will use the new language the next time it starts.</source>
        <translation>MCP Desk 下次启动时将使用新的语言。</translation>
    </message>
</context>
</TS>
