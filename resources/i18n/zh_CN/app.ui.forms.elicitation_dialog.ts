<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>ElicitationDialog</name>
    <message>
        <source>%1 asks for information</source>
        <translation>%1 向你询问信息</translation>
    </message>
    <message>
        <source>A server asks for information</source>
        <translation>服务器向你询问信息</translation>
    </message>
    <message>
        <source>Information requested by a server</source>
        <translation>服务器请求的信息</translation>
    </message>
    <message>
        <source>Message from the server</source>
        <translation>来自服务器的消息</translation>
    </message>
    <message>
        <source>The server asks for nothing to fill in.</source>
        <translation>服务器没有要求填写任何内容。</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <source>Send the answer</source>
        <translation>发送回答</translation>
    </message>
    <message>
        <source>Send what you filled in to the server (Ctrl+Enter)</source>
        <translation>将填写的内容发送给服务器（Ctrl+Enter）</translation>
    </message>
    <message>
        <source>Decline</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <source>Decline to answer</source>
        <translation>拒绝回答</translation>
    </message>
    <message>
        <source>Tell the server you do not want to answer</source>
        <translation>告诉服务器你不想回答</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Close without answering</source>
        <translation>不回答并关闭</translation>
    </message>
</context>
</TS>
