<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Reasons</name>
    <message>
        <source>This file is not a server package (it is not a zip file).</source>
        <translation>此文件不是服务器安装包（它不是 zip 文件）。</translation>
    </message>
    <message>
        <source>This file is not a server package: it has no manifest.json.</source>
        <translation>此文件不是服务器安装包：其中没有 manifest.json。</translation>
    </message>
    <message>
        <source>The package&apos;s manifest.json cannot be read: %1.</source>
        <translation>无法读取安装包的 manifest.json：%1。</translation>
    </message>
    <message>
        <source>The package&apos;s manifest.json is not valid: %1.</source>
        <translation>安装包的 manifest.json 无效：%1。</translation>
    </message>
    <message>
        <source>The package is damaged: %1.</source>
        <translation>安装包已损坏：%1。</translation>
    </message>
    <message>
        <source>The package could not be opened: %1.</source>
        <translation>无法打开安装包：%1。</translation>
    </message>
    <message>
        <source>The package unpacks to far more than its size (a “zip bomb”); it was refused.</source>
        <translation>安装包解压后远大于它本身（“zip 炸弹”）；已拒绝。</translation>
    </message>
    <message>
        <source>The package holds a link (%1); packages with links are refused.</source>
        <translation>安装包中含有链接（%1）；含链接的安装包会被拒绝。</translation>
    </message>
    <message>
        <source>The package holds %1 twice; it was refused.</source>
        <translation>安装包中有两个 %1；已拒绝。</translation>
    </message>
</context>
</TS>
