<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>TaskRow</name>
    <message>
        <source>The server says</source>
        <translation>服务器说明</translation>
    </message>
    <message>
        <source>Cancel task</source>
        <translation>取消任务</translation>
    </message>
    <message>
        <source>Ask the server to stop this task</source>
        <translation>请服务器停止此任务</translation>
    </message>
    <message>
        <source>Leave it running</source>
        <translation>让它继续运行</translation>
    </message>
    <message>
        <source>Stop waiting here: the task goes on, its result comes to the History when it ends</source>
        <translation>不在这里等待：任务继续运行，结束后结果会出现在“历史”中</translation>
    </message>
    <message>
        <source>Show result</source>
        <translation>查看结果</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Task: %1 on %2</source>
        <translation>任务：%2 上的 %1</translation>
    </message>
    <message>
        <source>left running on the server</source>
        <translation>已留在服务器上继续运行</translation>
    </message>
    <message>
        <source>Task id: %1</source>
        <translation>任务 ID：%1</translation>
    </message>
</context>
<context>
    <name>TaskView</name>
    <message>
        <source>running on the server</source>
        <translation>正在服务器上运行</translation>
    </message>
    <message>
        <source>waiting for your answer</source>
        <translation>等待你的回答</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>the call failed</source>
        <translation>调用失败</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
</context>
</TS>
