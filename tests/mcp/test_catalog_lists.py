"""The first listing of a connection: every kind asked at once (a connect waits for the slowest
list, not their sum), and only the kinds a connection was made to list (the CLI's commands)."""

from __future__ import annotations

from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp.server.lowlevel.server import Server

from app.mcp.connection import ServerConnection
from app.mcp.events import CatalogChanged, ConnectionState
from app.mcp.target import Target
from tests.mcp.sdk_server import build_server
from tests.servers.harness import EventLog

pytestmark = pytest.mark.anyio


def _target(mode: str) -> Target:
    return Target(name="lists", transport="stdio", command="unused", mode=mode)


def _all_at_once_server() -> tuple[Server[Any], list[str]]:
    """A server that answers its lists only while all three are asked at the same time: each waits
    (at most 5 s) until the other two have arrived. Asked one after the other, none answers."""
    arrived: list[str] = []
    everyone = anyio.Event()

    async def wait_for_the_others(kind: str) -> None:
        arrived.append(kind)
        if len(arrived) == 3:
            everyone.set()
        with anyio.fail_after(5):
            await everyone.wait()

    tool = types.Tool.model_validate({"name": "echo", "inputSchema": {"type": "object"}})
    resource = types.Resource.model_validate({"uri": "mem://a", "name": "a"})
    prompt = types.Prompt.model_validate({"name": "greet"})

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        await wait_for_the_others("tools")
        return types.ListToolsResult(tools=[tool])

    async def list_resources(ctx: Any, params: Any) -> types.ListResourcesResult:
        await wait_for_the_others("resources")
        return types.ListResourcesResult(resources=[resource])

    async def list_prompts(ctx: Any, params: Any) -> types.ListPromptsResult:
        await wait_for_the_others("prompts")
        return types.ListPromptsResult(prompts=[prompt])

    async def list_templates(ctx: Any, params: Any) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult(resource_templates=[])

    server: Server[Any] = Server(
        "all-at-once",
        on_list_tools=list_tools,
        on_list_resources=list_resources,
        on_list_resource_templates=list_templates,
        on_list_prompts=list_prompts,
    )
    return server, arrived


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_the_kinds_are_listed_at_the_same_time(mode: str) -> None:
    server, arrived = _all_at_once_server()
    events = EventLog()
    conn = ServerConnection(_target(mode), sink=events, server=server)
    conn.start()
    try:
        assert await conn.wait_settled(20) == ConnectionState.READY, conn.reason
        assert sorted(arrived) == ["prompts", "resources", "tools"]
        assert (list(conn.catalog.tools), list(conn.catalog.resources), list(conn.catalog.prompts)) == (
            ["echo"],
            ["mem://a"],
            ["greet"],
        )
        assert not [line for line in conn.log if "failed" in line.text], list(conn.log)
        assert sorted(e.kind for e in events.of(CatalogChanged)) == ["prompts", "resources", "tools"]
    finally:
        await conn.stop()


async def test_a_connection_lists_only_the_kinds_it_was_made_for() -> None:
    server, _ = build_server()
    conn = ServerConnection(_target("auto"), server=server, lists=("tools",))
    conn.start()
    try:
        assert await conn.wait_settled(20) == ConnectionState.READY, conn.reason
        assert "echo" in conn.catalog.tools
        assert conn.refresh_counts == {"tools": 1, "resources": 0, "resource_templates": 0, "prompts": 0}
        assert not conn.catalog.resources and not conn.catalog.prompts
        await conn.refresh()  # a refresh of "everything" is of the kinds it lists
        assert conn.refresh_counts == {"tools": 2, "resources": 0, "resource_templates": 0, "prompts": 0}
        assert (await conn.call_tool("echo", {"text": "hi"})).text() == "echo: hi"
    finally:
        await conn.stop()


async def test_a_connection_made_to_list_nothing_still_answers() -> None:
    server, _ = build_server()
    conn = ServerConnection(_target("auto"), server=server, lists=())
    conn.start()
    try:
        assert await conn.wait_settled(20) == ConnectionState.READY, conn.reason
        assert set(conn.refresh_counts.values()) == {0}
        assert (await conn.read_resource("mem://a"))["contents"][0]["text"] == "content of mem://a"
        assert await conn.ping() >= 0
    finally:
        await conn.stop()


async def test_by_default_every_kind_the_server_offers_is_listed() -> None:
    server, _ = build_server()
    conn = ServerConnection(_target("auto"), server=server)
    conn.start()
    try:
        assert await conn.wait_settled(20) == ConnectionState.READY, conn.reason
        assert conn.refresh_counts == {"tools": 1, "resources": 1, "resource_templates": 1, "prompts": 1}
    finally:
        await conn.stop()
