<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>ServerChecks</name>
    <message>
        <source>stored in the keychain — type to replace</source>
        <translation>已保存在系统钥匙串中 — 输入即可替换</translation>
    </message>
    <message>
        <source>Enter the command that starts the server (for example npx or uvx).</source>
        <translation>请输入启动服务器的命令（例如 npx 或 uvx）。</translation>
    </message>
    <message>
        <source>This command line cannot be read: %1</source>
        <translation>无法读取这行命令：%1</translation>
    </message>
    <message>
        <source>There is no file %1.</source>
        <translation>没有文件 %1。</translation>
    </message>
    <message>
        <source>%1 is not a program that can be run.</source>
        <translation>%1 不是可以运行的程序。</translation>
    </message>
    <message>
        <source>“%1” was not found on PATH. Install it, or give its full path.</source>
        <translation>在这台电脑上找不到“%1”（不在 PATH 中）。请安装它，或填写它的完整路径。</translation>
    </message>
    <message>
        <source>Enter the server&apos;s address (for example https://example.com/mcp).</source>
        <translation>请输入服务器的网址（例如 https://example.com/mcp）。</translation>
    </message>
    <message>
        <source>This is not a web address.</source>
        <translation>这不是一个网址。</translation>
    </message>
    <message>
        <source>The address must start with http:// or https://.</source>
        <translation>网址必须以 http:// 或 https:// 开头。</translation>
    </message>
    <message>
        <source>The address has no host name.</source>
        <translation>网址中没有主机名。</translation>
    </message>
</context>
</TS>
