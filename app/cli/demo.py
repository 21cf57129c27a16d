"""`mcp-desk demo-server`: run the bundled demo MCP server (stdio by default)."""

from __future__ import annotations

import argparse
from typing import Any

from app.demo.launch import add_arguments, run


def _run(args: argparse.Namespace) -> int:
    http: int | None = args.http
    return run(http)


def register(subparsers: Any) -> None:
    """Add the `demo-server` command to the CLI root's subparsers."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "demo-server",
        help="run the bundled demo MCP server on stdio (or --http PORT)",
        description="Run the MCP Desk demo server. It speaks MCP on stdin/stdout unless --http is given.",
    )
    add_arguments(parser)
    parser.set_defaults(func=_run)
