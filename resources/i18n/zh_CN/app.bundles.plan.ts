<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Reasons</name>
    <message>
        <source>Tools: %1.</source>
        <translation>工具：%1。</translation>
    </message>
    <message>
        <source>Prompts: %1.</source>
        <translation>提示词：%1。</translation>
    </message>
    <message>
        <source>Needs %1.</source>
        <translation>需要 %1。</translation>
    </message>
    <message>
        <source>%1 and %2 more</source>
        <translation>%1，以及另外 %2 个</translation>
    </message>
    <message>
        <source>%1 (and more it makes as it runs)</source>
        <translation>%1（运行时还会生成更多）</translation>
    </message>
    <message>
        <source>made as it runs</source>
        <translation>运行时生成</translation>
    </message>
    <message>
        <source>This package uses a newer format (%1) than MCP Desk knows; parts of it may be ignored.</source>
        <translation>此安装包使用的格式（%1）比 MCP Desk 所知的更新；其中部分内容可能会被忽略。</translation>
    </message>
    <message>
        <source>The package&apos;s manifest names no `server.entry_point` to run.</source>
        <translation>安装包的清单没有指明要运行的服务器入口（`server.entry_point`）。</translation>
    </message>
    <message>
        <source>The package&apos;s manifest names no command to start its server.</source>
        <translation>安装包的清单没有指明启动服务器的命令。</translation>
    </message>
</context>
</TS>
