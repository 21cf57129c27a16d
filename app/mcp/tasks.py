"""Tool calls that run as tasks: the server answers at once with a task, the result comes later.

Two eras, one engine:

- 2025-11-25 (core protocol): a tool's `execution.taskSupport` says whether it may run as a task,
  the server's `tasks.requests.tools.call` capability whether it offers tasks at all. The call
  carries `params.task` (`{"ttl": ms}`) and is answered with `CreateTaskResult`; we poll
  `tasks/get` at the server's `pollInterval` (a `notifications/tasks/status` wakes the poll
  early), fetch the result with `tasks/result` and cancel with `tasks/cancel`. A task in
  `input_required` is waited for with `tasks/result`: the server then sends its questions as
  ordinary requests (elicitation…) that the connection's handlers answer.
- 2026-07-28 (the `io.modelcontextprotocol/tasks` extension, SEP-2663): the client names the
  extension in its per-request capabilities (the SDK does this for a `ClientExtension` whose
  claim is active) and the server decides per call whether to answer `resultType: "task"`. We
  poll `tasks/get` at `pollIntervalMs`; the result (or error) comes inline once the task ends;
  questions come as `inputRequests` and are answered with `tasks/update`; `tasks/cancel`.

Our rule (`plan`): on 2025-11-25, a "required" tool runs as a task when the server offers tasks
for tools/call (and fails with a plain sentence when it does not: the spec forbids trying); an
"optional" one runs as a task too when the server offers them, so the person can watch a long run,
cancel it or leave it running; "forbidden"/absent runs directly. On 2026-07-28 the server decides.

What the SDK (mcp 2.3) does not do, so this module (and tasks_sdk.py) does, or does not:
- It has the task *types* only: `tasks/*` are left out of its request and notification tables,
  there is no poller, no `tasks/result` driver, no task store on the server side (our test
  server, tests/servers/tasks_server.py, registers the methods itself).
- 2025-11-25: a `tools/call` answer is checked as `CallToolResult` on both sides (the client's
  `send_request`, the server runner's result sieve), which a `CreateTaskResult` is not: the
  connection sends that one request raw (sdk_private), the test server answers it from a
  middleware. `notifications/tasks/status` reaches only an extension `NotificationBinding`.
- 2026-07-28: the SDK resolves a claimed `resultType: "task"` only inside `Client.call_tool`
  (our resolver follows it there); the engine sends its own `tools/call` and parses the answer
  with the same discriminated shape (tasks_sdk.CALL_RESULT). The `Mcp-Name` header SEP-2663 wants
  on `tasks/*` comes from `name_param` on our request models (an SDK feature).
- Not done: the 2026 `notifications/tasks` push needs `subscriptions/listen` with `taskIds`,
  which the SDK's listen filter cannot carry (we poll `tasks/get`); task ids are not persisted,
  so a task left running is forgotten when the connection ends (the spec's SHOULD); `tasks/list`
  is not used. A 2025-era task in `input_required` is waited for with `tasks/result` while the
  server's questions come as ordinary requests (as the TypeScript SDK delivers them; tested with
  server-everything's `simulate-research-query`).

A `TaskBoard` (one per connection) holds the running tasks: each is followed by its own asyncio
task, so the person can stop waiting ("leave it running") while the engine keeps following it to
its end and publishes the result as a `TaskUpdate`.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, TypeGuard

from app.mcp.results import REQUEST_TIMEOUT, CallFailed, CallTimedOut
from app.mcp.tasks_events import TERMINAL_STATUSES, TaskUpdate

if TYPE_CHECKING:
    from mcp.client.extension import ClientExtension

logger = logging.getLogger(__name__)

EXTENSION = "io.modelcontextprotocol/tasks"
TASK_TTL_MS = 3_600_000
"""The retention we ask for (2025-11-25 `params.task.ttl`): one hour, as long as a person may
leave a task running and still get its result. The server may grant less."""
DEFAULT_POLL = 1.0
"""Seconds between two `tasks/get` when the server suggests no interval."""
MIN_POLL = 0.05
MAX_POLL = 30.0
"""A server's suggested interval is kept within these bounds (seconds): a zero or negative one
would flood it, an hour-long one would hide a finished task."""
CANCEL_WAIT = 5.0
"""At most this long for the server to acknowledge `tasks/cancel` when the person cancels."""

Plan = Literal["direct", "task"]


class TaskCancelled(CallFailed):
    """The task ended as "cancelled" (by the person, or by the server)."""


class TaskLeftRunning(CallFailed):
    """The person stopped waiting; the task goes on and its end is published as a `TaskUpdate`."""


TaskRequests = Callable[[str, dict[str, Any]], Awaitable[dict[str, Any]]]
"""How a task is spoken to: one request (method, params), its raw result dict (the SDK's
`MCPError` on a JSON-RPC error)."""


InputAnswerer = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]
"""2026-07-28: answers a task's `inputRequests` (key -> wire request) with wire responses."""


