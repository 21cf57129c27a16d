<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>SafeMarkdownView</name>
    <message numerus="yes">
        <source>(The text goes on: the Markdown view shows its first %n characters.)</source>
        <translation>
            <numerusform>（内容还有更多：格式化视图只显示前 %n 个字符。）</numerusform>
        </translation>
    </message>
</context>
</TS>
