<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>TrustDialog</name>
    <message numerus="yes">
        <source>%n more server(s) will ask after this one.</source>
        <translation>
            <numerusform>%n more server will ask after this one.</numerusform>
            <numerusform>%n more servers will ask after this one.</numerusform>
        </translation>
    </message>
</context>
</TS>
