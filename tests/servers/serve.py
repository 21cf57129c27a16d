"""Run an SDK low-level `Server` over stdio or Streamable HTTP, for the test servers in this package.

Over HTTP the socket is bound to 127.0.0.1 on a free port before uvicorn starts, and the address is
printed on stderr as `MCP_TEST_LISTENING host:port` (the same line the Node preload prints), so the
test that started the process learns the port without a race.
"""

from __future__ import annotations

import argparse
import socket
import sys
from typing import Any

import anyio


def add_transport_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--http", action="store_true", help="serve Streamable HTTP at /mcp instead of stdio")


def listening_socket() -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    return sock


def announce(sock: socket.socket) -> None:
    host, port = sock.getsockname()[:2]
    print(f"MCP_TEST_LISTENING {host}:{port}", file=sys.stderr, flush=True)


def serve_asgi(app: Any) -> None:
    """Serve an ASGI app on a fresh 127.0.0.1 port until killed."""
    import uvicorn

    sock = listening_socket()
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    announce(sock)
    uvicorn.Server(config).run(sockets=[sock])


def run(server: Any, args: argparse.Namespace, **http_options: Any) -> None:
    """Serve `server` (an `mcp.server.Server`) over the transport chosen on the command line."""
    if args.http:
        serve_asgi(server.streamable_http_app(**http_options))
        return

    from mcp.server.stdio import stdio_server

    async def main() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(main)
