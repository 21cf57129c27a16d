"""An SDK server of both eras that logs at every level and honours the level it is asked for.

    python -m tests.servers.log_level_server [--http] [--stateless]

`chatter` sends one `notifications/message` per level ("debug line", "info line", ...) about its
request. The level decides which arrive:
- 2025 era: `logging/setLevel` (this server keeps it per connection; before any, every level);
- 2026-07-28: the SDK server drops what the request's `_meta` level opt-in does not cover.
`level` (a tool) answers the level last set with logging/setLevel ("none" before any).
"""

from __future__ import annotations

import argparse
import warnings
from typing import Any

import mcp_types as types
from mcp.server.lowlevel.server import Server
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from tests.servers import serve

LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]


def build() -> Server[Any]:
    state: dict[str, str] = {}

    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        schema = {"type": "object", "properties": {}}
        return types.ListToolsResult(
            tools=[
                types.Tool(name="chatter", description="Logs at every level", input_schema=schema),
                types.Tool(name="level", description="The level last set", input_schema=schema),
            ]
        )

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        if params.name == "level":
            return types.CallToolResult(
                content=[types.TextContent(type="text", text=state.get("level", "none"))]
            )
        modern = ctx.protocol_version in MODERN_PROTOCOL_VERSIONS
        floor = LEVELS.index(state.get("level", "debug"))
        for i, level in enumerate(LEVELS):
            if modern or i >= floor:  # 2026-07-28: the SDK filters by the request's opt-in
                await ctx.session.send_log_message(level, f"{level} line", logger="chatter")
        return types.CallToolResult(content=[types.TextContent(type="text", text="chattered")])

    async def set_level(ctx: Any, params: types.SetLevelRequestParams) -> types.EmptyResult:
        state["level"] = params.level
        return types.EmptyResult()

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # logging/setLevel is deprecated at 2026-07-28: served anyway
        return Server(
            "log-level-test", on_list_tools=list_tools, on_call_tool=call_tool, on_set_logging_level=set_level
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    serve.add_transport_arguments(parser)
    parser.add_argument("--stateless", action="store_true", help="HTTP: stateless (2026-07-28 style)")
    args = parser.parse_args()
    if args.http:
        serve.run(build(), args, stateless_http=args.stateless)
    else:
        serve.run(build(), args)


if __name__ == "__main__":
    main()
