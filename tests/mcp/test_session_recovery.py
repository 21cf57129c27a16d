"""A lost Streamable HTTP session (2025-11-25, stateful) is started again and the request retried.

The server is a real SDK server (tests/servers/session_server.py) that keeps its sessions in
memory: restarting it on the same port forgets them, an HTTP DELETE with the id ends one. Before
the fix every call after that failed with "Session not found" while the server showed connected;
a server that went away without a call was not noticed at all.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from functools import partial
from typing import Any

import anyio
import httpx2
import mcp_types as types
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from app.mcp.connection import ServerConnection
from app.mcp.events import ConnectionState, LogLine
from app.mcp.results import CallFailed
from app.mcp.session_recovery import RENEWED, STREAM_ENDED, SessionKeeper
from app.mcp.target import Target
from tests.servers.harness import EventLog
from tests.servers.session_server import SessionLoser, ThreadedServer, build

pytestmark = pytest.mark.anyio

SETTLE = 30.0


class Restartable:
    """The session server on a fixed port, to restart (a new app: it knows no session)."""

    def __init__(self) -> None:
        self.server: ThreadedServer | None = ThreadedServer(build(None).streamable_http_app()).start()
        self.port = self.server.port
        self.url = f"http://127.0.0.1:{self.port}/mcp"

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()
            self.server = None

    async def restart(self, *, extra_tool: str | None = None) -> None:
        """A new server on the same port, then the old one stopped: no moment without a server,
        so what the client meets next is the new server."""
        new = ThreadedServer(build(extra_tool).streamable_http_app(), self.port)
        await asyncio.to_thread(new.start)
        old, self.server = self.server, new
        if old is not None:
            await asyncio.to_thread(old.stop)


@contextmanager
def session_server() -> Iterator[Restartable]:
    server = Restartable()
    try:
        yield server
    finally:
        server.stop()


@asynccontextmanager
async def ready(url: str, events: EventLog, **kw: Any) -> AsyncIterator[ServerConnection]:
    target = Target(name="web", transport="http", url=url, mode="legacy", timeout=20, **kw)
    conn = ServerConnection(target, sink=events)
    conn.start()
    try:
        assert await conn.wait_settled(SETTLE) == ConnectionState.READY, conn.reason
        yield conn
    finally:
        await conn.stop()


def _logged(events: EventLog, text: str) -> bool:
    return any(text in e.text for e in events.of(LogLine))


async def _whoami(conn: ServerConnection) -> str:
    return (await conn.call_tool("whoami", {})).text()


async def _drop_session(url: str, session_id: str) -> None:
    """End the session on the server, as its idle timeout or an operator would."""
    async with httpx2.AsyncClient() as http:
        answer = await http.delete(url, headers={"mcp-session-id": session_id})
        assert answer.status_code in (200, 204), answer.text


async def test_a_restarted_server_gets_a_new_session_and_the_call_goes_through() -> None:
    events = EventLog()
    with session_server() as server:
        async with ready(server.url, events) as conn:
            assert conn.protocol_version == "2025-11-25"
            first = await _whoami(conn)
            assert "fresh" not in conn.catalog.tools
            await server.restart(extra_tool="fresh")
            # Before: CallFailed("Session not found"), on this and every later call.
            again = await _whoami(conn)
            assert again and again != first
            assert conn.state == ConnectionState.READY
            assert (await conn.call_tool("echo", {"text": "back"})).text() == "echo: back"
            # What the new server offers is listed again.
            await events.wait_until(lambda: "fresh" in conn.catalog.tools)
            assert _logged(events, RENEWED)


async def test_a_dropped_session_is_renewed_and_the_request_retried() -> None:
    events = EventLog()
    with session_server() as server:
        async with ready(server.url, events) as conn:
            first = await _whoami(conn)
            await _drop_session(server.url, first)
            assert (await conn.call_tool("echo", {"text": "still here"})).text() == "echo: still here"
            assert await _whoami(conn) not in ("", first)
            # The renewal also reopened the server's event stream and re-listed the catalog.
            assert {"echo", "whoami"} <= set(conn.catalog.tools)
            assert conn.state == ConnectionState.READY


async def test_a_restart_without_any_call_is_noticed_and_renewed() -> None:
    """The server's GET event stream ends when it stops: the connection asks, finds the session
    gone, and starts a new one before anybody calls."""
    events = EventLog()
    with session_server() as server:
        async with ready(server.url, events) as conn:
            first = await _whoami(conn)
            since = len(events.events)
            await server.restart()
            await events.wait_for(lambda e: isinstance(e, LogLine) and RENEWED in e.text, 20, since=since)
            assert _logged(events, STREAM_ENDED)
            assert await _whoami(conn) != first


async def test_a_server_that_went_away_is_noticed_without_a_call(monkeypatch: pytest.MonkeyPatch) -> None:
    """Before, the row said "connected" until the next call; now the end of the event stream is
    noticed, and the connection says it is lost."""
    monkeypatch.setattr("app.mcp.session_recovery.STREAM_GRACE", 0.5)
    events = EventLog()
    with session_server() as server:
        async with ready(server.url, events) as conn:
            await _whoami(conn)
            await asyncio.to_thread(server.stop)
            await events.wait_until(lambda: conn.state == ConnectionState.FAILED, timeout=20)
            assert conn.reason is not None and conn.reason.startswith("connection lost"), conn.reason
            assert _logged(events, STREAM_ENDED)


async def test_one_new_session_per_loss_then_the_connection_is_given_up() -> None:
    """A server that forgets every session at once: one new session is started, the call is sent
    once more, and when that session is lost too before answering anything the connection is
    lost (a manager would reconnect it from scratch); no loop of handshakes."""
    events = EventLog()
    loser = SessionLoser(build(None).streamable_http_app())
    server = ThreadedServer(loser).start()
    try:
        async with ready(f"http://127.0.0.1:{server.port}/mcp", events) as conn:
            assert loser.initializes == 1
            loser.losing = True
            # The retry meets the new session's loss, or the connection already given up.
            with pytest.raises(CallFailed, match=r"Session not found|connection to the server was lost"):
                await conn.call_tool("echo", {"text": "x"})
            await events.wait_until(lambda: conn.state == ConnectionState.FAILED, timeout=20)
            assert conn.reason is not None
            assert conn.reason.startswith("connection lost: the server lost the session"), conn.reason
            assert loser.initializes == 2  # the first handshake and one renewal
    finally:
        server.stop()


async def test_the_keeper_renews_a_bare_sdk_client() -> None:
    """SessionKeeper on its own, with the SDK's Client and an httpx2 client: no engine."""
    logged: list[str] = []
    lost: list[str] = []
    renewed = asyncio.Event()

    async def on_renewed() -> None:
        renewed.set()

    async def whoami(client: Client) -> str:
        result = await client.call_tool("whoami", {})
        assert not result.is_error, result
        block = result.content[0]
        assert isinstance(block, types.TextContent)
        return block.text

    keeper = SessionKeeper(log=lambda level, text: logged.append(text), lost=lost.append, timeout=10)
    with session_server() as server:
        async with httpx2.AsyncClient() as http:
            keeper.new_watch(http)
            transport = streamable_http_client(server.url, http_client=http)
            async with Client(transport, mode="legacy") as client, anyio.create_task_group() as tg:
                ping = partial(client.session.send_request, types.PingRequest(), types.EmptyResult)
                tg.start_soon(partial(keeper.keep, client.session, renewed=on_renewed, check=ping))
                first = await whoami(client)
                assert keeper.watch.session_id == first
                await _drop_session(server.url, first)
                second = await keeper.retrying(partial(whoami, client))
                assert second not in ("", first)
                assert keeper.renewals == 1 and lost == []
                await asyncio.wait_for(renewed.wait(), 10)
                keeper.stop()
                tg.cancel_scope.cancel()
    assert RENEWED in logged


async def test_the_retry_is_only_for_a_lost_session() -> None:
    """A request that fails for another reason is not sent twice."""
    keeper = SessionKeeper(log=lambda level, text: None, lost=lambda reason: None, timeout=10)
    with session_server() as server:
        async with httpx2.AsyncClient() as http:
            keeper.new_watch(http)
            async with Client(streamable_http_client(server.url, http_client=http), mode="legacy") as client:
                sent = 0

                async def unknown_tool() -> Any:
                    nonlocal sent
                    sent += 1
                    return await client.session.send_request(
                        types.ReadResourceRequest(params=types.ReadResourceRequestParams(uri="nowhere:x")),
                        types.ReadResourceResult,
                    )

                with pytest.raises(Exception, match=r"(?i)unknown resource|not found"):
                    await keeper.retrying(unknown_tool)
                assert sent == 1
