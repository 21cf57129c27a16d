<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>MainWindow</name>
    <message>
        <source>Welcome to MCP Desk.

MCP servers give AI apps tools: search the web, read files, query a database. Here you can try them yourself.

1.  The “demo” server on the left is connecting by itself: MCP Desk connects every enabled server when it starts. Its tools appear in the middle.
2.  Choose a tool, fill in the form, and press Run (Ctrl+Enter).

To add your own server, find one in Servers → Browse the server directory, open a server package (.mcpb), or press “Add server…” and paste the command line or the snippet from the server&apos;s README. You do not need Node.js or uv: MCP Desk has its own. API keys you enter are kept in your computer&apos;s keychain.</source>
        <translation>欢迎使用 MCP Desk。

MCP 服务器为 AI 应用提供工具：搜索网页、读取文件、查询数据库。在这里你可以亲自试用它们。

1.  左侧的“demo”服务器正在自动连接：MCP Desk 启动时会连接所有已启用的服务器。它的工具会显示在中间。
2.  选择一个工具，填写参数表单，然后点击“运行”（Ctrl+Enter）。

要添加你自己的服务器，可以在“服务器 → 浏览服务器目录”中查找，打开服务器安装包（.mcpb），或者点击“添加服务器…”，粘贴服务器 README 中的命令行或配置片段。你不需要自己安装 Node.js 或 uv：MCP Desk 自带内置版本。你输入的 API 密钥保存在系统钥匙串中。</translation>
    </message>
    <message>
        <source>Show log</source>
        <translation>查看日志</translation>
    </message>
    <message>
        <source>Open the activity log on what this server printed</source>
        <translation>在活动日志中查看这个服务器输出的内容</translation>
    </message>
    <message>
        <source>Got it</source>
        <translation>知道了</translation>
    </message>
    <message>
        <source>Hide the welcome guide (Help → Welcome guide shows it again)</source>
        <translation>隐藏欢迎指南（可在“帮助 → 欢迎指南”中再次打开）</translation>
    </message>
    <message>
        <source>Activity log</source>
        <translation>活动日志</translation>
    </message>
    <message>
        <source>The server list could not be read: %1</source>
        <translation>无法读取服务器列表：%1</translation>
    </message>
    <message>
        <source>Sign-in link copied</source>
        <translation>已复制登录链接</translation>
    </message>
    <message>
        <source>Starting the servers…</source>
        <translation>正在启动服务器…</translation>
    </message>
    <message>
        <source>waiting for your approval: press Connect</source>
        <translation>等待你的确认：请点击“连接”</translation>
    </message>
    <message>
        <source>key kept for this session only</source>
        <translation>密钥仅本次运行期间保存</translation>
    </message>
    <message>
        <source>That did not work: %1</source>
        <translation>操作未成功：%1</translation>
    </message>
    <message>
        <source>Server list: %1</source>
        <translation>服务器列表：%1</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>couldn&apos;t connect</source>
        <translation>无法连接</translation>
    </message>
    <message>
        <source>sign in needed</source>
        <translation>需要登录</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>Sign in to %1 to see its tools.</source>
        <translation>登录 %1 后即可看到它的工具。</translation>
    </message>
    <message>
        <source>Waiting for you to sign in to %1…</source>
        <translation>正在等待你登录 %1…</translation>
    </message>
    <message>
        <source>Couldn&apos;t connect to %1: %2</source>
        <translation>无法连接到 %1：%2</translation>
    </message>
    <message>
        <source>Couldn&apos;t connect to “%1”:
%2

Fix the server&apos;s settings with Edit: saving a change tries again by itself (Reconnect tries again as it is). Show log shows what the server printed.</source>
        <translation>无法连接到“%1”：
%2

请用“编辑”修正服务器的设置：保存修改后会自动重试（“重新连接”会按原设置再试一次）。“查看日志”可以看到服务器输出的内容。</translation>
    </message>
    <message>
        <source>Connecting to %1… its tools will appear here.</source>
        <translation>正在连接 %1… 它的工具会显示在这里。</translation>
    </message>
    <message>
        <source>%1 waits for your approval to run: its tools will appear here.</source>
        <translation>%1 正在等待你允许运行：它的工具会显示在这里。</translation>
    </message>
    <message>
        <source>%1 is not connected. Press Connect to see its tools.</source>
        <translation>%1 未连接。点击“连接”即可看到它的工具。</translation>
    </message>
    <message>
        <source>Protocol %1</source>
        <translation>协议 %1</translation>
    </message>
    <message>
        <source>Choose a tool, resource or prompt in the middle to try it.</source>
        <translation>在中间选择一个工具、资源或提示词来试用。</translation>
    </message>
    <message>
        <source>%1 is not connected</source>
        <translation>%1 未连接</translation>
    </message>
    <message>
        <source>Reading…</source>
        <translation>正在读取…</translation>
    </message>
</context>
</TS>