def _is_mapping(value: Any) -> TypeGuard[Mapping[str, Any]]:
    # A dict (what JSON gives) answered without isinstance against the Mapping ABC: `plan` runs
    # on every call, and each ABC check costs about as much as the rest of it.
    return type(value) is dict or isinstance(value, Mapping)


def server_offers_tasks(capabilities: Mapping[str, Any]) -> bool:
    """2025-11-25: the server's `tasks.requests.tools.call` capability."""
    tasks = capabilities.get("tasks")
    if not _is_mapping(tasks):
        return False
    requests = tasks.get("requests")
    tools = requests.get("tools") if _is_mapping(requests) else None
    return _is_mapping(tools) and _is_mapping(tools.get("call"))


def task_support(tool_raw: Mapping[str, Any] | None) -> str:
    execution = tool_raw.get("execution") if tool_raw else None
    if execution is None:
        return "forbidden"  # nearly every tool: no Mapping check (an ABC's isinstance is slow)
    support = execution.get("taskSupport") if _is_mapping(execution) else None
    return support if support in ("required", "optional") else "forbidden"


def plan(
    tool_name: str, tool_raw: Mapping[str, Any] | None, capabilities: Mapping[str, Any], modern: bool
) -> Plan:
    """How to call this tool (see the module's rule). Raises `CallFailed` for a tool that must run
    as a task on a server that does not offer tasks."""
    if modern:
        return "direct"  # 2026-07-28: the server decides; a task answer is followed all the same
    support = task_support(tool_raw)
    if support == "forbidden":
        return "direct"  # what the rule below answers too, without looking at the capabilities
    offered = server_offers_tasks(capabilities)
    if support == "required" and not offered:
        raise CallFailed(f"{tool_name} can only run as a task, but the server does not offer tasks for tools")
    return "task" if offered and support in ("required", "optional") else "direct"


def task_params(ttl_ms: int = TASK_TTL_MS) -> dict[str, Any]:
    """2025-11-25: what a task-augmented `tools/call` adds to its params."""
    return {"task": {"ttl": ttl_ms}}


def call_params(name: str, arguments: dict[str, Any] | None, ttl_ms: int = TASK_TTL_MS) -> dict[str, Any]:
    """2025-11-25: the params of a task-augmented `tools/call`."""
    return {"name": name, "arguments": arguments or {}, **task_params(ttl_ms)}


def created_task(result: Mapping[str, Any], modern: bool) -> dict[str, Any] | None:
    """The task of a `tools/call` answer, or None when the server answered with the result itself."""
    if modern:
        return dict(result) if result.get("resultType") == "task" and "taskId" in result else None
    task = result.get("task")
    return dict(task) if isinstance(task, Mapping) and "taskId" in task and "content" not in result else None


def poll_interval(task: Mapping[str, Any], modern: bool) -> float:
    value = task.get("pollIntervalMs" if modern else "pollInterval")
    if not isinstance(value, int | float) or isinstance(value, bool) or not math.isfinite(value):
        return DEFAULT_POLL
    return min(MAX_POLL, max(MIN_POLL, value / 1000))


def _message(task: Mapping[str, Any]) -> str | None:
    said = task.get("statusMessage")
    return said if isinstance(said, str) and said else None


def _failure_of(error: Any) -> CallFailed:
    if isinstance(error, Mapping):
        message = error.get("message")
        code = error.get("code")
        return CallFailed(
            str(message) if message else "the task failed",
            code if isinstance(code, int) else None,
            error.get("data"),
        )
    return CallFailed("the task failed")


@dataclass
class RunningTask:
    """One tool call the server runs as a task, as far as we know it."""

    server: str
    call_id: str
    tool: str
    task_id: str
    modern: bool
    status: str = "working"
    message: str | None = None
    left_running: bool = False
    result: Any = None
    failure: str | None = None
    _wake: asyncio.Event = field(default_factory=asyncio.Event, repr=False)
    _left: asyncio.Future[None] | None = field(default=None, repr=False)
    _follower: asyncio.Task[Any] | None = field(default=None, repr=False)

    @property
    def finished(self) -> bool:
        return self.status in TERMINAL_STATUSES

    def update(self) -> TaskUpdate:
        return TaskUpdate(
            self.server,
            self.call_id,
            self.tool,
            self.task_id,
            self.status,
            self.message,
            self.left_running,
            self.result,
            self.failure,
        )


