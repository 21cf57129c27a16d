<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>SamplingDialog</name>
    <message>
        <source>%1 asks for a model&apos;s answer</source>
        <translation>%1 请求模型回答</translation>
    </message>
    <message>
        <source>The server “%1” wants an AI model to answer the conversation below. MCP Desk has no model of its own: write or paste the answer yourself, or decline.</source>
        <translation>服务器“%1”希望由 AI 模型回答下面的对话。MCP Desk 没有自己的模型：请自己写下或粘贴回答，或者拒绝。</translation>
    </message>
    <message>
        <source>Conversation</source>
        <translation>对话</translation>
    </message>
    <message>
        <source>Your answer:</source>
        <translation>你的回答：</translation>
    </message>
    <message>
        <source>Your answer</source>
        <translation>你的回答</translation>
    </message>
    <message>
        <source>Send answer</source>
        <translation>发送回答</translation>
    </message>
    <message>
        <source>Decline</source>
        <translation>拒绝</translation>
    </message>
</context>
<context>
    <name>ServerRequests</name>
    <message>
        <source>Instructions for the model:</source>
        <translation>给模型的说明：</translation>
    </message>
    <message>
        <source>Model preferences: %1</source>
        <translation>模型偏好：%1</translation>
    </message>
    <message>
        <source>Longest answer: %1 tokens</source>
        <translation>回答最长：%1 个 token</translation>
    </message>
    <message>
        <source>%1 asks for information</source>
        <translation>%1 向你询问信息</translation>
    </message>
    <message>
        <source>Once you are done there, MCP Desk runs the request again by itself.</source>
        <translation>你在该网页上完成后，MCP Desk 会自动重新发送这个请求。</translation>
    </message>
    <message>
        <source>%1 asks you to open a web page</source>
        <translation>%1 请你打开一个网页</translation>
    </message>
    <message>
        <source>The server “%1” says:</source>
        <translation>服务器“%1”说：</translation>
    </message>
    <message>
        <source>It wants to open this address:</source>
        <translation>它想打开这个网址：</translation>
    </message>
    <message>
        <source>Open in browser</source>
        <translation>在浏览器中打开</translation>
    </message>
    <message>
        <source>Decline</source>
        <translation>拒绝</translation>
    </message>
</context>
</TS>
