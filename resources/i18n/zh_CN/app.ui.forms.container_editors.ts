<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>ArrayEditor</name>
    <message>
        <source>Add item</source>
        <translation>添加一项</translation>
    </message>
    <message>
        <source>Move up</source>
        <translation>上移</translation>
    </message>
    <message>
        <source>Move down</source>
        <translation>下移</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>%1 item %2</source>
        <translation>%1 第 %2 项</translation>
    </message>
    <message>
        <source>Add an item to %1</source>
        <translation>向 %1 添加一项</translation>
    </message>
    <message>
        <source>Move %1 up</source>
        <translation>上移 %1</translation>
    </message>
    <message>
        <source>Move %1 down</source>
        <translation>下移 %1</translation>
    </message>
    <message>
        <source>Remove %1</source>
        <translation>删除 %1</translation>
    </message>
</context>
<context>
    <name>FormWidget</name>
    <message>
        <source>No settings.</source>
        <translation>没有可设置的内容。</translation>
    </message>
</context>
<context>
    <name>ListHint</name>
    <message numerus="yes">
        <source>at least %n item(s)</source>
        <translation>
            <numerusform>至少 %n 项</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>at most %n item(s)</source>
        <translation>
            <numerusform>最多 %n 项</numerusform>
        </translation>
    </message>
    <message>
        <source>Choose %1 and %2</source>
        <translation>请选择%1，%2</translation>
    </message>
    <message>
        <source>Choose %1</source>
        <translation>请选择%1</translation>
    </message>
</context>
<context>
    <name>MapEditor</name>
    <message>
        <source>Add an entry</source>
        <translation>添加条目</translation>
    </message>
    <message>
        <source>Add an entry to %1</source>
        <translation>向 %1 添加条目</translation>
    </message>
    <message>
        <source>name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Name of an entry in %1</source>
        <translation>%1 中条目的名称</translation>
    </message>
    <message>
        <source>Value of %1</source>
        <translation>%1 的值</translation>
    </message>
    <message>
        <source>Value of the entry</source>
        <translation>条目的值</translation>
    </message>
    <message>
        <source>Remove this entry</source>
        <translation>删除此条目</translation>
    </message>
    <message>
        <source>Remove entry %1 from %2</source>
        <translation>从 %2 删除条目 %1</translation>
    </message>
</context>
<context>
    <name>ObjectEditor</name>
    <message>
        <source>More entries</source>
        <translation>更多条目</translation>
    </message>
</context>
<context>
    <name>VariantEditor</name>
    <message>
        <source>Kind:</source>
        <translation>类型：</translation>
    </message>
    <message>
        <source>Kind of %1</source>
        <translation>%1 的类型</translation>
    </message>
</context>
</TS>
