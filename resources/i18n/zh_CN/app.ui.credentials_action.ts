<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Credentials</name>
    <message>
        <source>&amp;Keys and sign-ins…</source>
        <translation>密钥和登录(&amp;K)…</translation>
    </message>
    <message>
        <source>See and manage the keys MCP Desk keeps for your servers (Ctrl+Shift+K)</source>
        <translation>查看和管理 MCP Desk 为你的服务器保存的密钥（Ctrl+Shift+K）</translation>
    </message>
    <message>
        <source>Main toolbar</source>
        <translation>主工具栏</translation>
    </message>
    <message>
        <source>Signing out did not work: %1</source>
        <translation>退出登录没有成功：%1</translation>
    </message>
</context>
</TS>
