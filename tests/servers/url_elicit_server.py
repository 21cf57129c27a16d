"""An SDK server (2025-11-25, stateful) whose tool needs a step on a web page first (-32042).

    python -m tests.servers.url_elicit_server [--http] [--no-notify] [--never-unlock]

`open_vault` answers `-32042 URL elicitation required` (`data.elicitations`: one page,
elicitationId "vault-1") until the page `/visit/vault-1` has been fetched; the visit unlocks the
vault and sends `notifications/elicitation/complete` for it (on the connection's own channel: the
standalone GET stream over HTTP). Then `open_vault` answers "vault open".

- `--no-notify`: the visit unlocks the vault but no notification is sent (the spec allows it to
  go missing);
- `--never-unlock`: the visit notifies but the vault stays locked (the server asks again for the
  same page).
- `calls` (a tool) answers how many times open_vault was called.

The page is served by uvicorn in the same process on 127.0.0.1 (a free port); over `--http` the
MCP endpoint `/mcp` shares it and the port is announced as `MCP_TEST_LISTENING host:port`.
"""

from __future__ import annotations

import argparse
from typing import Any

import anyio
import mcp_types as types
from mcp.server.lowlevel.server import Server
from mcp.shared.exceptions import UrlElicitationRequiredError

from tests.servers.serve import announce, listening_socket

ELICITATION_ID = "vault-1"


def build(base: str, *, notify: bool, unlock: bool) -> tuple[Server[Any], Any]:
    state: dict[str, Any] = {"unlocked": False, "calls": 0, "sessions": []}

    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        schema = {"type": "object", "properties": {}}
        return types.ListToolsResult(
            tools=[
                types.Tool(name="open_vault", description="Needs a web page first", input_schema=schema),
                types.Tool(name="calls", description="Counts open_vault calls", input_schema=schema),
            ]
        )

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        if params.name == "calls":
            return types.CallToolResult(content=[types.TextContent(type="text", text=str(state["calls"]))])
        state["calls"] += 1
        if state["unlocked"]:
            return types.CallToolResult(content=[types.TextContent(type="text", text="vault open")])
        state["sessions"].append(ctx.session)
        raise UrlElicitationRequiredError(
            [
                types.ElicitRequestURLParams(
                    message="Sign in to the vault on its web page",
                    url=f"{base}/visit/{ELICITATION_ID}",
                    elicitation_id=ELICITATION_ID,
                )
            ]
        )

    async def visit(scope: Any, receive: Any, send: Any) -> None:
        eid = scope["path"].rsplit("/", 1)[-1]
        if unlock:
            state["unlocked"] = True
        if notify and state["sessions"]:
            await state["sessions"][-1].send_elicit_complete(eid)
        body = b"done, you can close this page"
        headers = [(b"content-type", b"text/plain")]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    server: Server[Any] = Server("url-elicit-test", on_list_tools=list_tools, on_call_tool=call_tool)
    return server, visit


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--http", action="store_true")
    parser.add_argument("--no-notify", action="store_true")
    parser.add_argument("--never-unlock", action="store_true")
    args = parser.parse_args()
    sock = listening_socket()
    host, port = sock.getsockname()[:2]
    server, visit = build(f"http://{host}:{port}", notify=not args.no_notify, unlock=not args.never_unlock)
    mcp_app: Any = server.streamable_http_app() if args.http else None

    async def app(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"].startswith("/visit/"):
            await visit(scope, receive, send)
        elif mcp_app is not None:
            await mcp_app(scope, receive, send)
        elif scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})

    import uvicorn

    web = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    if args.http:
        announce(sock)
        web.run(sockets=[sock])
        return

    from mcp.server.stdio import stdio_server

    async def run() -> None:
        async with anyio.create_task_group() as tg:
            tg.start_soon(lambda: web.serve(sockets=[sock]))
            async with stdio_server() as (read, write):
                await server.run(read, write, server.create_initialization_options())
            tg.cancel_scope.cancel()

    anyio.run(run)


if __name__ == "__main__":
    main()
