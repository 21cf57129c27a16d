<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>FormWidget</name>
    <message>
        <source>Addresses mentioned here:</source>
        <translation>此处提到的网址：</translation>
    </message>
</context>
<context>
    <name>HelpText</name>
    <message>
        <source>Help for %1</source>
        <translation>%1 的说明</translation>
    </message>
    <message>
        <source>Show all help for %1</source>
        <translation>显示 %1 的全部说明</translation>
    </message>
    <message>
        <source>Less</source>
        <translation>收起</translation>
    </message>
    <message>
        <source>More</source>
        <translation>更多</translation>
    </message>
</context>
</TS>
