"""A stateful 2025-era Streamable HTTP server on the official SDK (`MCPServer`), for the lost
session tests.

    python -m tests.servers.session_server --port PORT [--extra-tool NAME]

or in the test process, `ThreadedServer(build(None).streamable_http_app())`.

Serves `/mcp` on 127.0.0.1:PORT (0: a free one), announced on stderr as
`MCP_TEST_LISTENING host:port`. Sessions are the SDK's own (an `Mcp-Session-Id` per initialize,
kept in memory): a restart forgets every session (the port is bound with SO_REUSEPORT, so a
test starts the new process before it stops the old one), and an HTTP DELETE with the id ends one, as
an idle timeout or an operator would. `whoami` answers the session id the request came with.
`--extra-tool NAME` adds a tool, so a test sees the catalog of the restarted server.
"""

from __future__ import annotations

import argparse
import socket
import sys
import threading
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


class SessionLoser:
    """ASGI wrapper: while `losing`, every request that names a session is answered 404 with the
    SDK's own "Session not found" error, as by a server that forgets each session at once.
    `initializes` counts the handshakes it let through."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.losing = False
        self.initializes = 0

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            headers = dict(scope["headers"])
            if self.losing and b"mcp-session-id" in headers:
                error = b'{"code":-32600,"message":"Session not found"}'
                body = b'{"jsonrpc":"2.0","id":"server-error","error":' + error + b"}"
                start = {"type": "http.response.start", "status": 404}
                await send({**start, "headers": [(b"content-type", b"application/json")]})
                await send({"type": "http.response.body", "body": body})
                return
            if scope["method"] == "POST" and b"mcp-session-id" not in headers:
                self.initializes += 1
        await self.app(scope, receive, send)


def bound_socket(port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    # A restart starts the new server before the old one stops (same port): the client meets
    # the new one as soon as it reconnects, however slowly the machine starts it.
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind(("127.0.0.1", port))
    sock.listen(64)
    return sock


class ThreadedServer:
    """An ASGI app served by uvicorn in a thread of the test process, on 127.0.0.1:`port`
    (0: a free one): a real HTTP server without the cost of starting Python and the SDK again,
    which on a busy machine takes seconds. Stopping it closes its connections at once."""

    def __init__(self, app: Any, port: int = 0) -> None:
        import uvicorn

        self.sock = bound_socket(port)
        self.port = int(self.sock.getsockname()[1])
        config = uvicorn.Config(app, log_level="warning", lifespan="on", timeout_graceful_shutdown=0)
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def start(self, timeout: float = 30.0) -> ThreadedServer:
        from tests.servers.process import wait_until

        self._thread.start()
        if not wait_until(lambda: self._server.started or not self._thread.is_alive(), timeout):
            raise TimeoutError("the threaded server did not start")
        if not self._server.started:
            raise RuntimeError("the threaded server failed to start")
        return self

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(10.0)
        self.sock.close()


def main() -> None:
    import uvicorn

    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--extra-tool", default="")
    args = parser.parse_args()
    app: Any = build(args.extra_tool or None).streamable_http_app()
    sock = bound_socket(args.port)
    print(f"MCP_TEST_LISTENING 127.0.0.1:{sock.getsockname()[1]}", file=sys.stderr, flush=True)
    uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on")).run(sockets=[sock])


if __name__ == "__main__":
    main()
