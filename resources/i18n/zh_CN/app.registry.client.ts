<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Reasons</name>
    <message>
        <source>the server directory cannot be reached: check your internet connection</source>
        <translation>无法连接服务器目录：请检查网络连接</translation>
    </message>
    <message>
        <source>this server is not in the server directory (any more)</source>
        <translation>此服务器不在服务器目录中（或已不在）</translation>
    </message>
    <message>
        <source>the server directory&apos;s answer is too large to read</source>
        <translation>服务器目录的回复太大，无法读取</translation>
    </message>
    <message>
        <source>the server directory&apos;s answer could not be read (not JSON)</source>
        <translation>无法读取服务器目录的回复（不是 JSON）</translation>
    </message>
    <message>
        <source>the server directory&apos;s answer is not a list of servers</source>
        <translation>服务器目录的回复不是服务器列表</translation>
    </message>
    <message>
        <source>the server directory&apos;s answer does not describe a server</source>
        <translation>服务器目录的回复没有描述一个服务器</translation>
    </message>
    <message>
        <source>this server was removed from the server directory</source>
        <translation>此服务器已从服务器目录中移除</translation>
    </message>
    <message>
        <source>the server directory answered with an error (HTTP %1)</source>
        <translation>服务器目录返回了错误（HTTP %1）</translation>
    </message>
    <message>
        <source>the server directory sent us elsewhere (HTTP %1)</source>
        <translation>服务器目录把我们转到了别处（HTTP %1）</translation>
    </message>
    <message>
        <source>The server directory marks this server as deprecated: %1</source>
        <translation>服务器目录将此服务器标记为已弃用：%1</translation>
    </message>
    <message>
        <source>The server directory marks this server as deprecated; it may stop working or be replaced.</source>
        <translation>服务器目录将此服务器标记为已弃用；它可能停止工作或被替代。</translation>
    </message>
</context>
</TS>
