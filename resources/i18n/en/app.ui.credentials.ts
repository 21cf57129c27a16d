<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>CredentialsView</name>
    <message numerus="yes">
        <source>Delete %n key(s) of servers that are no longer in your list?</source>
        <translation>
            <numerusform>Delete %n key of servers that are no longer in your list?</numerusform>
            <numerusform>Delete %n keys of servers that are no longer in your list?</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Deleted %n unused key(s).</source>
        <translation>
            <numerusform>Deleted %n unused key.</numerusform>
            <numerusform>Deleted %n unused keys.</numerusform>
        </translation>
    </message>
</context>
</TS>
