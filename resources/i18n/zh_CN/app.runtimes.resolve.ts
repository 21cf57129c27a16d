<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Reasons</name>
    <message>
        <source>Node.js is not installed, and MCP Desk&apos;s built-in Node.js is missing: reinstall MCP Desk, or install Node.js from nodejs.org</source>
        <translation>Node.js 未安装，MCP Desk 内置的 Node.js 也不见了：请重新安装 MCP Desk，或从 nodejs.org 安装 Node.js</translation>
    </message>
    <message>
        <source>uv is not installed, and MCP Desk&apos;s built-in uv is missing: reinstall MCP Desk, or install uv from docs.astral.sh/uv</source>
        <translation>uv 未安装，MCP Desk 内置的 uv 也不见了：请重新安装 MCP Desk，或从 docs.astral.sh/uv 安装 uv</translation>
    </message>
    <message>
        <source>%1 (built in)</source>
        <translation>%1（内置）</translation>
    </message>
    <message>
        <source>your %1</source>
        <translation>你的 %1</translation>
    </message>
    <message>
        <source>%1 (your Docker)</source>
        <translation>%1（你的 Docker）</translation>
    </message>
</context>
</TS>
