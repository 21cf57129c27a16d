<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>ChoiceEditor</name>
    <message>
        <source>Not set</source>
        <translation>未设置</translation>
    </message>
    <message>
        <source>Default: %1</source>
        <translation>默认：%1</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>请选择…</translation>
    </message>
    <message>
        <source>Type to search…</source>
        <translation>输入以搜索…</translation>
    </message>
    <message>
        <source>Pick one of the listed values.</source>
        <translation>请从列表中选择一个值。</translation>
    </message>
    <message>
        <source>Empty</source>
        <translation>空</translation>
    </message>
</context>
<context>
    <name>ConstEditor</name>
    <message>
        <source>empty</source>
        <translation>空</translation>
    </message>
</context>
<context>
    <name>DateEditor</name>
    <message>
        <source>Calendar for %1</source>
        <translation>%1 的日历</translation>
    </message>
</context>
<context>
    <name>JsonEditor</name>
    <message>
        <source>JSON value, e.g. &quot;text&quot;, 42, true, [&quot;a&quot;, &quot;b&quot;] or {&quot;name&quot;: &quot;value&quot;}</source>
        <translation>JSON 值，例如 &quot;文字&quot;、42、true、[&quot;a&quot;, &quot;b&quot;] 或 {&quot;name&quot;: &quot;value&quot;}</translation>
    </message>
    <message>
        <source>Typed as JSON: the form has no fields for this part of the tool&apos;s input.</source>
        <translation>以 JSON 填写：表单中没有适合这部分工具参数的字段。</translation>
    </message>
    <message>
        <source>Line %1, column %2: %3.</source>
        <translation>第 %1 行，第 %2 列：%3。</translation>
    </message>
    <message>
        <source>For plain text, put it in double quotes: &quot;like this&quot;.</source>
        <translation>如果是普通文字，请加上英文双引号，例如 &quot;像这样&quot;。</translation>
    </message>
    <message>
        <source>The JSON nests too deeply.</source>
        <translation>JSON 嵌套层级过深。</translation>
    </message>
</context>
<context>
    <name>NumberEditor</name>
    <message>
        <source>whole number</source>
        <translation>整数</translation>
    </message>
    <message>
        <source>number</source>
        <translation>数字</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>步长 %1</translation>
    </message>
    <message>
        <source>Enter a whole number.</source>
        <translation>请输入整数。</translation>
    </message>
    <message>
        <source>Enter a number.</source>
        <translation>请输入数字。</translation>
    </message>
    <message>
        <source>The number is too large.</source>
        <translation>数字太大。</translation>
    </message>
</context>
<context>
    <name>TextEditor</name>
    <message>
        <source>YYYY-MM-DD</source>
        <translation>年-月-日（YYYY-MM-DD）</translation>
    </message>
    <message>
        <source>e.g. 2026-12-01 14:30</source>
        <translation>例如 2026-12-01 14:30</translation>
    </message>
    <message>
        <source>HH:MM:SS</source>
        <translation>时:分:秒（HH:MM:SS）</translation>
    </message>
    <message>
        <source>name@example.com</source>
        <translation>name@example.com</translation>
    </message>
    <message>
        <source>Enter a date as YYYY-MM-DD.</source>
        <translation>请按 YYYY-MM-DD 格式输入日期。</translation>
    </message>
    <message>
        <source>Enter a date and time such as 2026-01-31T09:30:00Z.</source>
        <translation>请输入日期和时间，例如 2026-01-31T09:30:00Z。</translation>
    </message>
    <message>
        <source>Enter a time as HH:MM:SS.</source>
        <translation>请按 HH:MM:SS 格式输入时间。</translation>
    </message>
    <message>
        <source>Enter an e-mail address such as name@example.com.</source>
        <translation>请输入电子邮件地址，例如 name@example.com。</translation>
    </message>
    <message>
        <source>Enter an address such as https://example.com.</source>
        <translation>请输入网址，例如 https://example.com。</translation>
    </message>
    <message>
        <source>Enter an id such as 123e4567-e89b-12d3-a456-426614174000.</source>
        <translation>请输入 ID，例如 123e4567-e89b-12d3-a456-426614174000。</translation>
    </message>
    <message>
        <source>Default: %1</source>
        <translation>默认：%1</translation>
    </message>
    <message>
        <source>e.g. %1</source>
        <translation>例如 %1</translation>
    </message>
    <message>
        <source>%1 for %2</source>
        <translation>%2：%1</translation>
    </message>
    <message>
        <source>Pick…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <source>Pick a date</source>
        <translation>选择日期</translation>
    </message>
    <message>
        <source>Now</source>
        <translation>现在</translation>
    </message>
    <message>
        <source>Insert the current time</source>
        <translation>填入当前时间</translation>
    </message>
    <message>
        <source>New</source>
        <translation>新建</translation>
    </message>
    <message>
        <source>Make up a new random id</source>
        <translation>生成一个新的随机 ID</translation>
    </message>
</context>
</TS>
