<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>ErrorWords</name>
    <message numerus="yes">
        <source>Enter at least %n character(s).</source>
        <translation>
            <numerusform>Enter at least %n character.</numerusform>
            <numerusform>Enter at least %n characters.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Enter at most %n character(s).</source>
        <translation>
            <numerusform>Enter at most %n character.</numerusform>
            <numerusform>Enter at most %n characters.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Add at least %n item(s).</source>
        <translation>
            <numerusform>Add at least %n item.</numerusform>
            <numerusform>Add at least %n items.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Keep at most %n item(s).</source>
        <translation>
            <numerusform>Keep at most %n item.</numerusform>
            <numerusform>Keep at most %n items.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TitleWords</name>
    <message numerus="yes">
        <source>One of %n kind(s)</source>
        <translation>
            <numerusform>One of %n kind</numerusform>
            <numerusform>One of %n kinds</numerusform>
        </translation>
    </message>
</context>
</TS>
