<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>ErrorWords</name>
    <message>
        <source>This field is required.</source>
        <translation>此项为必填项。</translation>
    </message>
    <message>
        <source>Choose one of the listed values.</source>
        <translation>请从列表中选择一个值。</translation>
    </message>
    <message>
        <source>Must be %1.</source>
        <translation>必须是 %1。</translation>
    </message>
    <message numerus="yes">
        <source>Enter at least %n character(s).</source>
        <translation>
            <numerusform>请至少输入 %n 个字符。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Enter at most %n character(s).</source>
        <translation>
            <numerusform>最多输入 %n 个字符。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Add at least %n item(s).</source>
        <translation>
            <numerusform>请至少添加 %n 项。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Keep at most %n item(s).</source>
        <translation>
            <numerusform>最多保留 %n 项。</numerusform>
        </translation>
    </message>
    <message>
        <source>Must be at least %1.</source>
        <translation>不能小于 %1。</translation>
    </message>
    <message>
        <source>Must be at most %1.</source>
        <translation>不能大于 %1。</translation>
    </message>
    <message>
        <source>Must be more than %1.</source>
        <translation>必须大于 %1。</translation>
    </message>
    <message>
        <source>Must be less than %1.</source>
        <translation>必须小于 %1。</translation>
    </message>
    <message>
        <source>Must be a multiple of %1.</source>
        <translation>必须是 %1 的倍数。</translation>
    </message>
    <message>
        <source>Must match the pattern %1</source>
        <translation>必须符合格式 %1</translation>
    </message>
    <message>
        <source>Items must all be different.</source>
        <translation>各项不能重复。</translation>
    </message>
    <message>
        <source>This field&apos;s pattern took too long to check.</source>
        <translation>检查此项的格式耗时过长。</translation>
    </message>
    <message>
        <source>Must be %1 or %2.</source>
        <translation>必须是%1或%2。</translation>
    </message>
    <message>
        <source>The value matches more than one of the allowed forms.</source>
        <translation>此值同时符合多种允许的形式，无法确定。</translation>
    </message>
    <message>
        <source>The value does not fit any of the allowed forms.</source>
        <translation>此值不符合任何一种允许的形式。</translation>
    </message>
    <message>
        <source>Not a valid date.</source>
        <translation>不是有效的日期。</translation>
    </message>
    <message>
        <source>Not a valid date and time.</source>
        <translation>不是有效的日期和时间。</translation>
    </message>
    <message>
        <source>Not a valid time.</source>
        <translation>不是有效的时间。</translation>
    </message>
    <message>
        <source>Not a valid e-mail address.</source>
        <translation>不是有效的电子邮件地址。</translation>
    </message>
    <message>
        <source>Not a valid web address.</source>
        <translation>不是有效的网址。</translation>
    </message>
    <message>
        <source>Not a valid id.</source>
        <translation>不是有效的 ID。</translation>
    </message>
    <message>
        <source>This value does not have the expected form.</source>
        <translation>此值的格式不符合要求。</translation>
    </message>
    <message>
        <source>text</source>
        <translation>文字</translation>
    </message>
    <message>
        <source>a whole number</source>
        <translation>整数</translation>
    </message>
    <message>
        <source>a number</source>
        <translation>数字</translation>
    </message>
    <message>
        <source>yes or no</source>
        <translation>是或否</translation>
    </message>
    <message>
        <source>a group of fields</source>
        <translation>一组字段</translation>
    </message>
    <message>
        <source>a list</source>
        <translation>列表</translation>
    </message>
    <message>
        <source>empty</source>
        <translation>空</translation>
    </message>
</context>
<context>
    <name>TitleWords</name>
    <message>
        <source>%1 (from a list)</source>
        <translation>%1（从列表中选择）</translation>
    </message>
    <message>
        <source>List of %1</source>
        <translation>%1列表</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>With %1</source>
        <translation>包含 %1</translation>
    </message>
    <message numerus="yes">
        <source>One of %n kind(s)</source>
        <translation>
            <numerusform>%n 种类型之一</numerusform>
        </translation>
    </message>
    <message>
        <source>Option %1</source>
        <translation>选项 %1</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>文字</translation>
    </message>
    <message>
        <source>Number</source>
        <translation>数字</translation>
    </message>
    <message>
        <source>Whole number</source>
        <translation>整数</translation>
    </message>
    <message>
        <source>Yes/no</source>
        <translation>是/否</translation>
    </message>
    <message>
        <source>Group of fields</source>
        <translation>一组字段</translation>
    </message>
    <message>
        <source>List</source>
        <translation>列表</translation>
    </message>
    <message>
        <source>Nothing</source>
        <translation>无</translation>
    </message>
    <message>
        <source>texts</source>
        <translation>文字</translation>
    </message>
    <message>
        <source>numbers</source>
        <translation>数字</translation>
    </message>
    <message>
        <source>whole numbers</source>
        <translation>整数</translation>
    </message>
    <message>
        <source>yes/no values</source>
        <translation>是/否</translation>
    </message>
    <message>
        <source>groups of fields</source>
        <translation>字段组</translation>
    </message>
    <message>
        <source>lists</source>
        <translation>列表</translation>
    </message>
    <message>
        <source>empty values</source>
        <translation>空值</translation>
    </message>
    <message>
        <source>date</source>
        <translation>日期</translation>
    </message>
    <message>
        <source>date and time</source>
        <translation>日期和时间</translation>
    </message>
    <message>
        <source>time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>e-mail address</source>
        <translation>电子邮件地址</translation>
    </message>
    <message>
        <source>web address</source>
        <translation>网址</translation>
    </message>
    <message>
        <source>id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>password</source>
        <translation>密码</translation>
    </message>
</context>
</TS>
