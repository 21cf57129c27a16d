"""Bad servers hurt only themselves. Each test runs one fault server next to a healthy one through
`app.mcp`'s ConnectionManager and checks three things: the user is told a clear reason, a call on
the healthy server during the fault succeeds, and nothing (task, child process) is left behind.

The fault servers live in tests/servers/faults/ (raw JSON-RPC, so each fault is staged exactly).
"""

from __future__ import annotations

import asyncio
import re
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from tests.servers.fixtures import *  # noqa: F403
from tests.servers.harness import EventLog, nothing_left_behind, stdio_fault_target
from tests.servers.process import ServerProcess

pytestmark = pytest.mark.anyio

HEALTHY = "healthy"
BAD = "bad"


class Pair:
    """A ConnectionManager holding one fault server (`bad`) and one healthy server (`ok`)."""

    def __init__(self, manager: Any, log: EventLog) -> None:
        self.manager = manager
        self.log = log

    @property
    def bad(self) -> Any:
        return self.manager.get(BAD)

    @property
    def ok(self) -> Any:
        return self.manager.get(HEALTHY)

    async def healthy_call(self, message: str = "still here") -> float:
        """Echo on the healthy server; returns how long it took."""
        started = time.perf_counter()
        result = await self.ok.call_tool("echo", {"message": message}, timeout=10.0)
        assert result.content == [{"type": "text", "text": f"Echo: {message}"}]
        return time.perf_counter() - started

    async def wait_log(self, text: str, timeout: float = 10.0) -> Any:
        from app.mcp.events import LogLine

        return await self.log.wait_for(
            lambda e: isinstance(e, LogLine) and e.server == BAD and text in e.text, timeout
        )


@asynccontextmanager
async def running_pair(bad_target: Any, env: dict[str, str], *, settle: bool = True) -> AsyncIterator[Pair]:
    """Connect `bad_target` and a healthy server; on exit shut down and check nothing is left."""
    from app.mcp.events import ConnectionState
    from app.mcp.manager import ConnectionManager

    async with nothing_left_behind(env):
        log = EventLog()
        manager = ConnectionManager(sink=log)
        manager.set_target(bad_target)
        manager.set_target(stdio_fault_target(HEALTHY, "healthy", env))
        manager.connect_all()
        try:
            if settle:
                states = await manager.wait_settled(bad_target.timeout + 10.0)
                assert states[HEALTHY] == ConnectionState.READY
            yield Pair(manager, log)
        finally:
            await manager.shutdown()


def stdio_pair(fault: str, env: dict[str, str], *, timeout: float = 10.0, settle: bool = True) -> Any:
    return running_pair(stdio_fault_target(BAD, fault, env, timeout=timeout), env, settle=settle)


def failed_event(server: str) -> Any:
    from app.mcp.events import ConnectionState, StateChanged

    return lambda e: isinstance(e, StateChanged) and e.server == server and e.state == ConnectionState.FAILED


def ready_event(server: str) -> Any:
    from app.mcp.events import ConnectionState, StateChanged

    return lambda e: isinstance(e, StateChanged) and e.server == server and e.state == ConnectionState.READY


async def test_crash_mid_call(process_token: dict[str, str]) -> None:
    from app.mcp.events import ConnectionState
    from app.mcp.results import CallFailed

    async with stdio_pair("crash-mid-call", process_token) as pair:
        assert pair.bad.state == ConnectionState.READY
        crash = asyncio.create_task(pair.bad.call_tool("crash", {}, timeout=10.0))
        elapsed = await pair.healthy_call()
        with pytest.raises(CallFailed):
            await crash
        failed = await pair.log.wait_for(failed_event(BAD), 10.0)
        assert failed.reason.startswith("connection lost: the server exited with code 3")
        assert "simulated crash" in failed.reason  # the stderr tail says what happened
        assert elapsed < 2.0
        await pair.healthy_call()
        # It was ready before: the manager brings it back with backoff.
        await pair.log.wait_for(ready_event(BAD), 15.0, since=pair.log.events.index(failed))


async def test_non_json_on_stdout(process_token: dict[str, str]) -> None:
    from app.mcp.events import ConnectionState

    async with stdio_pair("stdout-noise", process_token) as pair:
        # A print() in a server is not fatal: it connects, works, and the noise is shown in its log.
        assert pair.bad.state == ConnectionState.READY
        result = await pair.bad.call_tool("echo", {"message": "through the noise"})
        assert result.content == [{"type": "text", "text": "Echo: through the noise"}]
        line = await pair.wait_log("Starting fault server v1.0 (debug build)")
        assert line.level == "warning"
        assert "not a protocol message on stdout" in line.text
        await pair.healthy_call()


async def test_never_answers_initialize(process_token: dict[str, str]) -> None:
    from app.mcp.events import ConnectionState

    async with stdio_pair("never-initialize", process_token, timeout=3.0, settle=False) as pair:
        # The healthy server is usable while the silent one is still trying.
        assert await pair.ok.wait_settled(10.0) == ConnectionState.READY
        await pair.healthy_call()
        assert pair.bad.state == ConnectionState.CONNECTING
        assert await pair.bad.wait_settled(10.0) == ConnectionState.FAILED
        assert pair.bad.reason == "this does not look like an MCP server: it has not answered in 3 s"


