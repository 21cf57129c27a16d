<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>ServerDialog</name>
    <message numerus="yes">
        <source>%n argument(s): %1</source>
        <translation>
            <numerusform>%n argument: %1</numerusform>
            <numerusform>%n arguments: %1</numerusform>
        </translation>
    </message>
</context>
</TS>
