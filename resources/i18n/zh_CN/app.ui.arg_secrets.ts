<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>ServerDialog</name>
    <message>
        <source>Other people signed in to this computer can see the arguments of a running program, so a key passed as an argument is not hidden from them. If the server can read the key from an environment variable, add it under Environment instead.</source>
        <translation>登录这台电脑的其他人可以看到正在运行的程序的参数，所以作为参数传入的密钥对他们并不隐藏。如果服务器能从环境变量读取密钥，请改为在“环境变量”中添加。</translation>
    </message>
    <message>
        <source>Keep secret</source>
        <translation>保密</translation>
    </message>
    <message>
        <source>Keep the selected argument in your computer&apos;s keychain</source>
        <translation>把选中的参数保存在系统钥匙串中</translation>
    </message>
    <message>
        <source>Keep secret (in the keychain)</source>
        <translation>保密（保存在钥匙串中）</translation>
    </message>
</context>
</TS>
