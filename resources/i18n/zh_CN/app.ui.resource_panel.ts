<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>PromptPanel</name>
    <message>
        <source>Show the prompt</source>
        <translation>显示提示词</translation>
    </message>
    <message>
        <source>Fill the prompt in with these values and show its messages</source>
        <translation>用这些值填写提示词，并显示生成的消息</translation>
    </message>
    <message>
        <source>Required</source>
        <translation>必填</translation>
    </message>
    <message>
        <source>Press “Show the prompt” to see its messages.</source>
        <translation>点击“显示提示词”查看它生成的消息。</translation>
    </message>
    <message>
        <source>Please fill in: %1</source>
        <translation>请填写：%1</translation>
    </message>
    <message numerus="yes">
        <source>The prompt has %n message(s).</source>
        <translation>
            <numerusform>这个提示词包含 %n 条消息。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ResourcePanel</name>
    <message>
        <source>Read</source>
        <translation>读取</translation>
    </message>
    <message>
        <source>Follow changes</source>
        <translation>跟踪更新</translation>
    </message>
    <message>
        <source>Read it again by itself whenever the server says it changed</source>
        <translation>服务器通知内容有变化时自动重新读取</translation>
    </message>
    <message>
        <source>Press Read to see the resource.</source>
        <translation>点击“读取”查看这个资源。</translation>
    </message>
    <message>
        <source>Fill in the fields and press Read.</source>
        <translation>填写各项后点击“读取”。</translation>
    </message>
    <message>
        <source>The server says this resource changed. Press Read to see the new version.</source>
        <translation>服务器通知这个资源已更改。点击“读取”查看新版本。</translation>
    </message>
    <message>
        <source>Updated at %1: the server said it changed, so it was read again.</source>
        <translation>已于 %1 更新：服务器通知内容有变化，已自动重新读取。</translation>
    </message>
</context>
</TS>
