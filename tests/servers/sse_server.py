"""Legacy SSE servers on the official SDK (`MCPServer.sse_app`), for the SSE transport tests.

    python -m tests.servers.sse_server [--refuse-discover STATUS]

Serves `/sse` (the event stream) and `/messages/` (the POST endpoint) on 127.0.0.1 and a free
port, announced on stderr as `MCP_TEST_LISTENING host:port`. The SDK's server answers both
eras' first requests, so over SSE it would accept `server/discover` and speak 2026-07-28 — a
version that is not defined over this deprecated transport: a client must not ask.

`--refuse-discover STATUS` plays an older SSE server that rejects a message it does not know at
the HTTP level: a POSTed `server/discover` is answered with that status (e.g. 400) and never
reaches the MCP server; every other message is served as usual. `--refuse-tool NAME:STATUS`
answers a `tools/call` of that tool with the status (a proxy's body limit, say).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from mcp.server.mcpserver import MCPServer

from tests.servers.serve import serve_asgi


def build() -> MCPServer:
    server: MCPServer = MCPServer("legacy-sse", log_level="WARNING")

    def echo(text: str) -> str:
        """Echo the text back."""
        return f"echo: {text}"

    def big(text: str) -> str:
        """Refused by the server's front when started with --refuse-tool big:413."""
        return text

    server.add_tool(echo)
    server.add_tool(big)
    return server


def refusing(app: Any, discover: int, tools: dict[str, int]) -> Any:
    """ASGI wrapper: a POSTed `server/discover` gets `discover` (if set), a `tools/call` of a tool
    in `tools` its status; a short text body, as a web server's error page."""

    async def wrapped(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await app(scope, receive, send)
            return
        chunks: list[bytes] = []
        while True:
            message = await receive()
            chunks.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        body = b"".join(chunks)
        try:
            rpc = json.loads(body)
            method = rpc.get("method")
            tool = (rpc.get("params") or {}).get("name")
        except (ValueError, AttributeError):
            method = tool = None
        status = discover if method == "server/discover" else 0
        if method == "tools/call" and tool in tools:
            status = tools[tool]
        if status:
            await send(
                {
                    "type": "http.response.start",
                    "status": status,
                    "headers": [(b"content-type", b"text/plain")],
                }
            )
            await send({"type": "http.response.body", "body": b"unknown message"})
            return
        replayed = False

        async def replay() -> Any:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await app(scope, replay, send)

    return wrapped


def app(refuse_discover: int = 0, refuse_tools: dict[str, int] | None = None) -> Any:
    """The ASGI app (serve it with `tests.servers.session_server.ThreadedServer` in a test)."""
    served: Any = build().sse_app()
    if refuse_discover or refuse_tools:
        served = refusing(served, refuse_discover, refuse_tools or {})
    return served


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--refuse-discover", type=int, default=0, metavar="STATUS")
    parser.add_argument("--refuse-tool", action="append", default=[], metavar="NAME:STATUS")
    args = parser.parse_args()
    tools = {name: int(status) for name, _, status in (t.rpartition(":") for t in args.refuse_tool)}
    serve_asgi(app(args.refuse_discover, tools))


if __name__ == "__main__":
    main()
