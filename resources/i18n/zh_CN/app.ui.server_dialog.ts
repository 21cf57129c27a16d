<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>ServerDialog</name>
    <message>
        <source>Edit server</source>
        <translation>编辑服务器</translation>
    </message>
    <message>
        <source>Add server</source>
        <translation>添加服务器</translation>
    </message>
    <message>
        <source>Type the details below, or paste the configuration snippet (or the command line) from the server&apos;s README.</source>
        <translation>在下面填写详细信息，或者粘贴服务器 README 中的配置片段（或命令行）。</translation>
    </message>
    <message>
        <source>Paste snippet…</source>
        <translation>粘贴片段…</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>for example github</source>
        <translation>例如 github</translation>
    </message>
    <message>
        <source>Where the server runs</source>
        <translation>服务器在哪里运行</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <source>npx, uvx, python, a full path — or the whole command line from the README</source>
        <translation>npx、uvx、python、完整路径 — 或者 README 中的整行命令</translation>
    </message>
    <message>
        <source>Arguments</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Enter edits an argument and goes on to the next; Ctrl+Enter saves the server.</source>
        <translation>Enter 编辑一个参数并转到下一个；Ctrl+Enter 保存服务器。</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Up</source>
        <translation>上移</translation>
    </message>
    <message>
        <source>Down</source>
        <translation>下移</translation>
    </message>
    <message>
        <source>Environment</source>
        <translation>环境变量</translation>
    </message>
    <message>
        <source>Address (URL)</source>
        <translation>网址（URL）</translation>
    </message>
    <message>
        <source>Headers</source>
        <translation>请求头</translation>
    </message>
    <message>
        <source>Connect at start and with “Connect all” (clear to keep it switched off)</source>
        <translation>启动时以及“全部连接”时连接（取消勾选则保持关闭）</translation>
    </message>
    <message>
        <source>Enabled</source>
        <translation>启用</translation>
    </message>
    <message>
        <source>Advanced</source>
        <translation>高级</translation>
    </message>
    <message>
        <source>Working directory</source>
        <translation>工作文件夹</translation>
    </message>
    <message>
        <source>(optional) the folder the program starts in</source>
        <translation>（可选）程序启动时所在的文件夹</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Time limit for a tool</source>
        <translation>工具的时间限制</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>How long a tool may take before MCP Desk stops waiting for it</source>
        <translation>一个工具最多可以运行多久，超过后 MCP Desk 不再等待</translation>
    </message>
    <message>
        <source>Time limit</source>
        <translation>时间限制</translation>
    </message>
    <message>
        <source>Protocol version</source>
        <translation>协议版本</translation>
    </message>
    <message>
        <source>Automatic tries the newest way to talk to the server and falls back to the older one by itself. Change it only when the server&apos;s documentation asks for one version.</source>
        <translation>“自动”会先尝试与服务器通信的最新方式，必要时自动退回旧方式。只有当服务器的文档要求某个版本时才需要更改。</translation>
    </message>
    <message>
        <source>Folders the server may use</source>
        <translation>允许服务器访问的文件夹</translation>
    </message>
    <message>
        <source>Add folder…</source>
        <translation>添加文件夹…</translation>
    </message>
    <message>
        <source>Folders it may use</source>
        <translation>允许访问的文件夹</translation>
    </message>
    <message>
        <source>Save (Ctrl+Enter)</source>
        <translation>保存（Ctrl+Enter）</translation>
    </message>
    <message>
        <source>This command line cannot be read: %1</source>
        <translation>无法读取这行命令：%1</translation>
    </message>
    <message>
        <source>Split the command line: program “%1”</source>
        <translation>已拆分命令行：程序“%1”</translation>
    </message>
    <message numerus="yes">
        <source>%n argument(s): %1</source>
        <translation>
            <numerusform>%n 个参数：%1</numerusform>
        </translation>
    </message>
    <message>
        <source>environment: %1</source>
        <translation>环境变量：%1</translation>
    </message>
    <message>
        <source>Runs on: %1</source>
        <translation>运行环境：%1</translation>
    </message>
    <message>
        <source>An example value: replace it with your own above.</source>
        <translation>这是示例值：请在上方替换成你自己的值。</translation>
    </message>
    <message>
        <source>The folder the program starts in</source>
        <translation>程序启动时所在的文件夹</translation>
    </message>
    <message>
        <source>A folder the server may use</source>
        <translation>允许服务器访问的文件夹</translation>
    </message>
    <message>
        <source>Give the server a name.</source>
        <translation>请给服务器起个名字。</translation>
    </message>
    <message>
        <source>A name cannot contain “/”.</source>
        <translation>名称中不能包含“/”。</translation>
    </message>
    <message>
        <source>There is already a server called “%1”.</source>
        <translation>已经有名为“%1”的服务器。</translation>
    </message>
    <message>
        <source>Replace the example values with your own.</source>
        <translation>请把示例值替换成你自己的值。</translation>
    </message>
    <message>
        <source>A client secret needs its client id (under Sign-in).</source>
        <translation>客户端密钥需要填写对应的客户端 ID（在“登录”下）。</translation>
    </message>
</context>
</TS>
