<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Reasons</name>
    <message>
        <source>%1 was not found on this computer</source>
        <translation>在这台电脑上找不到 %1</translation>
    </message>
    <message>
        <source>This package is made for %1, not for %2.</source>
        <translation>此安装包是为 %1 制作的，不适用于 %2。</translation>
    </message>
    <message>
        <source>It needs %1, and no Node.js was found on this computer.</source>
        <translation>它需要 %1，但这台电脑上找不到 Node.js。</translation>
    </message>
    <message>
        <source>It needs %1; this computer has Node.js %2.</source>
        <translation>它需要 %1；这台电脑上的是 Node.js %2。</translation>
    </message>
    <message>
        <source>It asks for Node.js %1, a version range MCP Desk cannot read.</source>
        <translation>它要求 Node.js %1，MCP Desk 无法识别这个版本范围。</translation>
    </message>
    <message>
        <source>It needs %1 through uv, and uv was not found on this computer.</source>
        <translation>它需要通过 uv 使用 %1，但这台电脑上找不到 uv。</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>%1 — %2 brings it (downloaded on first start if needed)</source>
        <translation>%1 — 由 %2 提供（如有需要，首次启动时下载）</translation>
    </message>
    <message>
        <source>Its own program (nothing else to install)</source>
        <translation>自带程序（无需另外安装）</translation>
    </message>
</context>
</TS>
