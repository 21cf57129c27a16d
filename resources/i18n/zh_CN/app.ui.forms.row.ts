<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>FieldRow</name>
    <message>
        <source>Show or hide %1</source>
        <translation>显示或隐藏 %1</translation>
    </message>
    <message>
        <source>Not set</source>
        <translation>未设置</translation>
    </message>
    <message>
        <source>Send this field as empty (null) instead of leaving it out of the request</source>
        <translation>将此字段作为空值（null）发送，而不是在请求中省略它</translation>
    </message>
    <message>
        <source>%1 is not set</source>
        <translation>%1 未设置</translation>
    </message>
    <message>
        <source>The form cannot show this value exactly, so it is shown as JSON.</source>
        <translation>表单无法准确显示此值，因此以 JSON 显示。</translation>
    </message>
    <message>
        <source>Use the form</source>
        <translation>改用表单</translation>
    </message>
    <message>
        <source>Edit %1 with the form again</source>
        <translation>重新用表单编辑 %1</translation>
    </message>
    <message>
        <source>%1 (JSON)</source>
        <translation>%1（JSON）</translation>
    </message>
    <message>
        <source>This value does not fit the form; keep editing it as JSON.</source>
        <translation>此值无法用表单显示，请继续以 JSON 编辑。</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>清除</translation>
    </message>
    <message>
        <source>Leave this field empty</source>
        <translation>让此字段留空</translation>
    </message>
    <message>
        <source>Clear %1</source>
        <translation>清除 %1</translation>
    </message>
    <message>
        <source>Problem with %1</source>
        <translation>%1 有问题</translation>
    </message>
</context>
</TS>
