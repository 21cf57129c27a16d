<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>HistoryModel</name>
    <message>
        <source>done</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>the tool reported a problem</source>
        <translation>工具报告了错误</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>调用失败</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>running…</source>
        <translation>正在运行…</translation>
    </message>
    <message>
        <source>draft, not run yet</source>
        <translation>草稿，尚未运行</translation>
    </message>
    <message>
        <source>What you typed into this tool&apos;s form and have not run yet.</source>
        <translation>你在这个工具的参数表单中填写了内容，但还没有运行。</translation>
    </message>
</context>
</TS>
