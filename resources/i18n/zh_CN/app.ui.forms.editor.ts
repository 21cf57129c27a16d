<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>FormWidget</name>
    <message>
        <source>This tool needs no input.</source>
        <translation>此工具无需填写任何内容。</translation>
    </message>
</context>
</TS>
