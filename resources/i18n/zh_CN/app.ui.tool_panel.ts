<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>JsonFormFallback</name>
    <message>
        <source>The form could not be built. Type the input as JSON:</source>
        <translation>无法生成参数表单。请用 JSON 填写输入：</translation>
    </message>
    <message>
        <source>Input as JSON</source>
        <translation>JSON 格式的输入</translation>
    </message>
    <message>
        <source>This is not valid JSON: %1</source>
        <translation>这不是有效的 JSON：%1</translation>
    </message>
</context>
<context>
    <name>ToolPanel</name>
    <message>
        <source>Only reads</source>
        <translation>只读</translation>
    </message>
    <message>
        <source>The server says this tool only reads: it changes nothing.</source>
        <translation>服务器声明这个工具只读取数据，不做任何修改。</translation>
    </message>
    <message>
        <source>Changes things</source>
        <translation>会修改数据</translation>
    </message>
    <message>
        <source>The server says this tool can change things.</source>
        <translation>服务器声明这个工具会修改数据。</translation>
    </message>
    <message>
        <source>Can delete things</source>
        <translation>可能删除数据</translation>
    </message>
    <message>
        <source>The server says this tool may delete or change things. MCP Desk asks before running it.</source>
        <translation>服务器声明这个工具可能删除或修改数据。运行前 MCP Desk 会先征求你的同意。</translation>
    </message>
    <message>
        <source>Safe to repeat</source>
        <translation>可重复执行</translation>
    </message>
    <message>
        <source>Running it again with the same input changes nothing more.</source>
        <translation>用相同的输入再次运行，不会造成更多改变。</translation>
    </message>
    <message>
        <source>Works with the outside world</source>
        <translation>会访问外部系统</translation>
    </message>
    <message>
        <source>The server says this tool reaches the internet or other systems.</source>
        <translation>服务器声明这个工具会访问互联网或其他系统。</translation>
    </message>
    <message>
        <source>The server gives no description of this tool.</source>
        <translation>服务器没有提供这个工具的说明。</translation>
    </message>
    <message>
        <source>Tool title</source>
        <translation>工具名称</translation>
    </message>
    <message>
        <source>Tool id</source>
        <translation>工具标识</translation>
    </message>
    <message>
        <source>Tool description</source>
        <translation>工具说明</translation>
    </message>
    <message>
        <source>Show the full description…</source>
        <translation>显示完整说明…</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Run the tool (Ctrl+Enter)</source>
        <translation>运行工具（Ctrl+Enter）</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop the tool while it runs (Esc)</source>
        <translation>停止正在运行的工具（Esc）</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>进度</translation>
    </message>
    <message>
        <source>%1

Name on the server: %2</source>
        <translation>%1

在服务器上的名称：%2</translation>
    </message>
    <message>
        <source>Description of %1</source>
        <translation>%1 的说明</translation>
    </message>
    <message>
        <source>The server removed this tool. It can no longer be run.</source>
        <translation>服务器已移除这个工具，无法再运行。</translation>
    </message>
    <message>
        <source>This tool cannot be used: %1.</source>
        <translation>无法使用这个工具：%1。</translation>
    </message>
    <message>
        <source>Note: %1.</source>
        <translation>注意：%1。</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
</context>
</TS>
