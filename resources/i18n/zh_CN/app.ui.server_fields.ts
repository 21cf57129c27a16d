<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>ExampleValues</name>
    <message>
        <source>This snippet holds example values. Replace each example value with your own: the server cannot work with the example.</source>
        <translation>这个片段包含示例值。请把每个示例值替换成你自己的值：服务器无法使用示例值工作。</translation>
    </message>
    <message>
        <source>your key (kept in your computer&apos;s keychain)</source>
        <translation>你的密钥（保存在系统钥匙串中）</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Replace the example value “%1” with your own.</source>
        <translation>请把示例值“%1”替换成你自己的值。</translation>
    </message>
    <message>
        <source>Choose a folder</source>
        <translation>选择文件夹</translation>
    </message>
    <message>
        <source>Choose a file</source>
        <translation>选择文件</translation>
    </message>
    <message>
        <source>Enter your own value here.</source>
        <translation>请在这里填写你自己的值。</translation>
    </message>
</context>
<context>
    <name>KeyValueRows</name>
    <message>
        <source>Add variable</source>
        <translation>添加变量</translation>
    </message>
    <message>
        <source>Add header</source>
        <translation>添加请求头</translation>
    </message>
    <message>
        <source>Variable name</source>
        <translation>变量名</translation>
    </message>
    <message>
        <source>Header name</source>
        <translation>请求头名称</translation>
    </message>
    <message>
        <source>Variable value</source>
        <translation>变量值</translation>
    </message>
    <message>
        <source>Header value</source>
        <translation>请求头的值</translation>
    </message>
    <message>
        <source>value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>secret</source>
        <translation>保密</translation>
    </message>
    <message>
        <source>Keep the value in your computer&apos;s keychain, not in the settings file</source>
        <translation>把值保存在系统钥匙串中，而不是设置文件里</translation>
    </message>
    <message>
        <source>Remove this row</source>
        <translation>移除这一行</translation>
    </message>
    <message>
        <source>Remove row</source>
        <translation>移除这一行</translation>
    </message>
</context>
<context>
    <name>KeyringNotice</name>
    <message>
        <source>Keep for this session only</source>
        <translation>仅本次运行期间保存</translation>
    </message>
    <message>
        <source>The server connects now; the key is forgotten when MCP Desk exits.</source>
        <translation>服务器现在就会连接；MCP Desk 退出时会忘记这个密钥。</translation>
    </message>
    <message>
        <source>This computer has no usable keychain, so the key cannot be saved.</source>
        <translation>这台电脑没有可用的系统钥匙串，所以无法保存密钥。</translation>
    </message>
    <message>
        <source>Keys are never written to a file.</source>
        <translation>密钥从不写入文件。</translation>
    </message>
    <message>
        <source>How to set one up</source>
        <translation>如何设置钥匙串</translation>
    </message>
    <message>
        <source>The key was not saved: %1</source>
        <translation>密钥没有保存：%1</translation>
    </message>
    <message>
        <source>Fix the keychain and press Save again.</source>
        <translation>请修复钥匙串后再次点击“保存”。</translation>
    </message>
    <message>
        <source>Help</source>
        <translation>帮助</translation>
    </message>
</context>
<context>
    <name>OAuthSection</name>
    <message>
        <source>Sign-in (OAuth)</source>
        <translation>登录（OAuth）</translation>
    </message>
    <message>
        <source>Only if the server&apos;s provider gave you a client id. Otherwise leave this empty: MCP Desk registers itself when you sign in.</source>
        <translation>仅当服务器的提供方给了你客户端 ID 时才需要填写。否则请留空：登录时 MCP Desk 会自动注册自己。</translation>
    </message>
    <message>
        <source>Client id</source>
        <translation>客户端 ID</translation>
    </message>
    <message>
        <source>(optional)</source>
        <translation>（可选）</translation>
    </message>
    <message>
        <source>Client secret</source>
        <translation>客户端密钥</translation>
    </message>
    <message>
        <source>(optional) kept in your computer&apos;s keychain</source>
        <translation>（可选）保存在系统钥匙串中</translation>
    </message>
    <message>
        <source>Scope</source>
        <translation>权限范围</translation>
    </message>
    <message>
        <source>(optional) what the server asks for, when empty</source>
        <translation>（可选）留空时使用服务器要求的范围</translation>
    </message>
</context>
<context>
    <name>ServerFields</name>
    <message>
        <source>Runs on this computer</source>
        <translation>在本机运行</translation>
    </message>
    <message>
        <source>Runs on the internet (URL)</source>
        <translation>远程服务器（网址）</translation>
    </message>
    <message>
        <source>Runs on the internet (URL, older kind)</source>
        <translation>远程服务器（网址，旧式）</translation>
    </message>
    <message>
        <source>Automatic (recommended)</source>
        <translation>自动（推荐）</translation>
    </message>
    <message>
        <source>Older servers only</source>
        <translation>仅限旧式服务器</translation>
    </message>
</context>
</TS>
