"""An SDK stdio server whose catalog and answers are as large as a hostile server can make them.

    python -m tests.servers.faults.hostile_server --result-bytes 5000000
    python -m tests.servers.faults.hostile_server --description-bytes 5000000 --name-bytes 100000
    python -m tests.servers.faults.hostile_server --tools 50000 [--page-size 1000]

It always offers `echo` (answers its `message`). Besides it, each option adds something:
  --result-bytes N        tool `big` answers with one text block of N times `--char`, no line break
  --description-bytes N   tool `described` has a description of N times `--char`
  --name-bytes N          one more tool whose name is N times `--char` (and as long a title)
  --tools K               K more tools `tool_00000` … (listed in pages of `--page-size`)

Everything is built once at start, so the server answers as fast as the pipe takes it: what the
benchmark and the tests measure is the client, not this process.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[3]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))  # run as a script path: `tests` must still import

EMPTY_SCHEMA: dict[str, Any] = {"type": "object", "properties": {}}


def catalog(args: argparse.Namespace) -> list[dict[str, Any]]:
    """The tools the options ask for, as plain dicts (the SDK sends them as they are)."""
    tools: list[dict[str, Any]] = [
        {
            "name": "echo",
            "description": "Echo the message back",
            "inputSchema": {
                "type": "object",
                "properties": {"message": {"type": "string"}},
                "required": ["message"],
            },
        }
    ]
    if args.result_bytes is not None:
        tools.append(
            {
                "name": "big",
                "description": f"Answers with {args.result_bytes:,} bytes of text on one line",
                "inputSchema": EMPTY_SCHEMA,
            }
        )
    if args.description_bytes is not None:
        tools.append(
            {
                "name": "described",
                "description": args.char * args.description_bytes,
                "inputSchema": EMPTY_SCHEMA,
            }
        )
    if args.name_bytes is not None:
        long = args.char * args.name_bytes
        tools.append(
            {
                "name": long,
                "title": long,
                "description": "A tool with a long name",
                "inputSchema": EMPTY_SCHEMA,
            }
        )
    for i in range(args.tools or 0):
        tools.append(
            {
                "name": f"tool_{i:05d}",
                "description": f"Generated tool number {i}",
                "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}},
            }
        )
    return tools


def build_server(args: argparse.Namespace) -> Any:
    import mcp_types as types
    from mcp.server import Server

    from tests.servers.replay_server import for_era, page

    tools = catalog(args)
    big_text = args.char * args.result_bytes if args.result_bytes is not None else ""

    async def list_tools(ctx: Any, params: Any) -> dict[str, Any]:
        cursor = getattr(params, "cursor", None) if params is not None else None
        return for_era(ctx, page(tools, "tools", cursor, args.page_size), cacheable=True)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> dict[str, Any]:
        if params.name == "big":
            text = big_text
        elif params.name == "echo":
            text = str((params.arguments or {}).get("message", ""))
        else:
            text = f"called {params.name[:40]}"
        return for_era(ctx, {"content": [{"type": "text", "text": text}], "isError": False})

    return Server("hostile", version="1", on_list_tools=list_tools, on_call_tool=call_tool)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--result-bytes", type=int, metavar="N")
    p.add_argument("--description-bytes", type=int, metavar="N")
    p.add_argument("--name-bytes", type=int, metavar="N")
    p.add_argument("--tools", type=int, metavar="K")
    p.add_argument("--char", default="x", help="the repeated character (default x)")
    p.add_argument("--page-size", type=int, default=1000)
    return p


def main(argv: Sequence[str] | None = None) -> None:
    from tests.servers import serve

    p = parser()
    serve.add_transport_arguments(p)
    args = p.parse_args(argv)
    serve.run(build_server(args), args)


if __name__ == "__main__":
    sys.exit(main())
