<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Reasons</name>
    <message>
        <source>the server lost the session and a new one could not be started: %1</source>
        <translation>服务器丢失了会话，且无法开始新的会话：%1</translation>
    </message>
    <message>
        <source>the server lost the new session too before answering on it</source>
        <translation>服务器在回应之前又丢失了新的会话</translation>
    </message>
    <message>
        <source>the first handshake was not seen</source>
        <translation>没有看到最初的握手</translation>
    </message>
    <message>
        <source>the server now answers with protocol %1</source>
        <translation>服务器现在使用协议 %1 回应</translation>
    </message>
    <message>
        <source>the server started no new session</source>
        <translation>服务器没有开始新的会话</translation>
    </message>
</context>
</TS>
