<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>CatalogPanel</name>
    <message numerus="yes">
        <source>Tools (%n)</source>
        <translation>
            <numerusform>Tools (%n)</numerusform>
            <numerusform>Tools (%n)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Resources (%n)</source>
        <translation>
            <numerusform>Resources (%n)</numerusform>
            <numerusform>Resources (%n)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Prompts (%n)</source>
        <translation>
            <numerusform>Prompts (%n)</numerusform>
            <numerusform>Prompts (%n)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>…and %n more.</source>
        <translation>
            <numerusform>…and %n more.</numerusform>
            <numerusform>…and %n more.</numerusform>
        </translation>
    </message>
</context>
</TS>
