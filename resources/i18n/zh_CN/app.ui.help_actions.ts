<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>LogActions</name>
    <message>
        <source>Open the &amp;log file</source>
        <translation>打开日志文件(&amp;L)</translation>
    </message>
    <message>
        <source>What MCP Desk noted while it ran, with your keys left out</source>
        <translation>MCP Desk 运行时记录的内容（不含你的密钥）</translation>
    </message>
    <message>
        <source>Show the log &amp;folder</source>
        <translation>打开日志文件夹(&amp;F)</translation>
    </message>
    <message>
        <source>The log files and the reports of unexpected errors</source>
        <translation>日志文件和意外错误的报告</translation>
    </message>
    <message>
        <source>There is no log file yet. It will be in this folder:</source>
        <translation>还没有日志文件。它将保存在这个文件夹中：</translation>
    </message>
    <message>
        <source>The log folder cannot be made:</source>
        <translation>无法创建日志文件夹：</translation>
    </message>
    <message>
        <source>No app on this computer could open it. It is here:</source>
        <translation>这台电脑上没有可以打开它的应用。它在这里：</translation>
    </message>
    <message>
        <source>Log file</source>
        <translation>日志文件</translation>
    </message>
</context>
</TS>
