<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>CrashDialog</name>
    <message>
        <source>MCP Desk ran into a problem</source>
        <translation>MCP Desk 遇到了问题</translation>
    </message>
    <message>
        <source>Something went wrong inside MCP Desk. Your servers and keys are not affected.</source>
        <translation>MCP Desk 内部出了点问题。你的服务器和密钥不受影响。</translation>
    </message>
    <message>
        <source>Open the report</source>
        <translation>打开报告</translation>
    </message>
    <message>
        <source>Show the folder</source>
        <translation>打开所在文件夹</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>A report could not be saved. The log file (Help → Open the log file) says what happened.</source>
        <translation>无法保存报告。日志文件（帮助 → 打开日志文件）里记录了发生的情况。</translation>
    </message>
    <message>
        <source>A report was saved, with your keys left out. You can send it to whoever helps you with MCP Desk:
%1</source>
        <translation>已保存一份报告，其中不含你的密钥。你可以把它发给帮你解决 MCP Desk 问题的人：
%1</translation>
    </message>
    <message numerus="yes">
        <source>This has happened %n time(s) so far.</source>
        <translation>
            <numerusform>到目前为止，这个问题已发生 %n 次。</numerusform>
        </translation>
    </message>
</context>
</TS>
