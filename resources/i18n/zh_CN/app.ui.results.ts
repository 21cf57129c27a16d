<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>BinaryBlock</name>
    <message>
        <source>%1 (%2 bytes)</source>
        <translation>%1（%2 字节）</translation>
    </message>
    <message>
        <source>of an unknown kind</source>
        <translation>类型未知</translation>
    </message>
    <message>
        <source>Save…</source>
        <translation>保存…</translation>
    </message>
</context>
<context>
    <name>ImageBlock</name>
    <message>
        <source>An image that could not be read</source>
        <translation>无法读取的图片</translation>
    </message>
    <message>
        <source>Image, %1 × %2 pixels</source>
        <translation>图片，%1 × %2 像素</translation>
    </message>
    <message>
        <source>Zoom out</source>
        <translation>缩小</translation>
    </message>
    <message>
        <source>Zoom in</source>
        <translation>放大</translation>
    </message>
    <message>
        <source>Actual size</source>
        <translation>实际大小</translation>
    </message>
    <message>
        <source>Save…</source>
        <translation>保存…</translation>
    </message>
    <message>
        <source>Result image</source>
        <translation>结果图片</translation>
    </message>
    <message>
        <source>The image could not be read.</source>
        <translation>无法读取这张图片。</translation>
    </message>
</context>
<context>
    <name>ResultView</name>
    <message>
        <source>Save as</source>
        <translation>另存为</translation>
    </message>
    <message>
        <source>What happened</source>
        <translation>运行情况</translation>
    </message>
    <message>
        <source>Raw answer</source>
        <translation>原始回答</translation>
    </message>
    <message>
        <source>Show the answer as the server sent it (JSON)</source>
        <translation>显示服务器发来的原始回答（JSON）</translation>
    </message>
    <message>
        <source>Copy as JSON</source>
        <translation>复制为 JSON</translation>
    </message>
    <message>
        <source>Run the tool to see its answer here.</source>
        <translation>运行工具后，它的回答会显示在这里。</translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>正在运行…</translation>
    </message>
    <message>
        <source>The call failed after %1 s: %2</source>
        <translation>调用失败（%1 秒后）：%2</translation>
    </message>
    <message>
        <source>The call failed: %2</source>
        <translation>调用失败：%2</translation>
    </message>
    <message>
        <source>Cancelled after %1 s.</source>
        <translation>已取消（%1 秒后）。</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <source>Left running on the server: its result will be in the History when it ends.</source>
        <translation>已留在服务器上继续运行：结束后结果会出现在“历史”中。</translation>
    </message>
    <message>
        <source>The tool reported a problem (after %1 s):</source>
        <translation>工具报告了错误（%1 秒后）：</translation>
    </message>
    <message>
        <source>The tool reported a problem:</source>
        <translation>工具报告了错误：</translation>
    </message>
    <message>
        <source>Done in %1 s.</source>
        <translation>完成，用时 %1 秒。</translation>
    </message>
    <message>
        <source>Done.</source>
        <translation>完成。</translation>
    </message>
    <message>
        <source>(The tool&apos;s answer is empty.)</source>
        <translation>（工具的回答是空的。）</translation>
    </message>
    <message>
        <source>Read.</source>
        <translation>已读取。</translation>
    </message>
    <message>
        <source>(Nothing returned.)</source>
        <translation>（没有返回内容。）</translation>
    </message>
    <message>
        <source>(A picture that could not be read.)</source>
        <translation>（一张无法读取的图片。）</translation>
    </message>
    <message>
        <source>Sound</source>
        <translation>音频</translation>
    </message>
    <message>
        <source>The answer points to a resource: %1</source>
        <translation>回答中引用了一个资源：%1</translation>
    </message>
    <message>
        <source>Read resource</source>
        <translation>读取资源</translation>
    </message>
    <message>
        <source>Save…</source>
        <translation>保存…</translation>
    </message>
    <message>
        <source>A file</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Result data (it matches what the tool promised)</source>
        <translation>结果数据（与工具声明的格式相符）</translation>
    </message>
    <message>
        <source>Result data — the data does not match what the tool promised</source>
        <translation>结果数据——返回的数据与工具声明的格式不符</translation>
    </message>
    <message>
        <source>Result data</source>
        <translation>结果数据</translation>
    </message>
    <message>
        <source>structuredContent, checked against the tool&apos;s outputSchema</source>
        <translation>structuredContent，已按工具的 outputSchema 检查</translation>
    </message>
    <message>
        <source>structuredContent (the tool declares no outputSchema)</source>
        <translation>structuredContent（工具没有声明 outputSchema）</translation>
    </message>
    <message>
        <source>Message from you:</source>
        <translation>你发出的消息：</translation>
    </message>
    <message>
        <source>Answer from the model:</source>
        <translation>模型的回答：</translation>
    </message>
</context>
<context>
    <name>TextBlock</name>
    <message>
        <source>Show all</source>
        <translation>全部显示</translation>
    </message>
    <message>
        <source>Show the whole text here (it is added a part at a time)</source>
        <translation>在这里显示全部文字（会分批加入）</translation>
    </message>
    <message>
        <source>Save to file…</source>
        <translation>保存到文件…</translation>
    </message>
    <message>
        <source>Save the whole text, exactly as the server sent it</source>
        <translation>按服务器发来的原样保存全部文字</translation>
    </message>
    <message>
        <source>Formatted</source>
        <translation>格式化</translation>
    </message>
    <message>
        <source>Show the text formatted (Markdown: headings, lists, links; no images are loaded). Off: the text exactly as the server sent it.</source>
        <translation>以格式化方式显示文字（Markdown：标题、列表、链接；不加载任何图片）。关闭后显示服务器发来的原文。</translation>
    </message>
    <message>
        <source>Result text</source>
        <translation>结果文字</translation>
    </message>
    <message numerus="yes">
        <source>This text is too long for the Markdown view (more than %n characters).</source>
        <translation>
            <numerusform>这段文字太长，无法格式化显示（超过 %n 个字符）。</numerusform>
        </translation>
    </message>
    <message>
        <source>Showing {shown:,} of {total:,} characters…</source>
        <translation>正在显示 {total:,} 个字符中的 {shown:,} 个…</translation>
    </message>
    <message>
        <source>Showing the first {shown:,} of {total:,} characters: save it to a file to read all.</source>
        <translation>只显示了 {total:,} 个字符中的前 {shown:,} 个：保存到文件即可阅读全部。</translation>
    </message>
    <message>
        <source>Showing the first {shown:,} of {total:,} characters.</source>
        <translation>显示了 {total:,} 个字符中的前 {shown:,} 个。</translation>
    </message>
    <message>
        <source>Long lines are broken for display; the saved file keeps them whole.</source>
        <translation>过长的行为了显示而折行；保存的文件保持原样。</translation>
    </message>
    <message>
        <source>Could not save to {path}: {error}</source>
        <translation>无法保存到 {path}：{error}</translation>
    </message>
    <message>
        <source>Saved to {path}.</source>
        <translation>已保存到 {path}。</translation>
    </message>
    <message>
        <source>Result text, formatted</source>
        <translation>结果文字（格式化）</translation>
    </message>
</context>
</TS>
