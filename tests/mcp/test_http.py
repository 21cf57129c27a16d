"""Streamable HTTP to an SDK server in both eras (the 2026-07-28 one end to end over the wire),
headers with secrets, an HTTP 401 a person can understand, and one shared connection pool."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from app.mcp.events import CatalogChanged, ConnectionState, Traffic
from app.mcp.manager import ConnectionManager
from app.mcp.results import CallFailed
from app.mcp.target import Target
from tests.mcp.conftest import EXPECTED_VERSION, MODES, SDK_SERVER
from tests.servers.harness import EventLog
from tests.servers.process import ServerProcess

pytestmark = pytest.mark.anyio

TOKEN = "tok-abcdef-123456"


@contextmanager
def http_server(*extra: str) -> Iterator[str]:
    with ServerProcess([sys.executable, str(SDK_SERVER), "--http", *extra]) as proc:
        host, port = proc.wait_listening(30)
        yield f"http://{host}:{port}/mcp"


@pytest.mark.parametrize("mode", MODES)
async def test_both_eras_over_streamable_http(mode: str) -> None:
    events = EventLog()
    manager = ConnectionManager(sink=events)
    with http_server("--extra-tools", "30", "--page-size", "8", "--require-token", TOKEN) as url:
        target = Target(
            name="web",
            transport="http",
            url=url,
            headers={"Authorization": f"Bearer {TOKEN}"},
            secret_values=frozenset({TOKEN}),
            mode=mode,
        )
        conn = manager.set_target(target)
        manager.connect("web")
        try:
            assert await conn.wait_settled(30) == ConnectionState.READY, conn.reason
            assert conn.protocol_version == EXPECTED_VERSION[mode]
            assert len(conn.catalog.tools) == 48
            assert (await conn.call_tool("echo", {"text": "over http"})).text() == "echo: over http"
            events.events.clear()
            await conn.call_tool("mutate", {"action": "add", "name": "web_fresh"})
            await conn.call_tool("burst", {"count": 50})
            changed = await events.wait_until(
                lambda: [e for e in events.of(CatalogChanged) if e.kind == "tools"]
            )
            assert changed[0].diff.added == ("web_fresh",)
            assert TOKEN not in repr([t.message for t in events.of(Traffic)])
        finally:
            await manager.shutdown()


async def test_http_401_reason() -> None:
    with http_server("--require-token", TOKEN) as url:
        manager = ConnectionManager()
        conn = manager.set_target(
            Target(name="locked", transport="http", url=url, headers={"Authorization": "Bearer wrong"})
        )
        manager.connect("locked")
        try:
            assert await conn.wait_settled(30) == ConnectionState.FAILED
            assert conn.reason is not None
            # Its credentials are in its headers: no sign-in, the key is what to check.
            assert conn.reason.startswith(
                "HTTP 401 Unauthorized: the server refused the credentials: check the API key"
            )
            assert 'Bearer realm="engine-test"' in conn.reason
            assert not conn.was_ready
        finally:
            await manager.shutdown()


async def test_http_connections_share_one_pool() -> None:
    with http_server() as url:
        manager = ConnectionManager()
        a = manager.set_target(Target(name="a", transport="http", url=url))
        b = manager.set_target(Target(name="b", transport="http", url=url, mode="legacy"))
        manager.connect_all()
        try:
            states = await manager.wait_settled(30)
            assert states == {"a": ConnectionState.READY, "b": ConnectionState.READY}, (a.reason, b.reason)
            assert a._http_client is b._http_client is manager._http
            assert (await b.call_tool("echo", {"text": "b"})).text() == "echo: b"
        finally:
            await manager.shutdown()
        assert manager._http is None


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize("mode", MODES)
async def test_http_server_restart_is_reconnected(mode: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("app.mcp.manager.BACKOFF_FIRST", 0.05)
    monkeypatch.setattr("app.mcp.manager.BACKOFF_MAX", 0.5)
    events = EventLog()
    port = _free_port()
    argv = [sys.executable, str(SDK_SERVER), "--http", "--port", str(port)]
    manager = ConnectionManager(sink=events)
    conn = manager.set_target(
        Target(name="w", transport="http", url=f"http://127.0.0.1:{port}/mcp", mode=mode)
    )
    server = ServerProcess(argv).start()
    try:
        await asyncio.to_thread(server.wait_listening, 30)
        manager.connect("w")
        assert await conn.wait_settled(30) == ConnectionState.READY, conn.reason
        server.stop()
        with pytest.raises(CallFailed):
            await conn.call_tool("echo", {"text": "x"})
        await events.wait_until(lambda: conn.state == ConnectionState.FAILED)
        assert conn.reason is not None and conn.reason.startswith("connection lost")
        # While it is down the manager keeps trying; once it is back, the connection is too.
        server = ServerProcess(argv).start()
        await asyncio.to_thread(server.wait_listening, 30)
        await events.wait_until(lambda: conn.state == ConnectionState.READY, timeout=30)
        assert (await conn.call_tool("echo", {"text": "back"})).text() == "echo: back"
    finally:
        await manager.shutdown()
        server.stop()


@pytest.mark.parametrize(("transport", "path"), [("http", "/wrong"), ("sse", "/sse")])
async def test_http_wrong_path_reason(transport: str, path: str) -> None:
    with http_server() as url:
        base = url.rsplit("/", 1)[0]
        manager = ConnectionManager()
        conn = manager.set_target(Target(name="lost", transport=transport, url=base + path))  # type: ignore[arg-type]
        manager.connect("lost")
        try:
            assert await conn.wait_settled(30) == ConnectionState.FAILED
            assert conn.reason is not None and conn.reason.startswith(
                "HTTP 404 Not Found: nothing at this URL"
            ), conn.reason
        finally:
            await manager.shutdown()
