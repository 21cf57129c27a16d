<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>ServerPlurals</name>
    <message numerus="yes">
        <source>%n tool(s)</source>
        <translation>
            <numerusform>%n 个工具</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ServerRow</name>
    <message>
        <source>not connected</source>
        <translation>未连接</translation>
    </message>
    <message>
        <source>connecting…</source>
        <translation>正在连接…</translation>
    </message>
    <message>
        <source>installing the server…</source>
        <translation>正在安装服务器…</translation>
    </message>
    <message>
        <source>connected</source>
        <translation>已连接</translation>
    </message>
    <message>
        <source>couldn&apos;t connect</source>
        <translation>无法连接</translation>
    </message>
    <message>
        <source>disconnected</source>
        <translation>已断开</translation>
    </message>
    <message>
        <source>disabled</source>
        <translation>已停用</translation>
    </message>
    <message>
        <source>sign in needed</source>
        <translation>需要登录</translation>
    </message>
    <message>
        <source>installing the server… (fetching %1)</source>
        <translation>正在安装服务器…（正在下载 %1）</translation>
    </message>
    <message>
        <source>waiting for you to sign in…</source>
        <translation>正在等待你登录…</translation>
    </message>
    <message>
        <source>waiting for your OK</source>
        <translation>正在等待你的确认</translation>
    </message>
    <message>
        <source>couldn&apos;t connect: %1</source>
        <translation>无法连接：%1</translation>
    </message>
    <message>
        <source>runs on this computer</source>
        <translation>在本机运行</translation>
    </message>
    <message>
        <source>runs on the internet</source>
        <translation>远程服务器</translation>
    </message>
</context>
</TS>
