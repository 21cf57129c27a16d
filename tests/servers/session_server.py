"""A stateful 2025-era Streamable HTTP server on the official SDK (`MCPServer`), for the lost
session tests.

    python -m tests.servers.session_server --port PORT [--extra-tool NAME]

Serves `/mcp` on 127.0.0.1:PORT (0: a free one), announced on stderr as
`MCP_TEST_LISTENING host:port`. Sessions are the SDK's own (an `Mcp-Session-Id` per initialize,
kept in memory): a restart forgets every session, and an HTTP DELETE with the id ends one, as
an idle timeout or an operator would. `whoami` answers the session id the request came with.
`--extra-tool NAME` adds a tool, so a test sees the catalog of the restarted server.
"""

from __future__ import annotations

import argparse
import socket
import sys
from typing import Any

from mcp.server.mcpserver import Context, MCPServer


def build(extra_tool: str | None) -> MCPServer:
    server: MCPServer = MCPServer("sessions", log_level="WARNING")

    def echo(text: str) -> str:
        """Echo the text back."""
        return f"echo: {text}"

    def whoami(ctx: Context) -> str:
        """The session id this request came with."""
        headers = ctx.headers or {}
        return str(headers.get("mcp-session-id", ""))

    server.add_tool(echo)
    server.add_tool(whoami)
    if extra_tool:

        def extra() -> str:
            return "extra"

        server.add_tool(extra, name=extra_tool, description="Only on this start of the server.")
    return server


def main() -> None:
    import uvicorn

    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--extra-tool", default="")
    args = parser.parse_args()
    app: Any = build(args.extra_tool or None).streamable_http_app()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", args.port))
    sock.listen(64)
    print(f"MCP_TEST_LISTENING 127.0.0.1:{sock.getsockname()[1]}", file=sys.stderr, flush=True)
    uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on")).run(sockets=[sock])


if __name__ == "__main__":
    main()
