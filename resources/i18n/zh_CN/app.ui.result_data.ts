<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>DataView</name>
    <message numerus="yes">
        <source>…and %n more (all of it is in the raw answer).</source>
        <translation>
            <numerusform>……还有 %n 项（完整内容见原始回答）。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>JsonTree</name>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message numerus="yes">
        <source>%n entries</source>
        <translation>
            <numerusform>%n 项</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n items</source>
        <translation>
            <numerusform>%n 个</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ResultData</name>
    <message>
        <source>not set</source>
        <translation>未设置</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>(an empty list)</source>
        <translation>（空列表）</translation>
    </message>
    <message>
        <source>(no entries)</source>
        <translation>（没有内容）</translation>
    </message>
</context>
</TS>
