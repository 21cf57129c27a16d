<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>SafeText</name>
    <message>
        <source>Link not opened</source>
        <translation>未打开链接</translation>
    </message>
    <message>
        <source>This link cannot be opened from MCP Desk:</source>
        <translation>MCP Desk 无法打开这个链接：</translation>
    </message>
    <message>
        <source>Open link?</source>
        <translation>打开链接吗？</translation>
    </message>
    <message>
        <source>Open this address in your web browser?</source>
        <translation>要在浏览器中打开这个网址吗？</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
</context>
</TS>
