<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>RegistryBrowser</name>
    <message>
        <source>&amp;Browse the server directory…</source>
        <translation>浏览服务器目录(&amp;B)…</translation>
    </message>
</context>
</TS>
