"""A small MCP server on the official SDK (low-level `Server`), for the engine tests.

Run over stdio as `python tests/mcp/sdk_server.py [--extra-tools N] [--page-size N]`, or build it
in-process with `build_server()` (the SDK then speaks 2026-07-28 directly to it). Both protocol
eras are served: the client's first request decides.

It is a real server, not a mock: every behaviour the tests need is a tool.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from mcp.server.lowlevel.server import NotificationOptions, Server
from mcp.server.stdio import stdio_server
from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler
from mcp.shared.exceptions import MCPError
from mcp.shared.subscriptions import ResourceUpdated, ToolsListChanged
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

OBJECT = {"type": "object"}
SUM_SCHEMA = {"type": "object", "properties": {"sum": {"type": "number"}}, "required": ["sum"]}


RETOUCHES: dict[str, dict[str, Any]] = {
    "annotations": {"annotations": {"destructiveHint": True, "readOnlyHint": False}},
    "title": {"title": "A new title"},
    "icons": {"icons": [{"src": "data:image/png;base64,AAAA", "mimeType": "image/png"}]},
    "_meta": {"_meta": {"example.com/flag": 1}},
    "execution": {"execution": {"taskSupport": "optional"}},
    "outputSchema": {"outputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}}},
}
"""`mutate` with action `retouch`: the tool's other fields, each changed on its own."""


def _tool(name: str, description: str, props: dict[str, Any] | None = None, **extra: Any) -> types.Tool:
    schema: dict[str, Any] = {"type": "object", "properties": props or {}}
    return types.Tool.model_validate(
        {"name": name, "description": description, "inputSchema": schema, **extra}
    )


def base_tools() -> dict[str, types.Tool]:
    tools = [
        _tool("echo", "Echo the text back", {"text": {"type": "string"}}),
        _tool(
            "add",
            "Add two numbers",
            {"a": {"type": "number"}, "b": {"type": "number"}},
            outputSchema=SUM_SCHEMA,
        ),
        _tool("bad_output", "Claims a sum, returns a string", outputSchema=SUM_SCHEMA),
        _tool("fail", "Always answers with a tool error"),
        _tool("rpc_error", "Always fails with a JSON-RPC error"),
        _tool("slow", "Reports progress", {"steps": {"type": "integer"}, "delay": {"type": "number"}}),
        _tool("hang", "Never answers; writes MARKER when cancelled", {"marker": {"type": "string"}}),
        _tool("burst", "Sends COUNT tools/list_changed", {"count": {"type": "integer"}}),
        _tool(
            "mutate",
            "Changes the tool list",
            {
                "action": {"type": "string"},
                "name": {"type": "string"},
                "new_name": {"type": "string"},
                "field": {"type": "string"},
                "notify": {"type": "boolean"},
            },
        ),
        _tool("elicit", "Asks the user something", {"also_require": {"type": "string"}}),
        _tool("ask", "2026-07-28: asks through an input_required result"),
        _tool("sample", "Asks the client's model"),
        _tool("roots", "Lists the client's roots"),
        _tool("log", "Sends a log message", {"level": {"type": "string"}, "text": {"type": "string"}}),
        _tool("touch", "Says a resource changed", {"uri": {"type": "string"}}),
        _tool("stderr", "Writes a line to stderr", {"text": {"type": "string"}}),
        _tool("exit", "Exits the process at once", {"code": {"type": "integer"}}),
        _tool("image", "Returns an image, an audio clip, a link and an embedded resource"),
    ]
    return {t.name: t for t in tools}


def _text(text: str, is_error: bool = False) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=is_error)


