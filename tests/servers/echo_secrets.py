"""An SDK server that tells what it was started with, for the argument/URL secret tests.

    python -m tests.servers.echo_secrets ARG...            # stdio
    python -m tests.servers.echo_secrets --http [--require-query TOKEN]

Over stdio it prints its arguments on stderr at start (so the test sees whether the app's log
masks them) and its tool `argv` answers with them as JSON (so the traffic log is checked too).
Over HTTP it records every request's query string; the tool `queries` answers with them, and
`--require-query TOKEN` answers 401 to a request whose query has no `token=TOKEN`.
"""

from __future__ import annotations

import json
import sys
from typing import Any
from urllib.parse import parse_qs

import anyio
import mcp_types as types
from mcp.server.lowlevel.server import Server

QUERIES: list[str] = []


def build_server() -> Server[Any]:
    tools = [
        types.Tool(name="argv", description="The server's arguments", input_schema={"type": "object"}),
        types.Tool(name="queries", description="Query strings received", input_schema={"type": "object"}),
    ]

    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        data = sys.argv[1:] if params.name == "argv" else QUERIES
        return types.CallToolResult(content=[types.TextContent(type="text", text=json.dumps(data))])

    return Server("echo-secrets", version="1.0.0", on_list_tools=list_tools, on_call_tool=call_tool)


def recording(app: Any, required: str | None) -> Any:
    """ASGI wrapper keeping each request's query string (and refusing a wrong token)."""

    async def wrapped(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            query = scope.get("query_string", b"").decode("latin-1")
            QUERIES.append(query)
            print(f"query: {query}", file=sys.stderr, flush=True)
            if required is not None and parse_qs(query).get("token") != [required]:
                await send({"type": "http.response.start", "status": 401, "headers": []})
                await send({"type": "http.response.body", "body": b"wrong token"})
                return
        await app(scope, receive, send)

    return wrapped


def main() -> None:
    if "--http" in sys.argv:
        from tests.servers.serve import serve_asgi

        rest = sys.argv[sys.argv.index("--http") + 1 :]
        required = rest[rest.index("--require-query") + 1] if "--require-query" in rest else None
        serve_asgi(recording(build_server().streamable_http_app(), required))
        return
    from mcp.server.stdio import stdio_server

    print(f"started with: {' '.join(sys.argv[1:])}", file=sys.stderr, flush=True)
    server = build_server()

    async def run() -> None:
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(run)


if __name__ == "__main__":
    main()
