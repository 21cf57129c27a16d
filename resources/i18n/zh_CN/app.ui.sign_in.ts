<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>SignIn</name>
    <message>
        <source>signed in as {account} · until {time}</source>
        <translation>已以 {account} 登录 · 有效期至 {time}</translation>
    </message>
    <message>
        <source>signed in · until {time}</source>
        <translation>已登录 · 有效期至 {time}</translation>
    </message>
    <message>
        <source>signed in as {account}</source>
        <translation>已以 {account} 登录</translation>
    </message>
    <message>
        <source>signed in</source>
        <translation>已登录</translation>
    </message>
</context>
<context>
    <name>SignInBox</name>
    <message>
        <source>Sign in</source>
        <translation>登录</translation>
    </message>
    <message>
        <source>Copy link</source>
        <translation>复制链接</translation>
    </message>
    <message>
        <source>Copy the sign-in address, to open it in another browser</source>
        <translation>复制登录网址，以便在其他浏览器中打开</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Sign out</source>
        <translation>退出登录</translation>
    </message>
    <message>
        <source>Forget this server&apos;s sign-in: MCP Desk deletes it from your computer&apos;s keychain</source>
        <translation>忘记此服务器的登录：MCP Desk 会把它从系统钥匙串中删除</translation>
    </message>
    <message>
        <source>“{server}” needs you to sign in</source>
        <translation>“{server}”需要你登录</translation>
    </message>
    <message>
        <source>Sign in opens the server&apos;s sign-in page in your browser. MCP Desk keeps the sign-in in your computer&apos;s keychain.</source>
        <translation>“登录”会在浏览器中打开服务器的登录页面。MCP Desk 会把登录信息保存在系统钥匙串中。</translation>
    </message>
    <message>
        <source>Waiting for you to sign in in your browser…</source>
        <translation>正在等待你在浏览器中登录…</translation>
    </message>
    <message>
        <source>If no browser opened, copy the link and open it yourself. Cancel stops waiting.</source>
        <translation>如果浏览器没有打开，请复制链接并自己打开。“取消”会停止等待。</translation>
    </message>
    <message>
        <source>with {issuer}</source>
        <translation>通过 {issuer}</translation>
    </message>
    <message>
        <source>MCP Desk renews this sign-in by itself when it runs out.</source>
        <translation>登录过期时，MCP Desk 会自动续期。</translation>
    </message>
</context>
</TS>
