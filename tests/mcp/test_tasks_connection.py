"""Tools that run as tasks, through the engine's `ServerConnection.call_tool`, against the SDK
task server (tests/servers/tasks_server.py) over stdio and Streamable HTTP, in both eras."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from app.mcp.connection import ServerConnection
from app.mcp.handlers import HeadlessHandlers
from app.mcp.results import CallFailed
from app.mcp.target import Target
from app.mcp.tasks import TaskLeftRunning
from app.mcp.tasks_events import TaskUpdate
from tests.servers.process import ServerProcess

REPO = Path(__file__).resolve().parents[2]
SERVER = REPO / "tests" / "servers" / "tasks_server.py"

pytestmark = pytest.mark.anyio


class Events:
    def __init__(self) -> None:
        self.tasks: list[TaskUpdate] = []
        self._changed = asyncio.Event()

    def __call__(self, event: Any) -> None:
        if isinstance(event, TaskUpdate):
            self.tasks.append(event)
            self._changed.set()

    async def wait_for(self, check: Any, timeout: float = 20) -> TaskUpdate:
        async with asyncio.timeout(timeout):
            while True:
                for update in self.tasks:
                    if check(update):
                        return update
                self._changed.clear()
                await self._changed.wait()


def stdio_target(mode: str, *extra: str) -> Target:
    return Target(
        name="tasks", transport="stdio", command=sys.executable, args=(str(SERVER), *extra), mode=mode
    )


@pytest.fixture(scope="module")
def http_url() -> Iterator[str]:
    with ServerProcess([sys.executable, str(SERVER), "--http"]) as proc:
        host, port = proc.wait_listening()
        yield f"http://{host}:{port}/mcp"


@asynccontextmanager
async def connected(target: Target, events: Events) -> AsyncIterator[ServerConnection]:
    conn = ServerConnection(target, sink=events, handlers=HeadlessHandlers(accept_defaults=True))
    conn.start()
    try:
        state = await conn.wait_settled(30)
        assert state.name == "READY", conn.reason
        yield conn
    finally:
        await conn.stop()


async def test_legacy_required_and_optional_tools_run_as_tasks(tmp_path: Path) -> None:
    """2025-11-25 over stdio: a "required" tool (which failed before: "must be invoked as a
    task") and an "optional" one run as tasks, the status message is published, a plain tool
    runs directly; cancelling the caller cancels the task on the server."""
    events = Events()
    async with connected(stdio_target("legacy"), events) as conn:
        assert conn.protocol_version == "2025-11-25"
        result = await conn.call_tool("long_job", {"steps": 3, "delay": 0.05}, call_id="c1")
        assert result.text() == "done after 3 steps"
        assert any(u.call_id == "c1" and (u.message or "").startswith("step ") for u in events.tasks)
        assert events.tasks[-1].status == "completed"

        result = await conn.call_tool("maybe_job", {"steps": 1, "delay": 0.01}, call_id="c2")
        assert result.text() == "done after 1 steps"  # not "ran directly": it ran as a task
        result = await conn.call_tool("plain", {}, call_id="c3")
        assert result.text() == "plain answer"
        assert not [u for u in events.tasks if u.call_id == "c3"]

        with pytest.raises(CallFailed, match="the job broke at step 1"):
            await conn.call_tool("broken_job", {}, call_id="c4")

        marker = tmp_path / "cancelled"
        call = asyncio.ensure_future(conn.call_tool("stubborn", {"marker": str(marker)}, call_id="c5"))
        await events.wait_for(lambda u: u.call_id == "c5" and u.message == "working until cancelled")
        call.cancel()
        with pytest.raises(asyncio.CancelledError):
            await call
        async with asyncio.timeout(10):
            while not marker.exists():
                await asyncio.sleep(0.02)
        assert conn.tasks.running() == []


async def test_task_left_running_then_cancelled_by_the_person() -> None:
    events = Events()
    async with connected(stdio_target("legacy"), events) as conn:
        call = asyncio.ensure_future(conn.call_tool("stubborn", {}, call_id="left"))
        await events.wait_for(lambda u: u.call_id == "left" and u.message == "working until cancelled")
        assert conn.tasks.leave_running("left")
        with pytest.raises(TaskLeftRunning):
            await call
        assert [t.call_id for t in conn.tasks.running()] == ["left"]  # still followed
        assert await conn.cancel_task("left")
        last = await events.wait_for(lambda u: u.call_id == "left" and u.finished)
        assert last.status == "cancelled" and last.left_running


async def test_required_tool_on_a_server_without_tasks_says_why() -> None:
    events = Events()
    async with connected(stdio_target("legacy", "--no-tasks"), events) as conn:
        with pytest.raises(CallFailed, match="can only run as a task, but the server does not offer tasks"):
            await conn.call_tool("long_job", {})


async def test_modern_task_extension_over_stdio_asks_the_person() -> None:
    """2026-07-28: the server answers resultType "task" because the engine named the extension;
    a task that needs input is answered through the connection's elicitation handler."""
    events = Events()
    async with connected(stdio_target("auto"), events) as conn:
        assert conn.protocol_version == "2026-07-28"
        result = await conn.call_tool("long_job", {"steps": 2, "delay": 0.02}, call_id="m1")
        assert result.text() == "done after 2 steps"
        assert events.tasks[-1].call_id == "m1" and events.tasks[-1].status == "completed"
        result = await conn.call_tool("ask_job", {"steps": 1, "delay": 0.01}, call_id="m2")
        assert result.text() == "city: Oslo"  # the form's default, accepted by the headless person
        assert any(u.call_id == "m2" and u.status == "input_required" for u in events.tasks)


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_tasks_over_streamable_http(http_url: str, mode: str) -> None:
    """Both eras over Streamable HTTP (2026-07-28 needs the Mcp-Name header on tasks/*)."""
    events = Events()
    async with connected(Target(name="tasks", transport="http", url=http_url, mode=mode), events) as conn:
        result = await conn.call_tool("long_job", {"steps": 2, "delay": 0.02}, call_id="h1")
        assert result.text() == "done after 2 steps"
        assert events.tasks[-1].status == "completed"
