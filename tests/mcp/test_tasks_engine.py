"""The task engine (`app.mcp.tasks`) against a real SDK server that runs tools as tasks
(tests/servers/tasks_server.py over stdio), in both eras, with the SDK's own `Client`."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from app.mcp.results import CallFailed
from app.mcp.tasks import TaskBoard, TaskLeftRunning, client_extension, created_task, plan, task_params
from app.mcp.tasks_events import TaskUpdate
from app.mcp.tasks_sdk import session_requests

REPO = Path(__file__).resolve().parents[2]
SERVER = REPO / "tests" / "servers" / "tasks_server.py"

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class Updates:
    def __init__(self) -> None:
        self.seen: list[TaskUpdate] = []
        self._changed = asyncio.Event()

    def __call__(self, update: TaskUpdate) -> None:
        self.seen.append(update)
        self._changed.set()

    async def wait_for(self, check: Any, timeout: float = 20) -> TaskUpdate:
        async with asyncio.timeout(timeout):
            while True:
                for update in self.seen:
                    if check(update):
                        return update
                self._changed.clear()
                await self._changed.wait()


@asynccontextmanager
async def tasks_client(mode: str, updates: Updates) -> AsyncIterator[tuple[Client, TaskBoard]]:
    board = TaskBoard("tasks", updates)
    params = StdioServerParameters(command=sys.executable, args=[str(SERVER)])
    async with Client(params, mode=mode, extensions=[client_extension(lambda: board)], cache=None) as client:
        yield client, board


async def _legacy_call(client: Client, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """The task-augmented tools/call of 2025-11-25, sent raw: the SDK checks a tools/call answer
    as CallToolResult, which a CreateTaskResult is not (the connection does the same)."""
    params = {"name": name, "arguments": arguments, **task_params(60_000)}
    session = client.session
    data: dict[str, Any] = {"method": "tools/call", "params": params}
    opts: Any = {}
    session._stamp(data, opts)
    return await session._dispatcher.send_raw_request("tools/call", data["params"], opts)


def test_plan_follows_task_support_and_the_capability() -> None:
    offered: dict[str, Any] = {"tasks": {"requests": {"tools": {"call": {}}}}}
    required = {"execution": {"taskSupport": "required"}}
    optional = {"execution": {"taskSupport": "optional"}}
    assert plan("t", required, offered, modern=False) == "task"
    assert plan("t", optional, offered, modern=False) == "task"
    assert plan("t", optional, {}, modern=False) == "direct"
    assert plan("t", {"execution": {"taskSupport": "forbidden"}}, offered, modern=False) == "direct"
    assert plan("t", {}, offered, modern=False) == "direct"
    assert plan("t", required, {}, modern=True) == "direct"  # 2026-07-28: the server decides
    with pytest.raises(CallFailed, match="only run as a task"):
        plan("t", required, {}, modern=False)


def _follow(
    board: TaskBoard, client: Client, call_id: str, tool: str, first: dict[str, Any], **kw: Any
) -> Any:
    task = created_task(first, modern=kw.pop("modern", False))
    assert task is not None and task["status"] == "working"
    return board.run(
        call_id=call_id,
        tool=tool,
        first=task,
        modern=kw.pop("modern_run", False),
        send=session_requests(client.session),
        finish=lambda raw: raw,
        timeout=10,
        **kw,
    )


async def test_legacy_tasks_poll_to_their_result_or_error() -> None:
    """2025-11-25: CreateTaskResult, tasks/get at the server's pollInterval, the status
    notifications, tasks/result for the result, and the JSON-RPC error of a failed task."""
    updates = Updates()
    async with tasks_client("legacy", updates) as (client, board):
        assert client.protocol_version == "2025-11-25"
        first = await _legacy_call(client, "long_job", {"steps": 3, "delay": 0.05})
        result = await _follow(board, client, "c1", "long_job", first)
        assert result["content"][0]["text"] == "done after 3 steps"
        messages = [u.message for u in updates.seen if u.call_id == "c1"]
        assert "step 3 of 3" in messages or "step 2 of 3" in messages, messages
        assert updates.seen[-1].status == "completed" and updates.seen[-1].result is result
        assert board.running() == []

        first = await _legacy_call(client, "broken_job", {"delay": 0.01})
        with pytest.raises(Exception, match="the job broke at step 1"):
            await _follow(board, client, "c2", "broken_job", first)
        assert updates.seen[-1].status == "failed"


async def test_legacy_tasks_cancelled_or_left_running(tmp_path: Path) -> None:
    """Cancelling the caller sends tasks/cancel (the server's work stops: it writes the marker);
    leaving a task running frees the caller and the engine follows the task to its result."""
    marker = tmp_path / "cancelled"
    updates = Updates()
    async with tasks_client("legacy", updates) as (client, board):
        first = await _legacy_call(client, "stubborn", {"marker": str(marker)})
        waiter = asyncio.ensure_future(_follow(board, client, "c3", "stubborn", first))
        await updates.wait_for(lambda u: u.message == "working until cancelled")
        waiter.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiter
        async with asyncio.timeout(10):
            while not marker.exists():
                await asyncio.sleep(0.02)
        assert [u for u in updates.seen if u.call_id == "c3"][-1].status == "cancelled"

        first = await _legacy_call(client, "long_job", {"steps": 4, "delay": 0.1})
        waiter = asyncio.ensure_future(_follow(board, client, "c4", "long_job", first))
        await updates.wait_for(lambda u: u.call_id == "c4")
        assert board.leave_running("c4")
        with pytest.raises(TaskLeftRunning):
            await waiter
        last = await updates.wait_for(lambda u: u.call_id == "c4" and u.finished)
        assert last.left_running and last.status == "completed"
        assert last.result["content"][0]["text"] == "done after 4 steps"


async def test_modern_task_extension() -> None:
    """2026-07-28: the client names the extension per request (the SDK does, for our claim), the
    server answers resultType "task"; `Client.call_tool` resolves it through our resolver; a task
    that asks for input gets its answer through tasks/update, asked once."""
    updates = Updates()
    asked: list[dict[str, Any]] = []

    async def answer(requests: dict[str, Any]) -> dict[str, Any]:
        asked.append(requests)
        return {key: {"action": "accept", "content": {"city": "Lima"}} for key in requests}

    async with tasks_client("auto", updates) as (client, board):
        assert client.protocol_version == "2026-07-28"
        result = await client.call_tool("long_job", {"steps": 2, "delay": 0.02})
        assert result.content[0].text == "done after 2 steps"  # type: ignore[union-attr]
        assert updates.seen[-1].status == "completed"

        created = await client.session.call_tool("ask_job", {"steps": 1, "delay": 0.01}, allow_claimed=True)
        first = created.model_dump(by_alias=True, mode="json", exclude_none=True)
        result = await _follow(
            board, client, "c5", "ask_job", first, modern=True, modern_run=True, answer=answer
        )
        assert result["content"][0]["text"] == "city: Lima"
        assert len(asked) == 1 and list(asked[0]) == ["city-1"]
