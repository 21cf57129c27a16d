"""An SDK server that repeats every secret it was given, everywhere it can: the leak test's server.

    python -m tests.servers.leaky_server ARG...                  # stdio
    python -m tests.servers.leaky_server --die ARG...            # stdio: print everything, exit 1
    python -m tests.servers.leaky_server --http [--reject]       # Streamable HTTP on 127.0.0.1

It prints its argv and its whole environment on stderr at start (as `repr` and as JSON, two
spellings), and its tools answer with them in every way a server can answer:
`tell` (a result), `fail_result` (an `isError` result), `fail_rpc` (a JSON-RPC error whose
message holds them), `log` (a logging notification), `shout` (a line on stderr) and `progress` (a
progress message); the tool listing repeats them in every tool's title, description and schema.
Over HTTP it records each request's headers and query string, and all of those are part of
what it repeats; `--reject` answers every request with 400 and a body that repeats them.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import anyio
import mcp_types as types
from mcp.server.lowlevel.server import Server
from mcp.shared.exceptions import MCPError

SEEN: dict[str, Any] = {"argv": sys.argv[1:], "env": dict(os.environ), "headers": {}, "query": ""}


def everything() -> str:
    return json.dumps(SEEN)


def _text(text: str, *, is_error: bool = False) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=is_error)


def build_server() -> Server[Any]:
    names = ("tell", "fail_result", "fail_rpc", "log", "shout", "progress")

    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        # The listing repeats them too: in a description, a title and a schema's default.
        said = everything()
        schema = {"type": "object", "properties": {"x": {"type": "string", "default": said}}}
        return types.ListToolsResult(
            tools=[
                types.Tool(
                    name=n, title=f"{n} {said[:2000]}", description=f"{n}: {said}", input_schema=schema
                )
                for n in names
            ]
        )

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        said = everything()
        if params.name == "tell":
            return _text(said)
        if params.name == "fail_result":
            return _text(f"failed, with: {said}", is_error=True)
        if params.name == "fail_rpc":
            raise MCPError(types.INTERNAL_ERROR, f"failed, with: {said}", SEEN)
        if params.name == "log":
            await ctx.session.send_notification(
                types.LoggingMessageNotification(
                    params=types.LoggingMessageNotificationParams(level="error", logger="leaky", data=SEEN)
                )
            )
            return _text("logged")
        if params.name == "progress":
            await ctx.session.report_progress(1, 2, f"halfway, with: {said}")
            return _text("progressed")
        if params.name == "shout":
            print(f"shouting: {said}", file=sys.stderr, flush=True)
            print(f"shouting repr: {SEEN!r}", file=sys.stderr, flush=True)
            return _text("shouted")
        raise MCPError(types.INVALID_PARAMS, f"no tool {params.name}")

    return Server("leaky", version="1.0.0", on_list_tools=list_tools, on_call_tool=call_tool)


def recording(app: Any, reject: bool) -> Any:
    """ASGI wrapper keeping the latest request's headers and query (and refusing all with --reject)."""

    async def wrapped(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            SEEN["headers"] = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope.get("headers", [])}
            SEEN["query"] = scope.get("query_string", b"").decode("latin-1")
            # "token X is not valid": the credential alone, without the header's "Bearer ".
            SEEN["bearer"] = SEEN["headers"].get("authorization", "").partition(" ")[2]
            if reject:
                body = f"bad request, you sent: {everything()}".encode()
                await send(
                    {
                        "type": "http.response.start",
                        "status": 400,
                        "headers": [(b"content-type", b"text/plain")],
                    }
                )
                await send({"type": "http.response.body", "body": body})
                return
        await app(scope, receive, send)

    return wrapped


def main() -> None:
    argv = sys.argv[1:]
    if "--http" in argv:
        from tests.servers.serve import serve_asgi

        serve_asgi(recording(build_server().streamable_http_app(), "--reject" in argv))
        return
    print(f"started with argv={argv!r} env={dict(os.environ)!r}", file=sys.stderr, flush=True)
    print(f"started with (json): {everything()}", file=sys.stderr, flush=True)
    if "--die" in argv:
        print(f"fatal: cannot start, my settings were {everything()}", file=sys.stderr, flush=True)
        sys.exit(1)
    from mcp.server.stdio import stdio_server

    server = build_server()

    async def run() -> None:
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(run)


if __name__ == "__main__":
    main()
