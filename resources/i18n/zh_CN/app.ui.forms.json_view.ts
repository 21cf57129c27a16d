<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>JsonView</name>
    <message>
        <source>Arguments as JSON</source>
        <translation>以 JSON 表示的参数</translation>
    </message>
    <message>
        <source>JSON status</source>
        <translation>JSON 状态</translation>
    </message>
    <message>
        <source>Line %1, column %2: %3.</source>
        <translation>第 %1 行，第 %2 列：%3。</translation>
    </message>
    <message>
        <source>The JSON nests too deeply.</source>
        <translation>JSON 嵌套层级过深。</translation>
    </message>
    <message>
        <source>Edit the arguments here or in the form; both stay in step.</source>
        <translation>可以在这里或表单中编辑参数，两边会保持一致。</translation>
    </message>
</context>
</TS>
