<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>KeychainNotice</name>
    <message>
        <source>&amp;Try again</source>
        <translation>重试(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Keep keys for this session only</source>
        <translation>仅本次运行期间保存密钥(&amp;K)</translation>
    </message>
    <message>
        <source>Keys you set are kept until MCP Desk closes, never in a file.</source>
        <translation>你设置的密钥保存到 MCP Desk 关闭为止，从不写入文件。</translation>
    </message>
</context>
<context>
    <name>SecretDialog</name>
    <message>
        <source>Replace the key</source>
        <translation>替换密钥</translation>
    </message>
    <message>
        <source>Add a key</source>
        <translation>添加密钥</translation>
    </message>
    <message>
        <source>The key for %1 goes to your computer&apos;s keychain.</source>
        <translation>%1 的密钥会保存到系统钥匙串中。</translation>
    </message>
    <message>
        <source>The new value of %1 for %2 goes to your computer&apos;s keychain.</source>
        <translation>%2 的 %1 的新值会保存到系统钥匙串中。</translation>
    </message>
    <message>
        <source>for example BRAVE_API_KEY</source>
        <translation>例如 BRAVE_API_KEY</translation>
    </message>
    <message>
        <source>type or paste the key</source>
        <translation>输入或粘贴密钥</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <source>&amp;Value:</source>
        <translation>值(&amp;V)：</translation>
    </message>
    <message>
        <source>Give the key a name.</source>
        <translation>请给密钥起个名字。</translation>
    </message>
    <message>
        <source>A key&apos;s name has only letters, digits, &apos;_&apos;, &apos;-&apos; and &apos;.&apos;.</source>
        <translation>密钥名称只能包含字母、数字、“_”、“-”和“.”。</translation>
    </message>
</context>
</TS>
