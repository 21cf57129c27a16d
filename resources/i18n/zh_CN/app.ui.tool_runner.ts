<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>ToolRunner</name>
    <message>
        <source>Please correct the highlighted fields first.</source>
        <translation>请先修正标出的字段。</translation>
    </message>
    <message>
        <source>%1 is not connected</source>
        <translation>%1 未连接</translation>
    </message>
    <message>
        <source>Run this tool?</source>
        <translation>要运行这个工具吗？</translation>
    </message>
    <message>
        <source>The tool “%1” on “%2” says it may delete or change things. Run it?</source>
        <translation>“%2”上的工具“%1”声明它可能删除或修改数据。要运行吗？</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Don&apos;t ask again for this tool</source>
        <translation>这个工具不再询问</translation>
    </message>
</context>
</TS>
