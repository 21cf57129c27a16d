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
        <source>This package is not signed: nothing says who made it.</source>
        <translation>此安装包没有签名：无从得知它由谁制作。</translation>
    </message>
    <message>
        <source>This package carries a signature that could not be read; it was not verified.</source>
        <translation>此安装包带有无法读取的签名，签名未经验证。</translation>
    </message>
    <message>
        <source>Signed by %1 (a certificate it made itself); the signature was not verified.</source>
        <translation>由 %1 签名（使用自己制作的证书），签名未经验证。</translation>
    </message>
    <message>
        <source>Signed by %1; the signature was not verified.</source>
        <translation>由 %1 签名，签名未经验证。</translation>
    </message>
    <message>
        <source>Signed by an unknown signer; the signature was not verified.</source>
        <translation>由未知的签名者签名，签名未经验证。</translation>
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
