<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>CrashDialog</name>
    <message numerus="yes">
        <source>This has happened %n time(s) so far.</source>
        <translation>
            <numerusform>This has happened %n time so far.</numerusform>
            <numerusform>This has happened %n times so far.</numerusform>
        </translation>
    </message>
</context>
</TS>
