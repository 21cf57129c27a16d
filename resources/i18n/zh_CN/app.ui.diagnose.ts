<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>DiagnoseButton</name>
    <message>
        <source>Diagnose…</source>
        <translation>诊断…</translation>
    </message>
    <message>
        <source>Check this server step by step and see what to fix</source>
        <translation>逐步检查此服务器，看看需要修复什么</translation>
    </message>
</context>
<context>
    <name>DiagnoseDialog</name>
    <message>
        <source>Diagnose %1</source>
        <translation>诊断 %1</translation>
    </message>
    <message>
        <source>Checking %1 step by step…</source>
        <translation>正在逐步检查 %1…</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <source>The diagnosis stopped: %1</source>
        <translation>诊断中止了：%1</translation>
    </message>
    <message>
        <source>The first failed step is what to fix.</source>
        <translation>第一个出问题的步骤就是要修复的地方。</translation>
    </message>
    <message>
        <source>It works, but see the warnings.</source>
        <translation>可以工作，但请看看警告。</translation>
    </message>
    <message>
        <source>No problem found.</source>
        <translation>没有发现问题。</translation>
    </message>
    <message>
        <source>OK</source>
        <translation>正常</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>Problem</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>说明</translation>
    </message>
    <message>
        <source>What to do: %1</source>
        <translation>怎么办：%1</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
</context>
</TS>
