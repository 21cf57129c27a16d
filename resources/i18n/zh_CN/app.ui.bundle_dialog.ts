<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>BundleDialog</name>
    <message>
        <source>Install a server package (.mcpb)…</source>
        <translation>安装服务器安装包（.mcpb）…</translation>
    </message>
    <message>
        <source>Install a server package</source>
        <translation>安装服务器安装包</translation>
    </message>
    <message>
        <source>Server packages (*.mcpb *.dxt)</source>
        <translation>服务器安装包 (*.mcpb *.dxt)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>所有文件 (*)</translation>
    </message>
    <message>
        <source>Reading the server package…</source>
        <translation>正在读取服务器安装包…</translation>
    </message>
    <message>
        <source>Server package</source>
        <translation>服务器安装包</translation>
    </message>
    <message>
        <source>This server package cannot be installed.</source>
        <translation>无法安装此服务器安装包。</translation>
    </message>
    <message>
        <source>Unpacking the server package…</source>
        <translation>正在解压服务器安装包…</translation>
    </message>
    <message>
        <source>The server package could not be unpacked.</source>
        <translation>无法解压此服务器安装包。</translation>
    </message>
    <message>
        <source>%1 %2 is installed already. Install its files again?</source>
        <translation>%1 %2 已经安装。要重新安装它的文件吗？</translation>
    </message>
    <message>
        <source>%1 %2 is installed. Update it to version %3?</source>
        <translation>已安装 %1 %2。要更新到 %3 版吗？</translation>
    </message>
    <message>
        <source>Update server package</source>
        <translation>更新服务器安装包</translation>
    </message>
    <message>
        <source>Your settings and keys are kept.</source>
        <translation>你的设置和密钥会保留。</translation>
    </message>
    <message>
        <source>Update</source>
        <translation>更新</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>This version asks for something the installed one did not: %1.</source>
        <translation>这个版本需要一项已安装版本没有要求的信息：%1。</translation>
    </message>
    <message>
        <source>Remove the server, then install the package again to answer it.</source>
        <translation>请先移除该服务器，再重新安装此安装包并填写这项信息。</translation>
    </message>
    <message>
        <source>the server list file is broken; fix it first</source>
        <translation>服务器列表文件已损坏，请先修复它</translation>
    </message>
    <message>
        <source>The server was not updated.</source>
        <translation>服务器没有更新。</translation>
    </message>
    <message>
        <source>%1 was updated to version %2.</source>
        <translation>%1 已更新到 %2 版。</translation>
    </message>
</context>
</TS>
