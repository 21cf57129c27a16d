<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>TrustDialog</name>
    <message>
        <source>“{0}” runs the program with administrator rights: it can change anything on this computer.</source>
        <translation>“{0}”以管理员权限运行程序：它可以更改这台电脑上的任何东西。</translation>
    </message>
    <message>
        <source>“{0}” runs a shell command written into the command line: whatever it says is run.</source>
        <translation>“{0}”运行写在命令行里的 shell 命令：命令写什么就运行什么。</translation>
    </message>
    <message>
        <source>“{0}” runs an encoded script that cannot be read here.</source>
        <translation>“{0}”运行一段经过编码、在这里无法读懂的脚本。</translation>
    </message>
    <message>
        <source>“{0}” sends text into a shell, which runs whatever it receives.</source>
        <translation>“{0}”把文本送进 shell，shell 会运行收到的任何内容。</translation>
    </message>
    <message>
        <source>“{0}” downloads a script from the internet and runs it at once: what runs can change at any time without you seeing it.</source>
        <translation>“{0}”从互联网下载脚本并立即运行：运行的内容随时可能改变，而你看不到。</translation>
    </message>
    <message>
        <source>“{0}” downloads a program from the internet and runs it.</source>
        <translation>“{0}”从互联网下载程序并运行它。</translation>
    </message>
    <message>
        <source>“{0}” is in a temporary folder: other programs on this computer can put files there.</source>
        <translation>“{0}”位于临时文件夹中：这台电脑上的其他程序可以往里面放文件。</translation>
    </message>
    <message>
        <source>“{0}” is in a folder anyone on this computer can change ({1}).</source>
        <translation>“{0}”位于这台电脑上任何人都能修改的文件夹中（{1}）。</translation>
    </message>
    <message>
        <source>Allow this program to run?</source>
        <translation>允许运行此程序吗？</translation>
    </message>
    <message>
        <source>The server “{0}” runs on this computer, with your permissions. MCP Desk asks before its first start and whenever what it runs changes. It will run:</source>
        <translation>服务器“{0}”在本机运行，拥有你的权限。MCP Desk 会在它首次启动前以及它运行的内容改变时询问你。它将运行：</translation>
    </message>
    <message>
        <source>… and %1 more characters not shown</source>
        <translation>… 还有 %1 个字符未显示</translation>
    </message>
    <message>
        <source>Program: “{0}” is not found on this computer yet.</source>
        <translation>程序：这台电脑上还没有“{0}”。</translation>
    </message>
    <message>
        <source>Program: {0}</source>
        <translation>程序：{0}</translation>
    </message>
    <message>
        <source>Working folder: {0}</source>
        <translation>工作文件夹：{0}</translation>
    </message>
    <message>
        <source>Working folder: not set (MCP Desk&apos;s own)</source>
        <translation>工作文件夹：未设置（使用 MCP Desk 自己的）</translation>
    </message>
    <message>
        <source>{0} (a key from your computer&apos;s keychain)</source>
        <translation>{0}（来自系统钥匙串的密钥）</translation>
    </message>
    <message>
        <source>Environment variables: {0}</source>
        <translation>环境变量：{0}</translation>
    </message>
    <message>
        <source>Environment variables: none</source>
        <translation>环境变量：无</translation>
    </message>
    <message>
        <source>Look carefully before you allow it:</source>
        <translation>允许之前请仔细查看：</translation>
    </message>
    <message>
        <source>Nothing unusual was found in this command. Allow it only if you trust where it came from.</source>
        <translation>在这个命令中没有发现异常。只有在你信任它的来源时才允许运行。</translation>
    </message>
    <message numerus="yes">
        <source>%n more server(s) will ask after this one.</source>
        <translation>
            <numerusform>此后还有 %n 个服务器会询问。</numerusform>
        </translation>
    </message>
    <message>
        <source>Allow</source>
        <translation>允许</translation>
    </message>
    <message>
        <source>Don&apos;t run</source>
        <translation>不运行</translation>
    </message>
</context>
</TS>
