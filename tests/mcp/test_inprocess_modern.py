"""The stateless 2026-07-28 era against an in-process SDK server: discover, calls, and change
events through `subscriptions/listen` (published on the server's subscription bus)."""

from __future__ import annotations

import json

import pytest
from mcp.shared.subscriptions import PromptsListChanged, ResourceUpdated, ToolsListChanged

from app.mcp.connection import ServerConnection
from app.mcp.events import CatalogChanged, ConnectionState, Progress
from app.mcp.events import ResourceUpdated as ResourceUpdatedEvent
from app.mcp.handlers import ElicitationRequest, ElicitationResponse, SamplingRequest, SamplingResponse
from app.mcp.target import Target
from tests.mcp.sdk_server import build_server
from tests.servers.harness import EventLog

pytestmark = pytest.mark.anyio

# The target's transport is not used for an in-process server; it only names the connection.
TARGET = Target(name="inproc", transport="stdio", command="unused", mode="auto")


async def _connect(events: EventLog, **kw: object) -> tuple[ServerConnection, object]:
    server, bus = build_server(**kw)  # type: ignore[arg-type]
    conn = ServerConnection(TARGET, sink=events, server=server)
    conn.start()
    assert await conn.wait_settled(10) == ConnectionState.READY, conn.reason
    return conn, bus


async def test_modern_era_in_process() -> None:
    events = EventLog()
    conn, _ = await _connect(events, extra_tools=120, page_size=10)
    try:
        assert conn.protocol_version == "2026-07-28"
        assert conn.server_info is not None and conn.server_info.name == "engine-test-server"
        assert len(conn.catalog.tools) == 138
        assert conn.capabilities["tools"].get("listChanged") is True
        result = await conn.call_tool("slow", {"steps": 2, "delay": 0.001}, call_id="p")
        assert result.text() == "done"
        assert [p.progress for p in events.of(Progress)] == [1.0, 2.0]
        assert (await conn.call_tool("add", {"a": 1, "b": 2})).structured_valid is True
    finally:
        await conn.stop()
    assert conn.state == ConnectionState.CLOSED


async def test_listen_events_refresh_debounced() -> None:
    events = EventLog()
    conn, bus = await _connect(events)
    try:
        events.events.clear()
        before = conn.refresh_counts["tools"]
        await conn.call_tool("mutate", {"action": "add", "name": "late"})
        for _ in range(100):
            await bus.publish(ToolsListChanged())  # type: ignore[attr-defined]
        await bus.publish(PromptsListChanged())  # type: ignore[attr-defined]
        changed = await events.wait_until(lambda: [e for e in events.of(CatalogChanged) if e.kind == "tools"])
        assert changed[0].diff.added == ("late",)
        await events.wait_until(lambda: conn.refresh_counts["prompts"] >= 2)
        assert 1 <= conn.refresh_counts["tools"] - before <= 2
    finally:
        await conn.stop()


async def test_resource_updates_through_listen() -> None:
    events = EventLog()
    conn, bus = await _connect(events)
    try:
        await conn.subscribe_resource("mem://a")  # returns once the server acknowledged it
        await bus.publish(ResourceUpdated(uri="mem://a"))  # type: ignore[attr-defined]
        await events.wait_until(lambda: events.of(ResourceUpdatedEvent))
        assert events.of(ResourceUpdatedEvent)[0].uri == "mem://a"
    finally:
        await conn.stop()


class Answering:
    def __init__(self) -> None:
        self.seen: list[ElicitationRequest] = []

    async def elicit(self, server: str, request: ElicitationRequest) -> ElicitationResponse:
        self.seen.append(request)
        return ElicitationResponse("accept", dict(request.defaults))

    async def sample(self, server: str, request: SamplingRequest) -> SamplingResponse:
        return SamplingResponse("decline")


async def test_input_required_elicitation_goes_to_the_handlers() -> None:
    handlers = Answering()
    server, _ = build_server()
    conn = ServerConnection(TARGET, server=server, handlers=handlers)
    conn.start()
    try:
        assert await conn.wait_settled(10) == ConnectionState.READY
        result = await conn.call_tool("ask")
        assert json.loads(result.text()) == {"action": "accept", "content": {"city": "Oslo"}}
        assert handlers.seen[0].message == "Which city?" and handlers.seen[0].defaults == {"city": "Oslo"}
    finally:
        await conn.stop()