def build_server(extra_tools: int = 0, page_size: int = 0) -> tuple[Server[Any], InMemorySubscriptionBus]:
    tools = base_tools()
    for i in range(extra_tools):
        t = _tool(f"tool_{i:05d}", f"Generated tool number {i}", {"n": {"type": "integer", "default": i}})
        tools[t.name] = t
    bus = InMemorySubscriptionBus()
    subscribed: set[str] = set()

    def page(items: list[Any], cursor: str | None) -> tuple[list[Any], str | None]:
        if page_size <= 0:
            return items, None
        start = int(cursor or 0)
        end = start + page_size
        return items[start:end], (str(end) if end < len(items) else None)

    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        items, nxt = page(list(tools.values()), params.cursor if params else None)
        return types.ListToolsResult(tools=items, next_cursor=nxt)

    def modern(ctx: Any) -> bool:
        return ctx.protocol_version in MODERN_PROTOCOL_VERSIONS

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        name = params.name
        args = params.arguments or {}
        if name not in tools:
            raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {name}")
        session = ctx.session
        if name == "echo" or name.startswith("tool_"):
            return _text(f"echo: {args.get('text', args.get('n', ''))}")
        if name == "add":
            total = args.get("a", 0) + args.get("b", 0)
            return types.CallToolResult(
                content=[types.TextContent(type="text", text=str(total))], structured_content={"sum": total}
            )
        if name == "bad_output":
            return types.CallToolResult(
                content=[types.TextContent(type="text", text="nope")], structured_content={"sum": "nope"}
            )
        if name == "fail":
            return _text("it broke", is_error=True)
        if name == "rpc_error":
            raise MCPError(types.INVALID_PARAMS, "bad arguments: x must be positive")
        if name == "slow":
            steps = int(args.get("steps", 3))
            for i in range(steps):
                await anyio.sleep(float(args.get("delay", 0.01)))
                await session.report_progress(i + 1, steps, f"step {i + 1}")
            return _text("done")
        if name == "hang":
            # Tests cancel once they see this line: a cancel sent earlier may overtake the call.
            print("hang: started", file=sys.stderr, flush=True)
            try:
                await anyio.sleep_forever()
            finally:
                marker = args.get("marker")
                if marker:
                    Path(marker).write_text("cancelled")
        if name == "burst":
            for _ in range(int(args.get("count", 100))):
                if modern(ctx):
                    await bus.publish(ToolsListChanged())
                else:
                    await session.send_notification(types.ToolListChangedNotification())
            return _text("sent")
        if name == "mutate":
            action = args.get("action")
            target = args.get("name", "")
            if action == "add":
                tools[target] = _tool(target, f"Added tool {target}")
            elif action == "remove":
                tools.pop(target, None)
            elif action == "rename":
                old = tools.pop(target)
                tools[args["new_name"]] = old.model_copy(update={"name": args["new_name"]})
            elif action == "describe":
                tools[target] = tools[target].model_copy(update={"description": "changed description"})
            elif action == "retouch":
                # One field other than description and schemas; the tool keeps its name.
                raw = tools[target].model_dump(by_alias=True, mode="json", exclude_none=True)
                raw.update(RETOUCHES[str(args.get("field", "annotations"))])
                tools[target] = types.Tool.model_validate(raw, by_name=False)
            if args.get("notify"):
                if modern(ctx):
                    await bus.publish(ToolsListChanged())
                else:
                    await session.send_notification(types.ToolListChangedNotification())
            return _text("ok")
        if name == "elicit":
            schema = {
                "type": "object",
                "properties": {
                    "city": {"type": "string", "default": "Paris"},
                    "nights": {"type": "integer", "default": 2},
                },
                "required": ["city"],
            }
            extra = str(args.get("also_require", ""))
            if extra:  # a required field without a default: the defaults alone are no valid answer
                schema["properties"][extra] = {"type": "string"}  # type: ignore[index]
                schema["required"] = ["city", extra]
            result = await session.send_request(
                types.ElicitRequest(
                    params=types.ElicitRequestFormParams(message="Where to?", requested_schema=schema)
                ),
                types.ElicitResult,
            )
            return _text(json.dumps({"action": result.action, "content": result.content}))
        if name == "ask":
            answer = (params.input_responses or {}).get("where")
            if answer is None:
                form = types.ElicitRequestFormParams(
                    message="Which city?",
                    requested_schema={
                        "type": "object",
                        "properties": {"city": {"type": "string", "default": "Oslo"}},
                    },
                )
                return types.InputRequiredResult(  # type: ignore[return-value]
                    input_requests={"where": types.ElicitRequest(params=form)}, request_state="round-1"
                )
            assert params.request_state == "round-1"
            return _text(json.dumps(answer.model_dump(mode="json", exclude_none=True)))
        if name == "sample":
            try:
                result = await session.send_request(
                    types.CreateMessageRequest(
                        params=types.CreateMessageRequestParams(
                            messages=[
                                types.SamplingMessage(
                                    role="user", content=types.TextContent(type="text", text="hi")
                                )
                            ],
                            max_tokens=10,
                        )
                    ),
                    types.CreateMessageResult,
                )
            except MCPError as exc:
                return _text(f"declined: {exc.error.message}")
            return _text(f"model said: {result.content.text}")  # type: ignore[union-attr]
        if name == "roots":
            result = await session.send_request(types.ListRootsRequest(), types.ListRootsResult)
            return _text(json.dumps([str(r.uri) for r in result.roots]))
        if name == "log":
            await session.send_notification(
                types.LoggingMessageNotification(
                    params=types.LoggingMessageNotificationParams(
                        level=args.get("level", "info"), data=args.get("text", ""), logger="test"
                    )
                )
            )
            return _text("logged")
        if name == "touch":
            uri = args.get("uri", "mem://a")
            if modern(ctx):
                await bus.publish(ResourceUpdated(uri=uri))
            else:
                await session.send_notification(
                    types.ResourceUpdatedNotification(params=types.ResourceUpdatedNotificationParams(uri=uri))
                )
            return _text("touched")
        if name == "stderr":
            print(args.get("text", ""), file=sys.stderr, flush=True)
            return _text("written")
        if name == "exit":
            os._exit(int(args.get("code", 3)))
        if name == "image":
            return types.CallToolResult.model_validate(
                {
                    "content": [
                        {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"},
                        {"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"},
                        {"type": "resource_link", "uri": "mem://a", "name": "a"},
                        {
                            "type": "resource",
                            "resource": {"uri": "mem://b", "text": "bee", "mimeType": "text/plain"},
                        },
                    ]
                }
            )
        raise MCPError(types.INTERNAL_ERROR, f"tool {name} has no behaviour")

    resources = [
        types.Resource.model_validate({"uri": "mem://a", "name": "a", "mimeType": "text/plain"}),
        types.Resource.model_validate({"uri": "mem://b", "name": "b", "mimeType": "text/plain"}),
    ]

    async def list_resources(
        ctx: Any, params: types.PaginatedRequestParams | None
    ) -> types.ListResourcesResult:
        items, nxt = page(resources, params.cursor if params else None)
        return types.ListResourcesResult(resources=items, next_cursor=nxt)

    async def list_templates(
        ctx: Any, params: types.PaginatedRequestParams | None
    ) -> types.ListResourceTemplatesResult:
        tmpl = types.ResourceTemplate.model_validate({"uriTemplate": "mem://item/{id}", "name": "item"})
        return types.ListResourceTemplatesResult(resource_templates=[tmpl])

    async def read_resource(ctx: Any, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        uri = str(params.uri)
        if uri not in ("mem://a", "mem://b") and not uri.startswith("mem://item/"):
            raise MCPError(-32002, f"Resource not found: {uri}")
        return types.ReadResourceResult(
            contents=[types.TextResourceContents(uri=uri, text=f"content of {uri}", mime_type="text/plain")]
        )

    async def subscribe(ctx: Any, params: types.SubscribeRequestParams) -> types.EmptyResult:
        subscribed.add(str(params.uri))
        return types.EmptyResult()

    async def unsubscribe(ctx: Any, params: types.UnsubscribeRequestParams) -> types.EmptyResult:
        subscribed.discard(str(params.uri))
        return types.EmptyResult()

    greet = types.Prompt.model_validate(
        {"name": "greet", "description": "Say hello", "arguments": [{"name": "name", "required": True}]}
    )

    async def list_prompts(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListPromptsResult:
        return types.ListPromptsResult(prompts=[greet])

    async def get_prompt(ctx: Any, params: types.GetPromptRequestParams) -> types.GetPromptResult:
        who = (params.arguments or {}).get("name", "you")
        return types.GetPromptResult(
            description="A greeting",
            messages=[
                types.PromptMessage(role="user", content=types.TextContent(type="text", text=f"Hello {who}"))
            ],
        )

    async def complete(ctx: Any, params: types.CompleteRequestParams) -> types.CompleteResult:
        names = ["alice", "alex", "bob"]
        values = [n for n in names if n.startswith(params.argument.value)]
        return types.CompleteResult(completion=types.Completion(values=values))

    server: Server[Any] = Server(
        "engine-test-server",
        version="1.2.3",
        title="Engine Test Server",
        instructions="Use echo to test.",
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_list_resource_templates=list_templates,
        on_read_resource=read_resource,
        on_subscribe_resource=subscribe,
        on_unsubscribe_resource=unsubscribe,
        on_list_prompts=list_prompts,
        on_get_prompt=get_prompt,
        on_completion=complete,
        on_subscriptions_listen=ListenHandler(bus),
    )
    return server, bus


NOTIFY = NotificationOptions(prompts_changed=True, resources_changed=True, tools_changed=True)


async def serve_stdio(extra_tools: int, page_size: int) -> None:
    server, _ = build_server(extra_tools, page_size)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options(NOTIFY))


def _require_bearer(app: Any, token: str) -> Any:
    """ASGI wrapper answering 401 (with WWW-Authenticate) unless the request carries the token."""
    expected = f"Bearer {token}".encode()

    async def wrapped(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and dict(scope["headers"]).get(b"authorization") != expected:
            headers = [(b"www-authenticate", b'Bearer realm="engine-test"'), (b"content-type", b"text/plain")]
            await send({"type": "http.response.start", "status": 401, "headers": headers})
            await send({"type": "http.response.body", "body": b"unauthorized"})
            return
        await app(scope, receive, send)

    return wrapped


async def serve_http(extra_tools: int, page_size: int, require_token: str, port: int = 0) -> None:
    """Streamable HTTP on 127.0.0.1 and a free port, announced as `MCP_TEST_LISTENING host:port`."""
    import socket

    import uvicorn

    server, _ = build_server(extra_tools, page_size)
    app: Any = server.streamable_http_app()
    if require_token:
        app = _require_bearer(app, require_token)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    sock.listen(64)
    print(f"MCP_TEST_LISTENING 127.0.0.1:{sock.getsockname()[1]}", file=sys.stderr, flush=True)
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    await uvicorn.Server(config).serve(sockets=[sock])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--extra-tools", type=int, default=0)
    parser.add_argument("--page-size", type=int, default=0)
    parser.add_argument("--stderr-banner", default="")
    parser.add_argument("--http", action="store_true", help="serve Streamable HTTP instead of stdio")
    parser.add_argument("--require-token", default="", help="HTTP: answer 401 without this bearer token")
    parser.add_argument("--port", type=int, default=0, help="HTTP: port on 127.0.0.1 (default: a free one)")
    args = parser.parse_args()
    if args.stderr_banner:
        print(args.stderr_banner, file=sys.stderr, flush=True)
    if args.http:
        anyio.run(serve_http, args.extra_tools, args.page_size, args.require_token, args.port)
    else:
        anyio.run(serve_stdio, args.extra_tools, args.page_size)


if __name__ == "__main__":
    main()
