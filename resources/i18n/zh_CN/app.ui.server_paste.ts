<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>ServerDialog</name>
    <message>
        <source>Paste a snippet</source>
        <translation>粘贴片段</translation>
    </message>
    <message>
        <source>Paste the server&apos;s configuration snippet (or its command line) from its README:</source>
        <translation>粘贴服务器 README 中的配置片段（或它的命令行）：</translation>
    </message>
    <message>
        <source>Paste</source>
        <translation>粘贴</translation>
    </message>
    <message>
        <source>The snippet holds %1 servers: %2. Press Save to add them all (keys go to the keychain).</source>
        <translation>这个片段包含 %1 个服务器：%2。点击“保存”把它们全部添加（密钥会保存到钥匙串中）。</translation>
    </message>
    <message>
        <source>An example value: replace it with your own above.</source>
        <translation>这是示例值：请在上方替换成你自己的值。</translation>
    </message>
</context>
</TS>
