<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>DataView</name>
    <message numerus="yes">
        <source>…and %n more (all of it is in the raw answer).</source>
        <translation>
            <numerusform>…and %n more (all of it is in the raw answer).</numerusform>
            <numerusform>…and %n more (all of it is in the raw answer).</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>JsonTree</name>
    <message numerus="yes">
        <source>%n entries</source>
        <translation>
            <numerusform>%n entry</numerusform>
            <numerusform>%n entries</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n items</source>
        <translation>
            <numerusform>%n item</numerusform>
            <numerusform>%n items</numerusform>
        </translation>
    </message>
</context>
</TS>
