"""2026-07-28: a connection is READY only once its change subscription is open.

The server keeps no backlog of list changes: one made before `subscriptions/listen` was
acknowledged is lost. READY used to come first and the listener second, so a tool run as soon as
the row said "connected" could change the list unheard (the UI test that does so,
`test_draft_survives_a_tool_list_refresh_and_a_reconnect`, waited 20 s for a notice on a busy CI
machine). Against the demo server, which speaks 2026-07-28 when asked.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from app.mcp.connection import ServerConnection
from app.mcp.events import CatalogChanged, ConnectionState, StateChanged
from tests.mcp.conftest import demo_target
from tests.servers.harness import EventLog

pytestmark = pytest.mark.anyio


@pytest.mark.slow
async def test_ready_means_changes_are_heard(monkeypatch: Any) -> None:
    # A busy machine: the listen stream takes a while to open (what CI did now and then).
    listen = ServerConnection._listen_loop

    async def slow_listen(self: ServerConnection) -> None:
        await asyncio.sleep(1.0)
        await listen(self)

    monkeypatch.setattr(ServerConnection, "_listen_loop", slow_listen)
    events = EventLog()
    listening_at_ready: list[bool] = []

    def sink(event: Any) -> None:
        if isinstance(event, StateChanged) and event.state is ConnectionState.READY:
            listening_at_ready.append(conn.listening)
        events(event)

    conn = ServerConnection(demo_target(mode="auto"), sink=sink)
    try:
        for attempt in range(2):  # the first start, and a reconnect of the same connection
            conn.start()
            assert await conn.wait_settled(30) is ConnectionState.READY, conn.reason
            assert conn.protocol_version == "2026-07-28"
            assert listening_at_ready == [True] * (attempt + 1)
            since = len(events.events)
            await conn.call_tool("toggle_bonus_tool", {})  # at once, as a person may
            change = await events.wait_for(
                lambda e: isinstance(e, CatalogChanged) and e.kind == "tools", timeout=10, since=since
            )
            assert change.diff.added or change.diff.removed
            await conn.stop()
    finally:
        await conn.stop()


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_a_replaced_connection_keeps_the_subscriptions(mode: str) -> None:
    """Edit a server (its target changes): the manager's new connection follows what the old one
    followed, without anyone subscribing again (the engine is their one owner)."""
    from dataclasses import replace

    from app.mcp.events import ResourceUpdated
    from app.mcp.manager import ConnectionManager

    uri = "demo://notes/groceries"
    events = EventLog()
    manager = ConnectionManager(sink=events)
    target = demo_target(mode=mode)
    old = manager.set_target(target)
    manager.connect("demo")
    try:
        assert await old.wait_settled(30) is ConnectionState.READY, old.reason
        assert not (await old.call_tool("add_note", {"name": "groceries", "text": "milk"})).is_error
        await old.subscribe_resource(uri)
        new = manager.set_target(replace(target, env={"MCP_DESK_TEST_EDIT": "1"}))
        assert new is not old and new.is_subscribed(uri)
        await events.wait_until(lambda: new.state is ConnectionState.READY, timeout=30)
        since = len(events.events)
        assert not (await new.call_tool("add_note", {"name": "groceries", "text": "pears"})).is_error
        await events.wait_for(
            lambda e: isinstance(e, ResourceUpdated) and e.uri == uri, timeout=10, since=since
        )
    finally:
        await manager.shutdown()
