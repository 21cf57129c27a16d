<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>ListHint</name>
    <message numerus="yes">
        <source>at least %n item(s)</source>
        <translation>
            <numerusform>at least %n item</numerusform>
            <numerusform>at least %n items</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>at most %n item(s)</source>
        <translation>
            <numerusform>at most %n item</numerusform>
            <numerusform>at most %n items</numerusform>
        </translation>
    </message>
</context>
</TS>
