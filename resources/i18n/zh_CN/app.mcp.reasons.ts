<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Reasons</name>
    <message>
        <source>the server rejected the request: is this an MCP endpoint, and the right transport?</source>
        <translation>服务器拒绝了请求：这是 MCP 服务器的地址吗？连接方式对吗？</translation>
    </message>
    <message>
        <source>the server wants credentials: sign in, or put a key or token in this server&apos;s headers</source>
        <translation>服务器需要凭据：请登录，或在此服务器的请求头中填入密钥或令牌</translation>
    </message>
    <message>
        <source>the credentials were refused or lack permission</source>
        <translation>凭据被拒绝，或没有足够的权限</translation>
    </message>
    <message>
        <source>nothing at this URL: check the path (often /mcp, or /sse for the SSE transport)</source>
        <translation>这个网址下什么也没有：请检查路径（通常是 /mcp，SSE 方式则是 /sse）</translation>
    </message>
    <message>
        <source>this URL does not take MCP requests this way: check the path and the transport (HTTP or SSE)</source>
        <translation>这个网址不接受这种方式的 MCP 请求：请检查路径和连接方式（HTTP 或 SSE）</translation>
    </message>
    <message>
        <source>the server refused our content types: it may speak the other HTTP transport</source>
        <translation>服务器拒绝了我们的内容类型：它可能使用另一种 HTTP 连接方式</translation>
    </message>
    <message>
        <source>the server refused JSON: it may not be an MCP endpoint</source>
        <translation>服务器拒绝了 JSON：它可能不是 MCP 服务器的地址</translation>
    </message>
    <message>
        <source>the server is rate limiting: try again later</source>
        <translation>服务器限制了请求频率：请稍后再试</translation>
    </message>
    <message>
        <source>the server had an internal error: see its logs</source>
        <translation>服务器内部出错：请查看它的日志</translation>
    </message>
    <message>
        <source>the server refused the credentials: check the API key or token in this server&apos;s headers</source>
        <translation>服务器拒绝了凭据：请检查此服务器请求头中的 API 密钥或令牌</translation>
    </message>
    <message>
        <source>%1 — last stderr: %2</source>
        <translation>%1 —— 最后的错误输出：%2</translation>
    </message>
    <message>
        <source>%1 — it printed non-protocol text on stdout: %2</source>
        <translation>%1 —— 它在标准输出上打印了不属于协议的文字：%2</translation>
    </message>
    <message>
        <source>the server closed its output</source>
        <translation>服务器关闭了输出</translation>
    </message>
    <message>
        <source>the server was killed by signal %1</source>
        <translation>服务器被信号 %1 终止</translation>
    </message>
    <message>
        <source>the server exited with code %1</source>
        <translation>服务器已退出，退出代码 %1</translation>
    </message>
    <message>
        <source>this does not look like an MCP server</source>
        <translation>这看起来不是 MCP 服务器</translation>
    </message>
    <message>
        <source>%1: it sends back what it is sent (it repeats its input)</source>
        <translation>%1：它把收到的内容原样发回（重复它的输入）</translation>
    </message>
    <message>
        <source>%1: it printed %2 %3</source>
        <translation>%1：它输出了 %2，%3</translation>
    </message>
    <message>
        <source>the connection ended</source>
        <translation>连接已结束</translation>
    </message>
    <message>
        <source>command not found: %1 — is it installed, and on the PATH?</source>
        <translation>找不到命令：%1 —— 它安装了吗？在 PATH 中吗？</translation>
    </message>
    <message>
        <source>the working directory does not exist: %1</source>
        <translation>工作目录不存在：%1</translation>
    </message>
    <message>
        <source>permission denied starting %1</source>
        <translation>没有权限启动 %1</translation>
    </message>
    <message>
        <source>unknown protocol mode %1 in this server&apos;s settings (use auto or legacy)</source>
        <translation>此服务器设置中的协议模式 %1 无法识别（请使用 auto 或 legacy）</translation>
    </message>
    <message>
        <source>the server speaks a protocol version MCP Desk does not support (%1)</source>
        <translation>服务器使用的协议版本 MCP Desk 不支持（%1）</translation>
    </message>
    <message>
        <source>HTTP %1 %2</source>
        <translation>HTTP %1 %2</translation>
    </message>
    <message>
        <source>%1 (WWW-Authenticate: %2)</source>
        <translation>%1（WWW-Authenticate: %2）</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>the server refused the connection: %1 (error %2)</source>
        <translation>服务器拒绝了连接：%1（错误 %2）</translation>
    </message>
    <message>
        <source>could not connect to %1: %2 (is the server running?)</source>
        <translation>无法连接到 %1：%2（服务器在运行吗？）</translation>
    </message>
    <message>
        <source>%1 did not answer in time</source>
        <translation>%1 没有及时应答</translation>
    </message>
    <message>
        <source>HTTP %1 from %2</source>
        <translation>%2 返回了 HTTP %1</translation>
    </message>
    <message>
        <source>network error talking to %1: %2</source>
        <translation>与 %1 通信时出现网络错误：%2</translation>
    </message>
    <message>
        <source>could not start the server: %1</source>
        <translation>无法启动服务器：%1</translation>
    </message>
    <message>
        <source>could not connect: %1</source>
        <translation>无法连接：%1</translation>
    </message>
    <message>
        <source>connection lost: %1</source>
        <translation>连接已断开：%1</translation>
    </message>
    <message>
        <source>connection lost: the server closed the connection</source>
        <translation>连接已断开：服务器关闭了连接</translation>
    </message>
    <message>
        <source>%1; it printed non-protocol text on stdout: %2</source>
        <translation>%1；它在标准输出上打印了不属于协议的文字：%2</translation>
    </message>
    <message>
        <source>%1; last stderr line: %2</source>
        <translation>%1；最后一行错误输出：%2</translation>
    </message>
    <message>
        <source>the server did not finish connecting within %1 s</source>
        <translation>服务器没有在 %1 秒内完成连接</translation>
    </message>
    <message>
        <source>installing the server stopped: nothing came from the download for %1 minutes</source>
        <translation>正在安装服务器时中断：下载已有 %1 分钟没有任何进展</translation>
    </message>
    <message>
        <source>instead of answering</source>
        <translation>而没有应答</translation>
    </message>
    <message>
        <source>and exited with code %1</source>
        <translation>然后以代码 %1 退出</translation>
    </message>
    <message>
        <source>and was killed by signal %1</source>
        <translation>然后被信号 %1 终止</translation>
    </message>
    <message>
        <source>and closed its output</source>
        <translation>然后关闭了输出</translation>
    </message>
    <message>
        <source>and has not answered in %1 s</source>
        <translation>并且 %1 秒内没有应答</translation>
    </message>
    <message>
        <source>it has not answered in %1 s</source>
        <translation>它 %1 秒内没有应答</translation>
    </message>
    <message>
        <source>no answer yet after %1 s: this may not be an MCP server</source>
        <translation>已过 %1 秒仍没有应答：这可能不是 MCP 服务器</translation>
    </message>
</context>
</TS>
