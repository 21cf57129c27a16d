"""A server that replays one file of `shared/schemas/*.json`: its tools, prompts, resources and
resource templates, byte for byte as the real server sent them, in pages of `--page-size`.

    python -m tests.servers.replay_server ../shared/schemas/notion-mcp-server.json [--page-size 7] [--http]
    python -m tests.servers.replay_server --synthetic-tools 10000 --page-size 100   # for the benchmark
    python -m tests.servers.replay_server --all --http    # every file at once, each at /<file stem>/mcp
    python -m tests.servers.replay_server FILE --modern-only   # refuses initialize: 2026-07-28 only

Calls are answered without doing anything: `tools/call` echoes the tool name and arguments as text,
`resources/read` returns a short text, `prompts/get` one user message. The list results are the
file's own dicts (handlers may return plain dicts), so the SDK does not re-shape them on the way out.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))  # run as a script path: `tests` must still import

from tests.support.corpus import SCHEMAS_DIR  # noqa: E402


def schema_files() -> list[Path]:
    """Every harvested schema file (none when the shared dir is absent)."""
    if not SCHEMAS_DIR.is_dir():
        return []
    return sorted(p for p in SCHEMAS_DIR.glob("*.json"))


def load_catalog(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def synthetic_catalog(n_tools: int) -> dict[str, Any]:
    tools = [
        {
            "name": f"tool_{i:05d}",
            "description": f"Synthetic tool number {i}",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "text": {"type": "string", "description": "any text"},
                    "n": {"type": "integer"},
                },
                "required": ["text"],
            },
        }
        for i in range(n_tools)
    ]
    return {"initialize": {"serverInfo": {"name": "synthetic", "version": "1"}}, "tools": tools}


def page(items: Sequence[dict[str, Any]], key: str, cursor: str | None, size: int) -> dict[str, Any]:
    """One page of `items` as a list result; the cursor is the offset of the next page."""
    start = int(cursor) if cursor else 0
    result: dict[str, Any] = {key: list(items[start : start + size])}
    if start + size < len(items):
        result["nextCursor"] = str(start + size)
    return result


def for_era(ctx: Any, result: dict[str, Any], *, cacheable: bool = False) -> dict[str, Any]:
    """Add the fields a 2026-07-28 result must carry; a handshake-era result goes out as it is."""
    from mcp_types.version import MODERN_PROTOCOL_VERSIONS

    if ctx.protocol_version not in MODERN_PROTOCOL_VERSIONS:
        return result
    result = {**result, "resultType": "complete"}
    if cacheable:
        result.update(ttlMs=0, cacheScope="private")
    return result


def refuse_handshake() -> Any:
    """Middleware for `--modern-only`: answer `initialize` with -32022, as a server that speaks only
    the stateless 2026-07-28 protocol does."""
    import mcp_types as types
    from mcp.shared.exceptions import MCPError
    from mcp_types.version import MODERN_PROTOCOL_VERSIONS

    async def middleware(ctx: Any, call_next: Any) -> Any:
        if ctx.method == "initialize":
            requested = str((ctx.params or {}).get("protocolVersion", ""))
            data = {"supported": list(MODERN_PROTOCOL_VERSIONS), "requested": requested}
            raise MCPError(types.UNSUPPORTED_PROTOCOL_VERSION, "this server speaks only 2026-07-28", data)
        return await call_next(ctx)

    return middleware


def build_server(catalog: dict[str, Any], page_size: int, *, modern_only: bool = False) -> Any:
    import mcp_types as types
    from mcp.server import Server

    info = (catalog.get("initialize") or {}).get("serverInfo") or {}
    tools = catalog.get("tools") or []
    prompts = catalog.get("prompts") or []
    resources = catalog.get("resources") or []
    templates = catalog.get("resourceTemplates") or []

    def cursor_of(params: Any) -> str | None:
        return getattr(params, "cursor", None) if params is not None else None

    async def list_tools(ctx: Any, params: Any) -> dict[str, Any]:
        return for_era(ctx, page(tools, "tools", cursor_of(params), page_size), cacheable=True)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> dict[str, Any]:
        text = json.dumps({"tool": params.name, "arguments": params.arguments or {}}, sort_keys=True)
        return for_era(ctx, {"content": [{"type": "text", "text": text}], "isError": False})

    async def list_prompts(ctx: Any, params: Any) -> dict[str, Any]:
        return for_era(ctx, page(prompts, "prompts", cursor_of(params), page_size), cacheable=True)

    async def get_prompt(ctx: Any, params: types.GetPromptRequestParams) -> dict[str, Any]:
        text = json.dumps({"prompt": params.name, "arguments": params.arguments or {}}, sort_keys=True)
        return for_era(ctx, {"messages": [{"role": "user", "content": {"type": "text", "text": text}}]})

    async def list_resources(ctx: Any, params: Any) -> dict[str, Any]:
        return for_era(ctx, page(resources, "resources", cursor_of(params), page_size), cacheable=True)

    async def list_templates(ctx: Any, params: Any) -> dict[str, Any]:
        return for_era(
            ctx, page(templates, "resourceTemplates", cursor_of(params), page_size), cacheable=True
        )

    async def read_resource(ctx: Any, params: types.ReadResourceRequestParams) -> dict[str, Any]:
        uri = str(params.uri)
        contents = [{"uri": uri, "mimeType": "text/plain", "text": f"replayed {uri}"}]
        return for_era(ctx, {"contents": contents}, cacheable=True)

    server = Server(
        info.get("name") or "replay",
        version=info.get("version") or "0",
        title=info.get("title"),
        instructions=(catalog.get("initialize") or {}).get("instructions"),
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_prompts=list_prompts,
        on_get_prompt=get_prompt,
        on_list_resources=list_resources,
        on_list_resource_templates=list_templates,
        on_read_resource=read_resource,
    )
    if modern_only:
        server.middleware.append(refuse_handshake())
    return server


def multi_app(catalogs: dict[str, dict[str, Any]], page_size: int) -> Any:
    """One Starlette app serving each catalog at `/<name>/mcp` (one process for the whole catalog test)."""
    from contextlib import AsyncExitStack, asynccontextmanager

    from starlette.applications import Starlette
    from starlette.routing import Mount

    servers = {name: build_server(catalog, page_size) for name, catalog in catalogs.items()}
    routes = [Mount(f"/{name}", app=server.streamable_http_app()) for name, server in servers.items()]

    @asynccontextmanager
    async def lifespan(app: Any) -> Any:
        # Mounted apps do not get their own lifespan: run every session manager here.
        async with AsyncExitStack() as stack:
            for server in servers.values():
                await stack.enter_async_context(server.session_manager.run())
            yield

    return Starlette(routes=routes, lifespan=lifespan)


def main(argv: Sequence[str] | None = None) -> None:
    from tests.servers import serve

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", type=Path, help="a shared/schemas/*.json file")
    parser.add_argument("--synthetic-tools", type=int, metavar="N", help="serve N generated tools instead")
    parser.add_argument("--all", action="store_true", help="serve every schema file (needs --http)")
    parser.add_argument("--page-size", type=int, default=10)
    parser.add_argument("--modern-only", action="store_true", help="refuse initialize (2026-07-28 only)")
    serve.add_transport_arguments(parser)
    args = parser.parse_args(argv)
    if args.all:
        if not args.http:
            parser.error("--all needs --http")
        catalogs = {path.stem: load_catalog(path) for path in schema_files()}
        serve.serve_asgi(multi_app(catalogs, args.page_size))
        return
    if args.synthetic_tools is not None:
        catalog = synthetic_catalog(args.synthetic_tools)
    elif args.file is not None:
        catalog = load_catalog(args.file)
    else:
        parser.error("give a schema file or --synthetic-tools N")
    serve.run(build_server(catalog, args.page_size, modern_only=args.modern_only), args)


if __name__ == "__main__":
    sys.exit(main())
