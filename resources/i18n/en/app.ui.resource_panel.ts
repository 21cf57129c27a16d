<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>PromptPanel</name>
    <message numerus="yes">
        <source>The prompt has %n message(s).</source>
        <translation>
            <numerusform>The prompt has %n message.</numerusform>
            <numerusform>The prompt has %n messages.</numerusform>
        </translation>
    </message>
</context>
</TS>
