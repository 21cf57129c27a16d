<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>ServerActions</name>
    <message>
        <source>Fix the server list file first: %1</source>
        <translation>请先修正服务器列表文件：%1</translation>
    </message>
    <message>
        <source>Rename server</source>
        <translation>重命名服务器</translation>
    </message>
    <message>
        <source>New name for “%1”:</source>
        <translation>“%1”的新名称：</translation>
    </message>
    <message>
        <source>Rename</source>
        <translation>重命名</translation>
    </message>
    <message>
        <source>a server named “%1” already exists</source>
        <translation>已有名为“%1”的服务器</translation>
    </message>
    <message>
        <source>Not renamed: %1</source>
        <translation>未重命名：%1</translation>
    </message>
    <message>
        <source>Remove server</source>
        <translation>移除服务器</translation>
    </message>
    <message>
        <source>Remove the server “%1” from MCP Desk?</source>
        <translation>要从 MCP Desk 中移除服务器“%1”吗？</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Keep</source>
        <translation>保留</translation>
    </message>
    <message>
        <source>Also delete its saved keys from your computer&apos;s keychain</source>
        <translation>同时从系统钥匙串中删除它保存的密钥</translation>
    </message>
</context>
</TS>
