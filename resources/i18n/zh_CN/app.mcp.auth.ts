<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Reasons</name>
    <message>
        <source>could not sign in: too many redirects on the sign-in page</source>
        <translation>无法登录：登录页面的重定向次数过多</translation>
    </message>
    <message>
        <source>could not sign in: your organisation&apos;s sign-in refused the exchange (HTTP %1)</source>
        <translation>无法登录：你所在组织的登录服务拒绝了这次交换（HTTP %1）</translation>
    </message>
    <message>
        <source>could not sign in: your organisation&apos;s sign-in refused the exchange (HTTP %1, %2)</source>
        <translation>无法登录：你所在组织的登录服务拒绝了这次交换（HTTP %1，%2）</translation>
    </message>
    <message>
        <source>could not sign in: %1 names no authorization server</source>
        <translation>无法登录：%1 没有指明授权服务器</translation>
    </message>
    <message>
        <source>this server asks for more permissions: sign in again</source>
        <translation>此服务器需要更多权限：请重新登录</translation>
    </message>
    <message>
        <source>could not sign in: %1</source>
        <translation>无法登录：%1</translation>
    </message>
    <message>
        <source>could not show the sign-in page: %1</source>
        <translation>无法打开登录页面：%1</translation>
    </message>
    <message>
        <source>the sign-in page answered %1</source>
        <translation>登录页面返回了 %1</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>could not sign in: the server sends sign-ins to %1, not to %2 that this client belongs to</source>
        <translation>无法登录：服务器把登录交给 %1，而不是此客户端所属的 %2</translation>
    </message>
    <message>
        <source>enterprise sign-in needs, in this server&apos;s settings: %1</source>
        <translation>企业登录需要在此服务器的设置中填写：%1</translation>
    </message>
    <message>
        <source>client-credentials sign-in needs a client id in this server&apos;s settings</source>
        <translation>客户端凭据登录需要在此服务器的设置中填写客户端 ID</translation>
    </message>
    <message>
        <source>client-credentials sign-in needs the client secret: set the key oauth.client_secret</source>
        <translation>客户端凭据登录需要客户端密钥：请设置密钥 oauth.client_secret</translation>
    </message>
    <message>
        <source>could not sign in: port %1 of this computer is in use by another program</source>
        <translation>无法登录：这台电脑的端口 %1 已被其他程序占用</translation>
    </message>
    <message>
        <source>sign in needed</source>
        <translation>需要登录</translation>
    </message>
    <message>
        <source>your sign-in has expired: sign in again</source>
        <translation>你的登录已过期：请重新登录</translation>
    </message>
    <message>
        <source>sign-in was cancelled</source>
        <translation>登录已取消</translation>
    </message>
    <message>
        <source>sign-in timed out</source>
        <translation>登录超时</translation>
    </message>
    <message>
        <source>you declined the sign-in</source>
        <translation>你拒绝了登录</translation>
    </message>
    <message>
        <source>signed out</source>
        <translation>已退出登录</translation>
    </message>
    <message>
        <source>waiting for you to sign in in your browser</source>
        <translation>等待你在浏览器中登录</translation>
    </message>
    <message>
        <source>waiting for your approval</source>
        <translation>等待你的同意</translation>
    </message>
</context>
</TS>