class TaskBoard:
    """The running tasks of one connection, and how to follow one to its end."""

    def __init__(
        self,
        server: str,
        emit: Callable[[TaskUpdate], None],
        *,
        mask: Callable[[str], str] = lambda text: text,
    ) -> None:
        self.server = server
        self._emit = emit
        self._mask = mask  # a server's words may repeat a key
        self.tasks: dict[str, RunningTask] = {}
        """call_id -> task, until it ends (a task left running stays until it ends)."""

    def running(self) -> list[RunningTask]:
        return [t for t in self.tasks.values() if not t.finished]

    def by_task_id(self, task_id: str) -> RunningTask | None:
        return next((t for t in self.tasks.values() if t.task_id == task_id), None)

    # ------------------------------------------------------------ notifications

    def on_status(self, params: Mapping[str, Any]) -> None:
        """A `notifications/tasks/status` (2025-11-25): note it and wake the task's poll."""
        task_id = params.get("taskId")
        task = self.by_task_id(task_id) if isinstance(task_id, str) else None
        if task is None or task.finished:
            return
        self._note(task, params)
        task._wake.set()

    def _note(self, task: RunningTask, wire: Mapping[str, Any]) -> None:
        status = wire.get("status")
        message = _message(wire)
        message = self._mask(message) if message else None
        changed = (status, message) != (task.status, task.message)
        if isinstance(status, str):
            task.status = status
        task.message = message
        if changed and not task.finished:
            self._emit(task.update())

    # ------------------------------------------------------------ the person

    def leave_running(self, call_id: str) -> bool:
        """Stop waiting for this task: its caller gets `TaskLeftRunning`, the engine follows it on."""
        task = self.tasks.get(call_id)
        if task is None or task.finished or task.left_running:
            return False
        task.left_running = True
        if task._left is not None and not task._left.done():
            task._left.set_result(None)
        self._emit(task.update())
        return True

    async def cancel(self, call_id: str, send: TaskRequests) -> bool:
        """Ask the server to cancel this task (also one left running). True once it acknowledged."""
        task = self.tasks.get(call_id)
        if task is None or task.finished:
            return False
        await self._send_cancel(task, send)
        return True

    async def _send_cancel(self, task: RunningTask, send: TaskRequests) -> None:
        try:
            async with asyncio.timeout(CANCEL_WAIT):
                answer = await send("tasks/cancel", {"taskId": task.task_id})
        except Exception as exc:  # cancelled on our side all the same: say so in the log
            logger.info("%s: tasks/cancel for %s failed: %s", self.server, task.task_id, exc)
            answer = {}
        if answer.get("status") == "cancelled" or task.modern:
            # 2026-07-28 only acknowledges; we stop following it (the spec allows it).
            task.status = "cancelled"
            task.message = self._mask(_message(answer) or "") or task.message
        task._wake.set()

    # ------------------------------------------------------------ following

    async def run(
        self,
        *,
        call_id: str,
        tool: str,
        first: Mapping[str, Any],
        modern: bool,
        send: TaskRequests,
        finish: Callable[[dict[str, Any]], Any],
        timeout: float,
        answer: InputAnswerer | None = None,
        wait_on_result: Callable[[Awaitable[dict[str, Any]]], Awaitable[dict[str, Any]]] | None = None,
    ) -> Any:
        """Follow the task the server created (`first`: its wire form) until it ends; returns
        `finish(raw CallToolResult)`. Each request is allowed `timeout` seconds (the task itself
        has none: it runs as long as the server keeps it). Cancelling the caller cancels the task
        on the server; `leave_running()` makes the caller raise `TaskLeftRunning` instead.
        `wait_on_result` wraps the 2025-era `tasks/result` of a task waiting for the person (the
        connection pauses its clocks there)."""
        task = RunningTask(
            self.server,
            call_id,
            tool,
            str(first["taskId"]),
            modern,
            status=str(first.get("status", "working")),
        )
        task.message = self._mask(_message(first) or "") or None
        loop = asyncio.get_running_loop()
        task._left = loop.create_future()
        self.tasks[call_id] = task
        self._emit(task.update())
        follower = loop.create_task(
            self._follow(task, dict(first), send, finish, timeout, answer, wait_on_result),
            name=f"mcp-task:{self.server}:{task.task_id}",
        )
        task._follower = follower
        try:
            done, _ = await asyncio.wait({follower, task._left}, return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:
            if not task.left_running and not follower.done():
                follower.cancel()
                await asyncio.shield(self._send_cancel(task, send))
                task.status = "cancelled"
                task.failure = "cancelled"
                self._finished(task)
            raise
        if follower in done:
            return follower.result()
        raise TaskLeftRunning(f"{tool} goes on running on the server; its result will come when it ends")

    async def _follow(
        self,
        task: RunningTask,
        wire: dict[str, Any],
        send: TaskRequests,
        finish: Callable[[dict[str, Any]], Any],
        timeout: float,
        answer: InputAnswerer | None,
        wait_on_result: Callable[[Awaitable[dict[str, Any]]], Awaitable[dict[str, Any]]] | None,
    ) -> Any:
        answered: set[str] = set()
        try:
            while True:
                self._note(task, wire)
                status = task.status
                if task.modern:
                    if status == "completed":
                        raw = wire.get("result")
                        return self._done(task, finish(dict(raw) if isinstance(raw, Mapping) else {}))
                    if status == "failed":
                        raise _failure_of(wire.get("error"))
                    if status == "input_required" and answer is not None:
                        asked = wire.get("inputRequests")
                        fresh = {
                            k: v
                            for k, v in (asked if isinstance(asked, Mapping) else {}).items()
                            if k not in answered
                        }
                        if fresh:  # the same key comes back on every poll until answered: ask once
                            answered.update(fresh)
                            responses = await answer(fresh)
                            await self._timed(
                                send("tasks/update", {"taskId": task.task_id, "inputResponses": responses}),
                                timeout,
                            )
                            wire = await self._timed(send("tasks/get", {"taskId": task.task_id}), timeout)
                            continue
                elif status in ("completed", "failed") or (status == "input_required"):
                    # tasks/result: the result, or the JSON-RPC error of a failed task; while input
                    # is required it waits, and the server asks the person meanwhile.
                    fetch = send("tasks/result", {"taskId": task.task_id})
                    if status == "input_required":
                        raw = await (wait_on_result(fetch) if wait_on_result is not None else fetch)
                    else:
                        raw = await self._timed(fetch, timeout)
                    task.status = "completed"
                    return self._done(task, finish(raw))
                if status == "cancelled":
                    raise TaskCancelled(
                        f"{task.tool} was cancelled" + (f": {task.message}" if task.message else ""),
                    )
                task._wake.clear()
                try:
                    async with asyncio.timeout(poll_interval(wire, task.modern)):
                        await task._wake.wait()
                except TimeoutError:
                    pass
                if task.finished and task.status == "cancelled":
                    wire = {**wire, "status": "cancelled", "statusMessage": task.message}
                    continue
                wire = await self._timed(send("tasks/get", {"taskId": task.task_id}), timeout)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            task.failure = self._mask(str(exc) or type(exc).__name__)
            if not task.finished:
                task.status = "failed"
            self._finished(task)
            raise

    def _done(self, task: RunningTask, result: Any) -> Any:
        task.result = result
        self._finished(task)
        return result

    def _finished(self, task: RunningTask) -> None:
        if self.tasks.get(task.call_id) is task:
            del self.tasks[task.call_id]
        self._emit(task.update())

    @staticmethod
    async def _timed(awaitable: Awaitable[dict[str, Any]], timeout: float) -> dict[str, Any]:
        try:
            async with asyncio.timeout(timeout):
                return await awaitable
        except TimeoutError:
            raise CallTimedOut(
                f"the server did not answer about the task within {timeout:g} s", REQUEST_TIMEOUT
            ) from None

    async def close(self) -> None:
        """The connection ends: stop following (the tasks go on on the server, unknown to us)."""
        followers = [t._follower for t in self.tasks.values() if t._follower is not None]
        for follower in followers:
            follower.cancel()
        for task in list(self.tasks.values()):
            if not task.finished:
                task.status = "failed"
                task.failure = "the connection to the server ended before the task did"
                self._finished(task)
        await asyncio.gather(*followers, return_exceptions=True)


_STATUS_WORDS = {
    "working": "running on the server",
    "input_required": "waiting for your answer",
    "completed": "finished",
    "failed": "failed",
    "cancelled": "cancelled",
}


def status_line(update: TaskUpdate) -> str:
    """One line for a terminal: "TOOL runs as a task: running on the server: step 2 of 3"."""
    said = f": {update.message}" if update.message else ""
    return f"{update.tool} runs as a task: {_STATUS_WORDS.get(update.status, update.status)}{said}"


# ---------------------------------------------------------------- SDK side


def client_extension(board_of: Callable[[], TaskBoard | None]) -> ClientExtension:
    """The SDK `ClientExtension` a connection's `Client` is built with: it names the tasks
    extension in 2026-07-28 per-request capabilities (through a claim on `resultType: "task"`,
    which the SDK advertises only where it is active) and hears 2025-11-25
    `notifications/tasks/status` (not in the SDK's tables, so only an extension binding gets it)."""
    from app.mcp.tasks_sdk import TasksExtension

    return TasksExtension(board_of)
