<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>DiagnoseWords</name>
    <message>
        <source>Read the server&apos;s settings</source>
        <translation>读取服务器的设置</translation>
    </message>
    <message>
        <source>Find what runs “%1”</source>
        <translation>查找运行“%1”的环境</translation>
    </message>
    <message>
        <source>Find the program “%1”</source>
        <translation>查找程序“%1”</translation>
    </message>
    <message>
        <source>What it runs on</source>
        <translation>它运行在什么环境上</translation>
    </message>
    <message>
        <source>The folder it starts in</source>
        <translation>它启动时所在的文件夹</translation>
    </message>
    <message>
        <source>Start the program</source>
        <translation>启动程序</translation>
    </message>
    <message>
        <source>The program keeps running</source>
        <translation>程序保持运行</translation>
    </message>
    <message>
        <source>Read the address</source>
        <translation>读取网址</translation>
    </message>
    <message>
        <source>Find “%1” on the internet</source>
        <translation>在互联网上查找“%1”</translation>
    </message>
    <message>
        <source>Reach %1 (port %2)</source>
        <translation>连接 %1（端口 %2）</translation>
    </message>
    <message>
        <source>Check the secure connection</source>
        <translation>检查安全连接</translation>
    </message>
    <message>
        <source>Open the server&apos;s message stream</source>
        <translation>打开服务器的消息流</translation>
    </message>
    <message>
        <source>What the program prints</source>
        <translation>程序输出的内容</translation>
    </message>
    <message>
        <source>Its answer to MCP Desk</source>
        <translation>它对 MCP Desk 的回应</translation>
    </message>
    <message>
        <source>Greeting the server</source>
        <translation>向服务器打招呼</translation>
    </message>
    <message>
        <source>The kind of answer</source>
        <translation>回答的类型</translation>
    </message>
    <message>
        <source>Where to send messages</source>
        <translation>消息发送到哪里</translation>
    </message>
    <message>
        <source>Connecting as MCP Desk does</source>
        <translation>像 MCP Desk 一样连接</translation>
    </message>
    <message>
        <source>Warnings the server wrote</source>
        <translation>服务器写出的警告</translation>
    </message>
    <message>
        <source>It stopped (exit code %1) after %2 s without answering.</source>
        <translation>它在 %2 秒后停止了（退出码 %1），没有任何回应。</translation>
    </message>
    <message>
        <source>Lines it printed that MCP Desk cannot read (%1):</source>
        <translation>它输出了 MCP Desk 读不懂的内容（%1 行）：</translation>
    </message>
    <message>
        <source>The last lines it wrote as errors:</source>
        <translation>它最后写出的几行错误信息：</translation>
    </message>
    <message>
        <source>It wrote no error message.</source>
        <translation>它没有写出任何错误信息。</translation>
    </message>
    <message>
        <source>No answer within %1 s.</source>
        <translation>%1 秒内没有回应。</translation>
    </message>
    <message>
        <source>The server answered %1.</source>
        <translation>服务器回答：%1。</translation>
    </message>
    <message>
        <source>“%1” does not exist.</source>
        <translation>“%1”不存在。</translation>
    </message>
    <message>
        <source>It uses the newer way to start; connecting works (below).</source>
        <translation>它使用较新的启动方式；连接可以成功（见下文）。</translation>
    </message>
    <message>
        <source>Offers %1 tools, %2 resources, %3 templates and %4 prompts.</source>
        <translation>提供 %1 个工具、%2 个资源、%3 个资源模板和 %4 个提示词。</translation>
    </message>
    <message>
        <source>A part the server needs is not installed. Follow the setup steps in its README.</source>
        <translation>服务器需要的某个组件没有安装。请按照它的 README 中的安装步骤操作。</translation>
    </message>
    <message>
        <source>The package name looks wrong. Compare it with the server&apos;s README.</source>
        <translation>软件包名称看起来不对。请与服务器的 README 对照。</translation>
    </message>
    <message>
        <source>The server needs a key. Add it under Edit server (marked as secret), then try again.</source>
        <translation>服务器需要一个密钥。请在“编辑服务器”中添加（标记为保密），然后再试一次。</translation>
    </message>
    <message>
        <source>Another program uses the port this server needs.</source>
        <translation>另一个程序占用了此服务器需要的端口。</translation>
    </message>
    <message>
        <source>The server is not allowed to open or run a file it needs.</source>
        <translation>服务器无权打开或运行它需要的某个文件。</translation>
    </message>
    <message>
        <source>The server needs a newer Node.js or Python.</source>
        <translation>服务器需要更新版本的 Node.js 或 Python。</translation>
    </message>
    <message>
        <source>The program stopped. Its last messages above may say why.</source>
        <translation>程序停止了。上面它最后的信息也许能说明原因。</translation>
    </message>
    <message>
        <source>This does not look like an MCP server: it printed ordinary text where MCP Desk expects its messages. Check the command against the server&apos;s README.</source>
        <translation>这看起来不像 MCP 服务器：在 MCP Desk 等待它的消息的地方，它输出了普通文本。请对照服务器的 README 检查命令。</translation>
    </message>
    <message>
        <source>It did not answer. It may still be downloading on its first start (try again in a minute), or it is not an MCP server.</source>
        <translation>它没有回应。它可能在首次启动时仍在下载（请一分钟后再试），或者它不是 MCP 服务器。</translation>
    </message>
    <message>
        <source>The server refused to talk to MCP Desk. Check its version and settings.</source>
        <translation>服务器拒绝与 MCP Desk 通信。请检查它的版本和设置。</translation>
    </message>
    <message>
        <source>The server and MCP Desk speak different versions. Update the server.</source>
        <translation>服务器和 MCP Desk 使用的版本不同。请更新服务器。</translation>
    </message>
    <message>
        <source>Install this program, or give its full path in Edit server.</source>
        <translation>请安装这个程序，或在“编辑服务器”中填写它的完整路径。</translation>
    </message>
    <message>
        <source>Choose an existing folder under Edit server → Advanced.</source>
        <translation>请在“编辑服务器 → 高级”中选择一个存在的文件夹。</translation>
    </message>
    <message>
        <source>Check the command and that it may be run.</source>
        <translation>请检查命令，以及它是否允许运行。</translation>
    </message>
    <message>
        <source>The address must start with http:// or https://.</source>
        <translation>网址必须以 http:// 或 https:// 开头。</translation>
    </message>
    <message>
        <source>Check the address, and that you are online.</source>
        <translation>请检查网址，并确认你已联网。</translation>
    </message>
    <message>
        <source>Nothing answers there. Is the server running, and is the address right?</source>
        <translation>那里没有回应。服务器在运行吗？网址正确吗？</translation>
    </message>
    <message>
        <source>A firewall or proxy may be in the way, or the server is down.</source>
        <translation>可能有防火墙或代理挡住了，或者服务器已停止。</translation>
    </message>
    <message>
        <source>The server&apos;s certificate is not trusted (expired, self-made or for another name).</source>
        <translation>服务器的证书不受信任（已过期、自签名或属于其他名称）。</translation>
    </message>
    <message>
        <source>This address serves something else (a web page?). Check the address.</source>
        <translation>这个网址提供的是别的内容（网页？）。请检查网址。</translation>
    </message>
    <message>
        <source>Check the address (it often ends in /sse).</source>
        <translation>请检查网址（通常以 /sse 结尾）。</translation>
    </message>
    <message>
        <source>The server does not answer.</source>
        <translation>服务器没有回应。</translation>
    </message>
    <message>
        <source>The answer is not what an MCP server sends.</source>
        <translation>回答的内容不是 MCP 服务器会发送的。</translation>
    </message>
    <message>
        <source>A key is missing. Add it under Keys, then try again.</source>
        <translation>缺少一个密钥。请在“密钥”中添加，然后再试一次。</translation>
    </message>
    <message>
        <source>Unlock your computer&apos;s keychain, then try again.</source>
        <translation>请解锁系统钥匙串，然后再试一次。</translation>
    </message>
    <message>
        <source>Your computer&apos;s keychain is not running.</source>
        <translation>系统钥匙串没有运行。</translation>
    </message>
</context>
</TS>
