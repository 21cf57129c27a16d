<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Reasons</name>
    <message>
        <source>Docker is not installed: this server runs in a Docker container; install Docker Desktop (or the docker engine), then try again</source>
        <translation>Docker 未安装：此服务器在 Docker 容器中运行；请安装 Docker Desktop（或 Docker 引擎），然后重试</translation>
    </message>
    <message>
        <source>Docker is installed but not running: start Docker Desktop (or the docker service)</source>
        <translation>Docker 已安装但未运行：请启动 Docker Desktop（或 Docker 服务）</translation>
    </message>
    <message>
        <source>docker did not answer within %1 s</source>
        <translation>Docker 在 %1 秒内没有响应</translation>
    </message>
</context>
</TS>
