<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>OpenTarget</name>
    <message>
        <source>Server packages (.mcpb) cannot be opened by this version of MCP Desk.</source>
        <translation>此版本的 MCP Desk 无法打开服务器安装包（.mcpb）。</translation>
    </message>
    <message>
        <source>MCP Desk cannot open this. It opens install links (mcp-desk://, cursor://, vscode:, lmstudio://) and server packages (.mcpb).</source>
        <translation>MCP Desk 无法打开这个内容。它可以打开安装链接（mcp-desk://、cursor://、vscode:、lmstudio://）和服务器安装包（.mcpb）。</translation>
    </message>
    <message>
        <source>This install link cannot be used: %1.</source>
        <translation>无法使用这个安装链接：%1。</translation>
    </message>
    <message>
        <source>Cannot open</source>
        <translation>无法打开</translation>
    </message>
    <message>
        <source>Open an install link</source>
        <translation>打开安装链接</translation>
    </message>
    <message>
        <source>Paste an install link from a web page or a README (mcp-desk://, cursor://, vscode: or lmstudio://). You will see what it adds before anything is added.</source>
        <translation>粘贴网页或 README 中的安装链接（mcp-desk://、cursor://、vscode: 或 lmstudio://）。添加任何内容之前，你会先看到它将添加什么。</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Open an install &amp;link…</source>
        <translation>打开安装链接(&amp;L)…</translation>
    </message>
</context>
</TS>
