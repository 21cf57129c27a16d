<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>FormWidget</name>
    <message>
        <source>Arguments form</source>
        <translation>参数表单</translation>
    </message>
    <message>
        <source>Form or JSON</source>
        <translation>表单或 JSON</translation>
    </message>
    <message>
        <source>Fields</source>
        <translation>字段</translation>
    </message>
    <message>
        <source>Form</source>
        <translation>表单</translation>
    </message>
    <message>
        <source>JSON</source>
        <translation>JSON</translation>
    </message>
    <message>
        <source>Problems with the arguments</source>
        <translation>参数中的问题</translation>
    </message>
    <message>
        <source>The JSON does not parse: %1</source>
        <translation>JSON 格式有误：%1</translation>
    </message>
</context>
</TS>
