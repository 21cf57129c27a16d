<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Reasons</name>
    <message>
        <source>installing the server…</source>
        <translation>正在安装服务器…</translation>
    </message>
    <message>
        <source>%1 (fetching %2)</source>
        <translation>%1（正在获取 %2）</translation>
    </message>
    <message>
        <source>the package registry</source>
        <translation>软件包仓库</translation>
    </message>
    <message>
        <source>the package registry (%1)</source>
        <translation>软件包仓库（%1）</translation>
    </message>
    <message>
        <source>this package</source>
        <translation>此软件包</translation>
    </message>
    <message>
        <source>installing the server failed: there is no package %1 in %2; check the server&apos;s command for a typo</source>
        <translation>正在安装服务器时出错：%2 中没有软件包 %1；请检查服务器的命令是否有拼写错误</translation>
    </message>
    <message>
        <source>installing the server failed: the proxy asks for a sign-in (407 Proxy Authentication Required): put the user name and password in the proxy setting (HTTPS_PROXY=http://user:password@host:port)</source>
        <translation>正在安装服务器时出错：代理要求登录（407 Proxy Authentication Required）：请在代理设置中填入用户名和密码（HTTPS_PROXY=http://user:password@host:port）</translation>
    </message>
    <message>
        <source>installing the server failed: the proxy (%1) asks for a sign-in (407 Proxy Authentication Required): put the user name and password in the proxy setting (HTTPS_PROXY=http://user:password@host:port)</source>
        <translation>正在安装服务器时出错：代理（%1）要求登录（407 Proxy Authentication Required）：请在代理设置中填入用户名和密码（HTTPS_PROXY=http://user:password@host:port）</translation>
    </message>
    <message>
        <source>installing the server failed: the proxy does not let the download through: check the proxy setting (HTTPS_PROXY), or unset it</source>
        <translation>正在安装服务器时出错：代理不允许下载通过：请检查代理设置（HTTPS_PROXY），或取消设置</translation>
    </message>
    <message>
        <source>installing the server failed: the proxy (%1) does not let the download through: check the proxy setting (HTTPS_PROXY), or unset it</source>
        <translation>正在安装服务器时出错：代理（%1）不允许下载通过：请检查代理设置（HTTPS_PROXY），或取消设置</translation>
    </message>
    <message>
        <source>installing the server failed: MCP Desk could not reach %1: are you offline? Check the internet connection, then try again</source>
        <translation>正在安装服务器时出错：MCP Desk 无法访问%1：你是否离线了？请检查网络连接，然后重试</translation>
    </message>
    <message>
        <source>installing the server failed: the secure connection to %1 was not trusted (a firewall or proxy that inspects traffic?): set NODE_EXTRA_CA_CERTS / SSL_CERT_FILE to your organisation&apos;s certificate</source>
        <translation>正在安装服务器时出错：与%1的安全连接不受信任（可能有检查流量的防火墙或代理）：请把 NODE_EXTRA_CA_CERTS / SSL_CERT_FILE 设为你所在组织的证书</translation>
    </message>
</context>
</TS>
