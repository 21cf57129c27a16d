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
from app.mcp.tasks import MAX_POLL, TaskBoard, client_extension, created_task, plan, task_params
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
    from app.mcp.sdk_private import send_raw

    params = {"name": name, "arguments": arguments, **task_params(60_000)}
    return await send_raw(client.session, "tools/call", params)


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


async def test_legacy_task_status_notifications_wake_the_poll() -> None:
    """2025-11-25: CreateTaskResult, then the task suggests polling every 10 minutes (kept to
    MAX_POLL, 30 s): the task still ends within the wait because each notifications/tasks/status
    wakes the poll; then tasks/result. A failed task raises its JSON-RPC error."""
    updates = Updates()
    async with tasks_client("legacy", updates) as (client, board):
        assert client.protocol_version == "2025-11-25"
        first = await _legacy_call(client, "long_job", {"steps": 3, "delay": 0.05, "poll_ms": 600_000})
        async with asyncio.timeout(MAX_POLL / 2):
            result = await _follow(board, client, "c1", "long_job", first)
        assert result["content"][0]["text"] == "done after 3 steps"
        messages = [u.message for u in updates.seen if u.call_id == "c1"]
        assert "step 2 of 3" in messages, messages  # heard from a notification, not a poll
        assert updates.seen[-1].status == "completed" and updates.seen[-1].result is result
        assert board.running() == []

        first = await _legacy_call(client, "broken_job", {"delay": 0.01})
        with pytest.raises(Exception, match="the job broke at step 1"):
            await _follow(board, client, "c2", "broken_job", first)
        assert updates.seen[-1].status == "failed"


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
