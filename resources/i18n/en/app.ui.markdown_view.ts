<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>SafeMarkdownView</name>
    <message numerus="yes">
        <source>(The text goes on: the Markdown view shows its first %n characters.)</source>
        <translation>
            <numerusform>(The text goes on: the formatted view shows its first %n character.)</numerusform>
            <numerusform>(The text goes on: the formatted view shows its first %n characters.)</numerusform>
        </translation>
    </message>
</context>
</TS>