async def test_fifty_megabyte_result(process_token: dict[str, str]) -> None:
    from app.mcp.events import ConnectionState

    async with stdio_pair("big-result", process_token, timeout=60.0) as pair:
        big = asyncio.create_task(pair.bad.call_tool("big", {}))
        await pair.wait_log("big-result: sending 50 MB")  # the answer is on its way now
        elapsed = await pair.healthy_call()
        result = await big
        assert len(result.content[0]["text"]) == 50 * 1024 * 1024
        assert not result.is_error
        assert pair.bad.state == ConnectionState.READY
        assert elapsed < 5.0
        await pair.healthy_call()


async def test_notification_flood(process_token: dict[str, str]) -> None:
    from app.mcp.connection import LOG_LINES
    from app.mcp.events import ConnectionState

    async with stdio_pair("flood", process_token) as pair:
        refreshes_before = pair.bad.refresh_counts["tools"]
        started = await pair.bad.call_tool("flood", {})
        assert started.content[0]["text"] == "flood started"
        worst = 0.0
        calls = 0
        # Keep using both servers while 5,000 notifications arrive.
        while not any("flood done" in line.text for line in pair.bad.log):
            worst = max(worst, await pair.healthy_call())
            await pair.bad.ping()
            calls += 1
            assert calls < 100_000
        refreshes = pair.bad.refresh_counts["tools"] - refreshes_before
        assert pair.bad.state == ConnectionState.READY
        assert worst < 1.0, f"a healthy call took {worst:.2f} s during the flood"
        # 2,500 list_changed in 5 s are coalesced (debounce, at least one refresh per second).
        assert 1 <= refreshes <= 12, refreshes
        assert len(pair.bad.log) <= LOG_LINES  # the log stays bounded


async def test_exits_at_once(process_token: dict[str, str]) -> None:
    from app.mcp.events import ConnectionState

    async with stdio_pair("exit-at-once", process_token) as pair:
        assert pair.bad.state == ConnectionState.FAILED
        assert pair.bad.reason == "the server exited with code 1 — last stderr: fatal: API_TOKEN is not set"
        await pair.healthy_call()


async def test_unknown_protocol_version_only(process_token: dict[str, str]) -> None:
    from app.mcp.events import ConnectionState

    async with stdio_pair("unknown-version", process_token) as pair:
        assert pair.bad.state == ConnectionState.FAILED
        assert "protocol version" in (pair.bad.reason or "")
        assert "2099-01-01" in (pair.bad.reason or "")
        await pair.healthy_call()


async def test_hang_until_cancelled(process_token: dict[str, str]) -> None:
    from app.mcp.events import ConnectionState

    async with stdio_pair("hang-until-cancelled", process_token) as pair:
        hang = asyncio.create_task(pair.bad.call_tool("hang", {}))
        line = await pair.wait_log("hanging on request")
        request_id = line.text.rsplit(" ", 1)[1]
        await pair.healthy_call()
        await pair.bad.ping()  # the hung call does not block the connection
        hang.cancel()
        with pytest.raises(asyncio.CancelledError):
            await hang
        await pair.wait_log(f"cancelled {request_id}")  # the server was told
        assert pair.bad.state == ConnectionState.READY
        result = await pair.bad.call_tool("echo", {"message": "after"})
        assert result.content == [{"type": "text", "text": "Echo: after"}]


async def test_http_stream_closed_mid_response(process_token: dict[str, str]) -> None:
    from app.mcp.events import ConnectionState
    from app.mcp.results import CallFailed
    from app.mcp.target import Target

    argv = [sys.executable, "-m", "tests.servers.faults.http_fault"]
    with ServerProcess(argv, env=process_token) as server:
        host, port = await asyncio.to_thread(server.wait_listening, 30.0)
        target = Target(name=BAD, transport="http", url=f"http://{host}:{port}/mcp", timeout=10.0)
        async with running_pair(target, process_token) as pair:
            assert pair.bad.state == ConnectionState.READY
            cut = asyncio.create_task(pair.bad.call_tool("cut", {}))
            await pair.healthy_call()
            started = time.perf_counter()
            with pytest.raises(CallFailed) as failure:
                await cut
            assert time.perf_counter() - started < 5.0  # told at once, not after the call's timeout
            assert failure.value.message.startswith("calling cut failed: ")  # names the call
            # The server printed this line before cutting, but its output is drained by a thread
            # that may not have read it yet when the engine reports the failure: wait for it.
            cut_line = re.compile(r"cutting the stream of request \S+")
            assert await asyncio.to_thread(server.wait_for_line, cut_line, 10.0)
            # The server itself is fine: the connection stays usable, or (if the engine drops it)
            # it is re-established by the manager.
            mark = len(pair.log.events)
            try:
                await pair.bad.ping()
            except CallFailed:
                await pair.log.wait_for(ready_event(BAD), 15.0, since=mark)
            result = await pair.bad.call_tool("echo", {"message": "again"})
            assert result.content == [{"type": "text", "text": "Echo: again"}]
