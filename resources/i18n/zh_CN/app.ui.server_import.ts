<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>ServerImport</name>
    <message>
        <source>Import failed</source>
        <translation>导入失败</translation>
    </message>
    <message>
        <source>Nothing was imported:</source>
        <translation>没有导入任何内容：</translation>
    </message>
    <message>
        <source>Import servers from</source>
        <translation>从以下文件导入服务器</translation>
    </message>
    <message>
        <source>JSON files (*.json *.jsonc);;All files (*)</source>
        <translation>JSON 文件 (*.json *.jsonc);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Nothing to import</source>
        <translation>没有可导入的内容</translation>
    </message>
    <message>
        <source>No %1 settings were found on this computer.</source>
        <translation>在这台电脑上没有找到 %1 的设置。</translation>
    </message>
    <message>
        <source>Nothing was imported from %1:</source>
        <translation>没有从 %1 导入任何内容：</translation>
    </message>
    <message>
        <source>Imported %1.</source>
        <translation>已导入 %1。</translation>
    </message>
    <message>
        <source>No server was imported.</source>
        <translation>没有导入任何服务器。</translation>
    </message>
    <message>
        <source>Keys moved to your computer&apos;s keychain: %1.</source>
        <translation>已移到系统钥匙串的密钥：%1 个。</translation>
    </message>
    <message>
        <source>Imported %1 server(s); %2 could not be imported:</source>
        <translation>已导入 %1 个服务器；%2 个无法导入：</translation>
    </message>
    <message>
        <source>Set up a keychain (see %1) and add them again; the others are imported.</source>
        <translation>请设置钥匙串（见 %1）后重新添加它们；其他服务器已导入。</translation>
    </message>
    <message>
        <source>Some servers were not imported</source>
        <translation>有些服务器没有导入</translation>
    </message>
    <message>
        <source>A value the import needs</source>
        <translation>导入需要的值</translation>
    </message>
    <message>
        <source>VS Code mcp.json (*.json)</source>
        <translation>VS Code mcp.json (*.json)</translation>
    </message>
    <message>
        <source>Export servers</source>
        <translation>导出服务器</translation>
    </message>
    <message>
        <source>Claude Desktop / Cursor (*.json)</source>
        <translation>Claude Desktop / Cursor (*.json)</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>The file could not be written: %1</source>
        <translation>无法写入文件：%1</translation>
    </message>
    <message>
        <source>Exported to %1</source>
        <translation>已导出到 %1</translation>
    </message>
</context>
</TS>
