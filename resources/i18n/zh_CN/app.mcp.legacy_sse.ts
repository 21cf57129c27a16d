<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Reasons</name>
    <message>
        <source>the server refused the message (HTTP %1 %2)</source>
        <translation>服务器拒绝了这条消息（HTTP %1 %2）</translation>
    </message>
    <message>
        <source>the server refused the message (HTTP %1 %2): %3</source>
        <translation>服务器拒绝了这条消息（HTTP %1 %2）：%3</translation>
    </message>
    <message>
        <source>the server no longer knows this connection (HTTP 404)</source>
        <translation>服务器已不认识这个连接（HTTP 404）</translation>
    </message>
</context>
</TS>
