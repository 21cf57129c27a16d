<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Reasons</name>
    <message>
        <source>This package is not signed: nothing says who made it.</source>
        <translation>此安装包没有签名：无法得知是谁制作的。</translation>
    </message>
    <message>
        <source>This package carries a signature that could not be read; it was not verified.</source>
        <translation>此安装包带有无法读取的签名；签名未经验证。</translation>
    </message>
    <message>
        <source>an unknown signer</source>
        <translation>未知的签名者</translation>
    </message>
    <message>
        <source>Signed by %1; the signature was not verified.</source>
        <translation>签名者：%1；签名未经验证。</translation>
    </message>
    <message>
        <source>Signed by %1 (a certificate it made itself); the signature was not verified.</source>
        <translation>签名者：%1（自签名证书）；签名未经验证。</translation>
    </message>
</context>
</TS>
