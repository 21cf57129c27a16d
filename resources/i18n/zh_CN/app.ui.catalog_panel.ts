<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>CatalogPanel</name>
    <message>
        <source>Search (Ctrl+F)</source>
        <translation>搜索（Ctrl+F）</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <source>All servers</source>
        <translation>所有服务器</translation>
    </message>
    <message>
        <source>Search the tools, resources and prompts of every connected server</source>
        <translation>在所有已连接的服务器中搜索工具、资源和提示词</translation>
    </message>
    <message>
        <source>Tools</source>
        <translation>工具</translation>
    </message>
    <message>
        <source>Resources</source>
        <translation>资源</translation>
    </message>
    <message>
        <source>Resources with fields</source>
        <translation>资源模板</translation>
    </message>
    <message>
        <source>Prompts</source>
        <translation>提示词</translation>
    </message>
    <message numerus="yes">
        <source>Tools (%n)</source>
        <translation>
            <numerusform>工具（%n）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Resources (%n)</source>
        <translation>
            <numerusform>资源（%n）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Prompts (%n)</source>
        <translation>
            <numerusform>提示词（%n）</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 lists “%2” %3 times; only the first is shown.</source>
        <translation>%1 列出了 %3 次“%2”，这里只显示第一个。</translation>
    </message>
    <message numerus="yes">
        <source>…and %n more.</source>
        <translation>
            <numerusform>……还有 %n 个。</numerusform>
        </translation>
    </message>
</context>
</TS>
