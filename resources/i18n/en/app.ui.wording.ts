<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>CatalogNotice</name>
    <message numerus="yes">
        <source>%n tool(s) added</source>
        <translation>
            <numerusform>%n tool added</numerusform>
            <numerusform>%n tools added</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n tool(s) removed</source>
        <translation>
            <numerusform>%n tool removed</numerusform>
            <numerusform>%n tools removed</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n tool(s) changed</source>
        <translation>
            <numerusform>%n tool changed</numerusform>
            <numerusform>%n tools changed</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n resource(s) added</source>
        <translation>
            <numerusform>%n resource added</numerusform>
            <numerusform>%n resources added</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n resource(s) removed</source>
        <translation>
            <numerusform>%n resource removed</numerusform>
            <numerusform>%n resources removed</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n resource(s) changed</source>
        <translation>
            <numerusform>%n resource changed</numerusform>
            <numerusform>%n resources changed</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n template(s) added</source>
        <translation>
            <numerusform>%n template added</numerusform>
            <numerusform>%n templates added</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n template(s) removed</source>
        <translation>
            <numerusform>%n template removed</numerusform>
            <numerusform>%n templates removed</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n template(s) changed</source>
        <translation>
            <numerusform>%n template changed</numerusform>
            <numerusform>%n templates changed</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n prompt(s) added</source>
        <translation>
            <numerusform>%n prompt added</numerusform>
            <numerusform>%n prompts added</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n prompt(s) removed</source>
        <translation>
            <numerusform>%n prompt removed</numerusform>
            <numerusform>%n prompts removed</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n prompt(s) changed</source>
        <translation>
            <numerusform>%n prompt changed</numerusform>
            <numerusform>%n prompts changed</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n added</source>
        <translation>
            <numerusform>%n added</numerusform>
            <numerusform>%n added</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n removed</source>
        <translation>
            <numerusform>%n removed</numerusform>
            <numerusform>%n removed</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n changed</source>
        <translation>
            <numerusform>%n changed</numerusform>
            <numerusform>%n changed</numerusform>
        </translation>
    </message>
</context>
</TS>
