<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>BottomDock</name>
    <message>
        <source>Minimum level</source>
        <translation>最低级别</translation>
    </message>
    <message>
        <source>How much the server sends</source>
        <translation>服务器发送多少日志</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>清空</translation>
    </message>
    <message>
        <source>Server:</source>
        <translation>服务器：</translation>
    </message>
    <message>
        <source>Level at least:</source>
        <translation>最低级别：</translation>
    </message>
    <message>
        <source>Server sends at least:</source>
        <translation>服务器发送的最低级别：</translation>
    </message>
    <message>
        <source>Log</source>
        <translation>日志</translation>
    </message>
    <message>
        <source>Messages</source>
        <translation>消息记录</translation>
    </message>
    <message>
        <source>What MCP Desk and the servers send each other (developer mode)</source>
        <translation>MCP Desk 与服务器之间互相发送的内容（开发者模式）</translation>
    </message>
    <message>
        <source>History</source>
        <translation>历史</translation>
    </message>
    <message>
        <source>Choose a server to set how much it sends</source>
        <translation>先选择一个服务器，再设置它发送多少日志</translation>
    </message>
    <message>
        <source>How much “%1” is asked to send to the log; kept with its settings</source>
        <translation>要求“%1”向活动日志发送多少内容；随该服务器的设置一起保存</translation>
    </message>
    <message>
        <source>Copy message</source>
        <translation>复制消息</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <source>Re-run with these arguments</source>
        <translation>用这些参数再次运行</translation>
    </message>
    <message>
        <source>Open the draft</source>
        <translation>打开草稿</translation>
    </message>
</context>
<context>
    <name>ServerFilterCombo</name>
    <message>
        <source>All servers</source>
        <translation>所有服务器</translation>
    </message>
    <message>
        <source>Server filter</source>
        <translation>按服务器筛选</translation>
    </message>
</context>
</TS>
