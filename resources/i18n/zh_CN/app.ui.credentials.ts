<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>CredentialsView</name>
    <message>
        <source>Keys and sign-ins</source>
        <translation>密钥和登录</translation>
    </message>
    <message>
        <source>The keys MCP Desk keeps for your servers. Their values stay in your computer&apos;s keychain; select a key to replace, show or delete it.</source>
        <translation>MCP Desk 为你的服务器保存的密钥。它们的值保存在系统钥匙串中；选中一个密钥即可替换、查看或删除它。</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>密钥</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Used for</source>
        <translation>用于</translation>
    </message>
    <message>
        <source>Last changed</source>
        <translation>上次修改</translation>
    </message>
    <message>
        <source>&amp;Hide</source>
        <translation>隐藏(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Set or replace…</source>
        <translation>设置或替换(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;Reveal…</source>
        <translation>查看(&amp;R)…</translation>
    </message>
    <message>
        <source>&amp;Delete…</source>
        <translation>删除(&amp;D)…</translation>
    </message>
    <message>
        <source>Sign &amp;out</source>
        <translation>退出登录(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Clean up unused keys…</source>
        <translation>清理不再使用的密钥(&amp;C)…</translation>
    </message>
    <message>
        <source>Re&amp;fresh</source>
        <translation>刷新(&amp;F)</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Type or paste a new value for the selected key (Enter)</source>
        <translation>为选中的密钥输入或粘贴新值（Enter）</translation>
    </message>
    <message>
        <source>Show the selected key&apos;s value for a few seconds</source>
        <translation>在几秒钟内显示选中密钥的值</translation>
    </message>
    <message>
        <source>Remove the selected key from your computer&apos;s keychain (Delete)</source>
        <translation>从系统钥匙串中删除选中的密钥（Delete）</translation>
    </message>
    <message>
        <source>Forget this server&apos;s sign-in; you can sign in again later</source>
        <translation>忘记此服务器的登录；之后可以重新登录</translation>
    </message>
    <message>
        <source>Delete every key of servers that are no longer in your list</source>
        <translation>删除已不在列表中的服务器的所有密钥</translation>
    </message>
    <message>
        <source>Read the list from your computer&apos;s keychain again (F5)</source>
        <translation>重新从系统钥匙串读取列表（F5）</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <source>reading your keychain…</source>
        <translation>正在读取钥匙串…</translation>
    </message>
    <message>
        <source>This computer has no usable keychain, so MCP Desk cannot keep keys.</source>
        <translation>这台电脑没有可用的系统钥匙串，MCP Desk 无法保存密钥。</translation>
    </message>
    <message>
        <source>Keys are never written to a file. You can keep them until MCP Desk closes.</source>
        <translation>密钥从不写入文件。你可以让它们保存到 MCP Desk 关闭为止。</translation>
    </message>
    <message>
        <source>Your computer&apos;s keychain is locked, or unlocking it was cancelled.</source>
        <translation>系统钥匙串已锁定，或解锁被取消了。</translation>
    </message>
    <message>
        <source>Unlock it and press Try again, or keep keys until MCP Desk closes.</source>
        <translation>请解锁后点击“重试”，或让密钥保存到 MCP Desk 关闭为止。</translation>
    </message>
    <message>
        <source>Your computer&apos;s keychain could not be read: %1</source>
        <translation>无法读取系统钥匙串：%1</translation>
    </message>
    <message>
        <source>Press Try again, or keep keys until MCP Desk closes.</source>
        <translation>请点击“重试”，或让密钥保存到 MCP Desk 关闭为止。</translation>
    </message>
    <message>
        <source>%1 — no server uses this any more</source>
        <translation>%1 — 已没有服务器使用它</translation>
    </message>
    <message>
        <source>No keychain: keys are kept until MCP Desk closes.</source>
        <translation>没有钥匙串：密钥仅本次运行期间保存。</translation>
    </message>
    <message>
        <source>MCP Desk keeps no keys for your servers.</source>
        <translation>MCP Desk 没有为你的服务器保存任何密钥。</translation>
    </message>
    <message>
        <source>no server uses this any more</source>
        <translation>已没有服务器使用它</translation>
    </message>
    <message>
        <source>environment variable</source>
        <translation>环境变量</translation>
    </message>
    <message>
        <source>header</source>
        <translation>请求头</translation>
    </message>
    <message>
        <source>argument</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>URL part</source>
        <translation>网址的一部分</translation>
    </message>
    <message>
        <source>sign-in token</source>
        <translation>登录令牌</translation>
    </message>
    <message>
        <source>sign-in client secret</source>
        <translation>登录客户端密钥</translation>
    </message>
    <message>
        <source>sign-in registration</source>
        <translation>登录注册信息</translation>
    </message>
    <message>
        <source>key</source>
        <translation>密钥</translation>
    </message>
    <message>
        <source>environment %1</source>
        <translation>环境变量 %1</translation>
    </message>
    <message>
        <source>header %1</source>
        <translation>请求头 %1</translation>
    </message>
    <message>
        <source>argument %1</source>
        <translation>参数 %1</translation>
    </message>
    <message>
        <source>URL</source>
        <translation>网址</translation>
    </message>
    <message>
        <source>sign in</source>
        <translation>登录</translation>
    </message>
    <message>
        <source>sign in (client secret)</source>
        <translation>登录（客户端密钥）</translation>
    </message>
    <message>
        <source>not used by the server&apos;s settings</source>
        <translation>服务器的设置中没有用到</translation>
    </message>
    <message>
        <source>not set</source>
        <translation>未设置</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>Saved. %1 uses the new key the next time it connects.</source>
        <translation>已保存。%1 下次连接时会使用新密钥。</translation>
    </message>
    <message>
        <source>Show the key?</source>
        <translation>显示密钥？</translation>
    </message>
    <message>
        <source>Show the key %1 of %2 on screen?</source>
        <translation>要在屏幕上显示 %2 的密钥 %1 吗？</translation>
    </message>
    <message>
        <source>Anyone who can see your screen can read it. It is hidden again after %1 seconds.</source>
        <translation>能看到你屏幕的人都能读到它。%1 秒后会再次隐藏。</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>显示</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>That key is not set any more.</source>
        <translation>这个密钥已不再设置。</translation>
    </message>
    <message>
        <source>%1 of %2 (hidden again in %3 s):</source>
        <translation>%2 的 %1（%3 秒后隐藏）：</translation>
    </message>
    <message>
        <source>You will need to sign in to %1 again.</source>
        <translation>你需要重新登录 %1。</translation>
    </message>
    <message>
        <source>No server uses it any more.</source>
        <translation>已没有服务器使用它。</translation>
    </message>
    <message>
        <source>%1 cannot use it until you set it again.</source>
        <translation>在你重新设置之前，%1 无法使用它。</translation>
    </message>
    <message>
        <source>Delete the key?</source>
        <translation>删除密钥？</translation>
    </message>
    <message>
        <source>Delete the key %1 of %2 from your computer&apos;s keychain?</source>
        <translation>要从系统钥匙串中删除 %2 的密钥 %1 吗？</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Deleted %1.</source>
        <translation>已删除 %1。</translation>
    </message>
    <message>
        <source>Signing out of %1…</source>
        <translation>正在退出 %1 的登录…</translation>
    </message>
    <message>
        <source>Clean up unused keys?</source>
        <translation>清理不再使用的密钥？</translation>
    </message>
    <message numerus="yes">
        <source>Delete %n key(s) of servers that are no longer in your list?</source>
        <translation>
            <numerusform>要删除已不在列表中的服务器的 %n 个密钥吗？</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Deleted %n unused key(s).</source>
        <translation>
            <numerusform>已删除 %n 个不再使用的密钥。</numerusform>
        </translation>
    </message>
    <message>
        <source>Delete them</source>
        <translation>删除它们</translation>
    </message>
</context>
</TS>
