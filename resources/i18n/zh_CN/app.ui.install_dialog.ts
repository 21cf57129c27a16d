<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>InstallDialog</name>
    <message>
        <source>Runs on the internet (URL): nothing is installed on this computer.</source>
        <translation>远程服务器（网址）：不会在这台电脑上安装任何东西。</translation>
    </message>
    <message>
        <source>Runs on this computer with Node.js (the built-in Node.js when yours is not installed).</source>
        <translation>在本机用 Node.js 运行（没有安装 Node.js 时使用内置 Node.js）。</translation>
    </message>
    <message>
        <source>Runs on this computer with Python, through uv (the built-in uv when yours is not installed).</source>
        <translation>在本机通过 uv 用 Python 运行（没有安装 uv 时使用内置 uv）。</translation>
    </message>
    <message>
        <source>Runs on this computer with uv (the built-in uv when yours is not installed).</source>
        <translation>在本机用 uv 运行（没有安装 uv 时使用内置 uv）。</translation>
    </message>
    <message>
        <source>Runs on this computer in Docker: Docker must be installed and running.</source>
        <translation>在本机的 Docker 中运行：需要已安装并正在运行 Docker。</translation>
    </message>
    <message>
        <source>Runs on this computer: a program of its own.</source>
        <translation>在本机运行：它自带程序。</translation>
    </message>
    <message>
        <source>Runs on this computer.</source>
        <translation>在本机运行。</translation>
    </message>
    <message>
        <source>Add %1</source>
        <translation>添加 %1</translation>
    </message>
    <message>
        <source>Open website</source>
        <translation>打开网站</translation>
    </message>
    <message>
        <source>Keep the key until MCP Desk closes</source>
        <translation>仅本次运行期间保存密钥</translation>
    </message>
    <message>
        <source>There is no keychain on this computer: the key is kept in memory and asked again next time.</source>
        <translation>这台电脑没有系统钥匙串：密钥只保存在内存中，下次会再次询问。</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>version %1</source>
        <translation>版本 %1</translation>
    </message>
    <message>
        <source>by %1</source>
        <translation>作者 %1</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>The example said %1</source>
        <translation>示例值是 %1</translation>
    </message>
    <message>
        <source>%1 (required)</source>
        <translation>%1（必填）</translation>
    </message>
    <message>
        <source>(required)</source>
        <translation>（必填）</translation>
    </message>
    <message>
        <source>Give the server a name.</source>
        <translation>请给服务器起个名字。</translation>
    </message>
    <message>
        <source>This name cannot be used: %1.</source>
        <translation>不能使用这个名称：%1。</translation>
    </message>
    <message>
        <source>A server named %1 already exists.</source>
        <translation>已经有名为 %1 的服务器。</translation>
    </message>
    <message>
        <source>%1 is required</source>
        <translation>需要填写%1</translation>
    </message>
    <message>
        <source>The key could not be stored: %1</source>
        <translation>无法保存密钥：%1</translation>
    </message>
    <message>
        <source>The server was not added: %1</source>
        <translation>没有添加服务器：%1</translation>
    </message>
    <message>
        <source>Runs on this computer with %1.</source>
        <translation>在本机用 %1 运行。</translation>
    </message>
    <message>
        <source>the server list file is broken; fix it first</source>
        <translation>服务器列表文件已损坏，请先修复它</translation>
    </message>
</context>
</TS>
