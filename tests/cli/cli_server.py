"""An SDK server (low-level `Server`) for the CLI's completion and output-schema tests.

    python -m tests.cli.cli_server            # stdio
    python -m tests.cli.cli_server --http     # Streamable HTTP on 127.0.0.1, a free port, announced
                                              # on stderr as `MCP_TEST_LISTENING host:port`

Both protocol eras are served (the client's first request decides: 2026-07-28 stateless requests,
or a 2025-11-25 session). What it offers:

- prompt `travel(country*, city)` and resource template `weather://{country}/{city}`: completion of
  `country` by prefix, of `city` by prefix among the cities of the `country` given as context
  (without a country: every city); unknown references answer an empty list, as servers do;
- tool `forecast(city, broken=false)` with an outputSchema `{city: string, celsius: number}`;
  `broken: true` answers `celsius: "warm"`, which fails the schema.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

import anyio
import mcp_types as types
from mcp.server.lowlevel.server import Server
from mcp.server.stdio import stdio_server

CITIES = {"France": ["Paris", "Lyon", "Pau"], "Norway": ["Oslo", "Bergen"], "Peru": ["Lima", "Cusco"]}
TEMPLATE = "weather://{country}/{city}"
FORECAST_SCHEMA = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "celsius": {"type": "number"}},
    "required": ["city", "celsius"],
}


def suggestions(argument: str, value: str, context: dict[str, str]) -> list[str]:
    if argument == "country":
        return [c for c in CITIES if c.lower().startswith(value.lower())]
    if argument == "city":
        country = context.get("country")
        pool = CITIES.get(country, []) if country else [c for cs in CITIES.values() for c in cs]
        return [c for c in pool if c.lower().startswith(value.lower())]
    return []


def build_server() -> Server[Any]:
    forecast = types.Tool.model_validate(
        {
            "name": "forecast",
            "description": "Tomorrow's weather in a city.",
            "inputSchema": {
                "type": "object",
                "properties": {"city": {"type": "string"}, "broken": {"type": "boolean"}},
                "required": ["city"],
            },
            "outputSchema": FORECAST_SCHEMA,
        }
    )
    travel = types.Prompt.model_validate(
        {
            "name": "travel",
            "description": "Plan a trip",
            "arguments": [{"name": "country", "required": True}, {"name": "city"}],
        }
    )
    template = types.ResourceTemplate.model_validate({"uriTemplate": TEMPLATE, "name": "weather"})

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[forecast])

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        args = params.arguments or {}
        city = str(args.get("city", ""))
        celsius: Any = "warm" if args.get("broken") else 21.5
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=f"{city}: {celsius}")],
            structured_content={"city": city, "celsius": celsius},
        )

    async def list_prompts(ctx: Any, params: Any) -> types.ListPromptsResult:
        return types.ListPromptsResult(prompts=[travel])

    async def get_prompt(ctx: Any, params: types.GetPromptRequestParams) -> types.GetPromptResult:
        where = (params.arguments or {}).get("city") or (params.arguments or {}).get("country", "")
        text = types.TextContent(type="text", text=f"Plan a trip to {where}")
        return types.GetPromptResult(messages=[types.PromptMessage(role="user", content=text)])

    async def list_resources(ctx: Any, params: Any) -> types.ListResourcesResult:
        return types.ListResourcesResult(resources=[])  # templates only; listing them needs `resources`

    async def list_templates(ctx: Any, params: Any) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult(resource_templates=[template])

    async def complete(ctx: Any, params: types.CompleteRequestParams) -> types.CompleteResult:
        ref = params.ref
        known = (isinstance(ref, types.PromptReference) and ref.name == "travel") or (
            isinstance(ref, types.ResourceTemplateReference) and ref.uri == TEMPLATE
        )
        context = dict(params.context.arguments or {}) if params.context else {}
        found = suggestions(params.argument.name, params.argument.value, context) if known else []
        return types.CompleteResult(completion=types.Completion(values=found, total=len(found)))

    return Server(
        "cli-test-server",
        version="1.0.0",
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_prompts=list_prompts,
        on_get_prompt=get_prompt,
        on_list_resources=list_resources,
        on_list_resource_templates=list_templates,
        on_completion=complete,
    )


async def serve_stdio() -> None:
    server = build_server()
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


async def serve_http() -> None:
    import socket

    import uvicorn

    app: Any = build_server().streamable_http_app()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    print(f"MCP_TEST_LISTENING 127.0.0.1:{sock.getsockname()[1]}", file=sys.stderr, flush=True)
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    await uvicorn.Server(config).serve(sockets=[sock])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--http", action="store_true", help="serve Streamable HTTP instead of stdio")
    args = parser.parse_args()
    anyio.run(serve_http if args.http else serve_stdio)


if __name__ == "__main__":
    main()
