<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Reasons</name>
    <message>
        <source>%3 package %1%2 (starts a web server)</source>
        <translation>%3 包 %1%2（会启动网页服务器）</translation>
    </message>
    <message>
        <source>this package starts its own web server on this computer, which MCP Desk cannot run yet; choose another way if there is one</source>
        <translation>此软件包会在这台电脑上启动自己的网页服务器，MCP Desk 目前无法运行它；如有其他方式，请选择其他方式</translation>
    </message>
    <message>
        <source>npm package %1%2</source>
        <translation>npm 包 %1%2</translation>
    </message>
    <message>
        <source>Python package %1%2</source>
        <translation>Python 包 %1%2</translation>
    </message>
    <message>
        <source>Docker image %1%2</source>
        <translation>Docker 镜像 %1%2</translation>
    </message>
    <message>
        <source>.NET tool %1%2</source>
        <translation>.NET 工具 %1%2</translation>
    </message>
    <message>
        <source>server package (.mcpb) %1</source>
        <translation>服务器安装包（.mcpb）%1</translation>
    </message>
    <message>
        <source>this is a server package (.mcpb): download it and open it with Servers → Install a server package (.mcpb)…</source>
        <translation>这是一个服务器安装包（.mcpb）：请下载它，然后用“服务器 → 安装服务器安装包（.mcpb）…”打开</translation>
    </message>
    <message>
        <source>%3 package %1%2</source>
        <translation>%3 包 %1%2</translation>
    </message>
    <message>
        <source>MCP Desk cannot install %1 packages</source>
        <translation>MCP Desk 无法安装 %1 包</translation>
    </message>
    <message>
        <source>runs on the internet (%1)</source>
        <translation>远程服务器（%1）</translation>
    </message>
    <message>
        <source>this entry of the server directory says neither where it runs nor how to install it</source>
        <translation>服务器目录中的这一项既没有说明它在哪里运行，也没有说明如何安装</translation>
    </message>
</context>
</TS>
