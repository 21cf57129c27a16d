"""Legacy HTTP+SSE (`type: sse`) against real SDK SSE servers (tests/servers/sse_server.py).

`sse` means the legacy handshake: 2026-07-28 defines no SSE transport, so a dual-era server is
not talked into it, and no `server/discover` probe is sent. A message the server refuses at the
HTTP level fails that one request at once; before, the SDK's writer ended on it, and the request
(and everything after it) waited until the timeout, which was then given as the reason.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client

from app.mcp.connection import ServerConnection
from app.mcp.events import ConnectionState
from app.mcp.legacy_sse import connect_mode, legacy_sse_client
from app.mcp.results import CallFailed
from app.mcp.target import Target, target_from_command_line
from tests.servers.harness import EventLog
from tests.servers.session_server import ThreadedServer
from tests.servers.sse_server import app as sse_app

pytestmark = pytest.mark.anyio

TIMEOUT = 60.0
"""The targets' timeout: every wait below is shorter, so a hang until the timeout fails the test."""
SETTLE = 20.0


@contextmanager
def sse_server(refuse_discover: int = 0, refuse_tools: dict[str, int] | None = None) -> Iterator[str]:
    server = ThreadedServer(sse_app(refuse_discover, refuse_tools)).start()
    try:
        yield f"http://127.0.0.1:{server.port}/sse"
    finally:
        server.stop()


@asynccontextmanager
async def connecting(url: str, events: EventLog | None = None, **kw: Any) -> AsyncIterator[ServerConnection]:
    conn = ServerConnection(Target(name="old", transport="sse", url=url, timeout=TIMEOUT, **kw), sink=events)
    conn.start()
    try:
        yield conn
    finally:
        await conn.stop()


def test_sse_auto_is_the_legacy_handshake() -> None:
    assert connect_mode("sse", "auto") == "legacy"
    assert connect_mode("http", "auto") == "auto"
    assert connect_mode("sse", "2026-07-28") == "2026-07-28"  # a pin the person chose stays
    assert Target(name="s", transport="sse", url="http://127.0.0.1:1/sse").connect_mode == "legacy"
    assert target_from_command_line(None, "http://127.0.0.1:1/sse").connect_mode == "legacy"


async def test_a_dual_era_server_speaks_2025_over_sse() -> None:
    """Before: the probe succeeded and the connection spoke 2026-07-28 over the deprecated SSE."""
    with sse_server() as url:
        async with connecting(url) as conn:
            assert await conn.wait_settled(SETTLE) == ConnectionState.READY, conn.reason
            assert conn.protocol_version == "2025-11-25"
            assert (await conn.call_tool("echo", {"text": "old"})).text() == "echo: old"


async def test_a_server_refusing_the_probe_connects_at_once() -> None:
    """Before: the 400 to server/discover ended the SDK's writer; the connect waited for the
    60 s timeout and failed with "did not finish connecting"."""
    with sse_server(refuse_discover=400) as url:
        async with connecting(url) as conn:
            assert await conn.wait_settled(SETTLE) == ConnectionState.READY, conn.reason
            assert conn.protocol_version == "2025-11-25"


async def test_auto_negotiation_over_the_transport_falls_back_at_once() -> None:
    """The SDK's own auto mode over this transport: a 4xx to the probe is an error for the
    probe, so it falls back to initialize at once (the SDK's sse_client hangs here)."""
    with sse_server(refuse_discover=400) as url:
        transport = legacy_sse_client(url, headers={}, make_client=lambda auth: httpx2.AsyncClient(auth=auth))
        with anyio.fail_after(SETTLE):
            async with Client(transport, mode="auto") as client:
                assert client.protocol_version == "2025-11-25"
                result = await client.call_tool("echo", {"text": "x"})
                assert not result.is_error


async def test_a_refused_call_fails_at_once_and_the_connection_goes_on() -> None:
    events = EventLog()
    with sse_server(refuse_tools={"big": 413}) as url:
        async with connecting(url, events) as conn:
            assert await conn.wait_settled(SETTLE) == ConnectionState.READY, conn.reason
            with anyio.fail_after(SETTLE):
                with pytest.raises(CallFailed) as failed:
                    await conn.call_tool("big", {"text": "x" * 1000})
            assert "HTTP 413" in str(failed.value), failed.value
            # Before, the writer was gone: every later message waited for the timeout too.
            with anyio.fail_after(SETTLE):
                assert (await conn.call_tool("echo", {"text": "after"})).text() == "echo: after"
            assert conn.state == ConnectionState.READY
