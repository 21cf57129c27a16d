<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>CatalogNotice</name>
    <message numerus="yes">
        <source>%n tool(s) added</source>
        <translation>
            <numerusform>新增 %n 个工具</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n tool(s) removed</source>
        <translation>
            <numerusform>移除 %n 个工具</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n tool(s) changed</source>
        <translation>
            <numerusform>%n 个工具有更改</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n resource(s) added</source>
        <translation>
            <numerusform>新增 %n 个资源</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n resource(s) removed</source>
        <translation>
            <numerusform>移除 %n 个资源</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n resource(s) changed</source>
        <translation>
            <numerusform>%n 个资源有更改</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n template(s) added</source>
        <translation>
            <numerusform>新增 %n 个资源模板</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n template(s) removed</source>
        <translation>
            <numerusform>移除 %n 个资源模板</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n template(s) changed</source>
        <translation>
            <numerusform>%n 个资源模板有更改</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n prompt(s) added</source>
        <translation>
            <numerusform>新增 %n 个提示词</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n prompt(s) removed</source>
        <translation>
            <numerusform>移除 %n 个提示词</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n prompt(s) changed</source>
        <translation>
            <numerusform>%n 个提示词有更改</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n added</source>
        <translation>
            <numerusform>新增 %n 个</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n removed</source>
        <translation>
            <numerusform>移除 %n 个</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n changed</source>
        <translation>
            <numerusform>%n 个有更改</numerusform>
        </translation>
    </message>
    <message>
        <source>added: %1</source>
        <translation>新增：%1</translation>
    </message>
    <message>
        <source>removed: %1</source>
        <translation>移除：%1</translation>
    </message>
    <message>
        <source>changed: %1</source>
        <translation>更改：%1</translation>
    </message>
    <message>
        <source>, </source>
        <translation>，</translation>
    </message>
</context>
</TS>
