<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>RegistryBrowser</name>
    <message>
        <source>runs on the internet</source>
        <translation>远程服务器</translation>
    </message>
    <message>
        <source>runs on this computer</source>
        <translation>在本机运行</translation>
    </message>
    <message>
        <source>deprecated</source>
        <translation>已弃用</translation>
    </message>
    <message>
        <source>Server directory</source>
        <translation>服务器目录</translation>
    </message>
    <message>
        <source>Search the server directory (name or subject)</source>
        <translation>搜索服务器目录（名称或主题）</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>重试</translation>
    </message>
    <message>
        <source>Load more</source>
        <translation>加载更多</translation>
    </message>
    <message>
        <source>Change…</source>
        <translation>更改…</translation>
    </message>
    <message>
        <source>Browse another server directory (your company&apos;s, for example)</source>
        <translation>浏览其他服务器目录（例如你公司的目录）</translation>
    </message>
    <message>
        <source>Open website</source>
        <translation>打开网站</translation>
    </message>
    <message>
        <source>How it runs:</source>
        <translation>运行方式：</translation>
    </message>
    <message>
        <source>Add…</source>
        <translation>添加…</translation>
    </message>
    <message>
        <source>Server directory: %1</source>
        <translation>服务器目录：%1</translation>
    </message>
    <message>
        <source>Address of the server directory (leave empty for the official MCP Registry):</source>
        <translation>服务器目录的网址（留空则使用官方 MCP Registry）：</translation>
    </message>
    <message>
        <source>That is not the address of a server directory: it must start with https://</source>
        <translation>这不是服务器目录的网址：网址必须以 https:// 开头</translation>
    </message>
    <message>
        <source>searching…</source>
        <translation>正在搜索…</translation>
    </message>
    <message>
        <source>The server directory cannot be reached: check your internet connection.</source>
        <translation>无法访问服务器目录：请检查网络连接。</translation>
    </message>
    <message>
        <source>The server directory could not be read: %1</source>
        <translation>无法读取服务器目录：%1</translation>
    </message>
    <message>
        <source>no servers found</source>
        <translation>没有找到服务器</translation>
    </message>
    <message numerus="yes">
        <source>%n server(s)</source>
        <translation>
            <numerusform>%n 个服务器</numerusform>
        </translation>
    </message>
    <message>
        <source>Offline: showing the list from %1.</source>
        <translation>离线：显示的是 %1 时的列表。</translation>
    </message>
    <message>
        <source>version %1</source>
        <translation>%1 版</translation>
    </message>
    <message>
        <source>Deprecated: %1</source>
        <translation>已弃用：%1</translation>
    </message>
    <message>
        <source>Source code: %1</source>
        <translation>源代码：%1</translation>
    </message>
    <message>
        <source>On the internet: %1</source>
        <translation>远程服务器：%1</translation>
    </message>
    <message>
        <source>On this computer: %1</source>
        <translation>在本机运行：%1</translation>
    </message>
    <message>
        <source>(needs a program not found here)</source>
        <translation>（需要的程序在本机上找不到）</translation>
    </message>
    <message>
        <source>This entry of the server directory says neither where it runs nor how to install it.</source>
        <translation>服务器目录中的这一项既没有说明它在哪里运行，也没有说明如何安装。</translation>
    </message>
    <message>
        <source>Something went wrong: %1</source>
        <translation>出现了问题：%1</translation>
    </message>
</context>
</TS>
