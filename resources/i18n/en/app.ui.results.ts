<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>TextBlock</name>
    <message numerus="yes">
        <source>This text is too long for the Markdown view (more than %n characters).</source>
        <translation>
            <numerusform>This text is too long to show formatted (more than %n character).</numerusform>
            <numerusform>This text is too long to show formatted (more than %n characters).</numerusform>
        </translation>
    </message>
</context>
</TS>
