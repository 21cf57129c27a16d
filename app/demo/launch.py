"""Start the demo server on stdio (the default) or on Streamable HTTP bound to 127.0.0.1."""

from __future__ import annotations

import argparse
import contextlib
import logging
import sys

logger = logging.getLogger(__name__)

LOCALHOST = "127.0.0.1"


def run(http_port: int | None = None) -> int:
    """Serve until the client goes away (stdio) or the process is interrupted (HTTP)."""
    # Imported here: the SDK's server stack costs about a second, and only this path needs it.
    from app.demo.server import build_server

    server = build_server()
    if http_port is None:
        server.run("stdio")
    else:
        # Bound to loopback only: the demo must never be reachable from the network.
        print(f"MCP Desk demo server on http://{LOCALHOST}:{http_port}/mcp", file=sys.stderr, flush=True)
        with contextlib.suppress(KeyboardInterrupt):  # Ctrl+C is the normal way to stop it
            server.run("streamable-http", host=LOCALHOST, port=http_port)
    return 0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--http",
        metavar="PORT",
        type=int,
        default=None,
        help="serve Streamable HTTP on 127.0.0.1:PORT (path /mcp) instead of stdio",
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.demo", description="The MCP Desk demo server.")
    add_arguments(parser)
    args = parser.parse_args(argv)
    return run(args.http)
