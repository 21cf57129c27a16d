"""An MCP server on the official SDK (low-level `Server`) that runs tools as tasks, in both eras.

Run over stdio as `python tests/servers/tasks_server.py [--http] [--no-tasks]`; the client's
first request decides the era. `--no-tasks` offers neither the capability nor the extension (its
task tools then fail as a server without tasks would). The SDK has the task types but no task
machinery (its dispatch tables leave `tasks/*` out), so this server registers the methods itself
with `Server.add_request_handler`:

- 2025-11-25: the `tasks` capability (`tasks.requests.tools.call`, list, cancel); a `tools/call`
  with `params.task` answers `CreateTaskResult` at once and the work goes on in the background;
  `tasks/get`, `tasks/result` (blocks until the task ends), `tasks/cancel`, `tasks/list`, and
  `notifications/tasks/status` on every change.
- 2026-07-28: the `io.modelcontextprotocol/tasks` extension; a `tools/call` whose per-request
  capabilities name the extension answers `resultType: "task"` for the task tools; `tasks/get`
  (the result inline once completed), `tasks/update` (input responses), `tasks/cancel`.

Tools (arguments: `steps`, `delay` seconds per step, `poll_ms` the poll interval the task suggests):
  `long_job` (taskSupport "required"): says "step i of n" as it goes, then "done after n steps".
  `maybe_job` ("optional"): a task when asked for one, else answers at once ("ran directly").
  `stubborn` ("required"): works until cancelled; writes `marker` (a path) when cancelled.
  `broken_job` ("required"): fails with a JSON-RPC error after one step.
  `ask_job` ("required", 2026-07-28): needs the person's city (input_required) before it ends.
  `plain` (no execution field: "forbidden"): answers at once.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import itertools
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import anyio.abc
import mcp_types as types
from mcp.server.lowlevel.server import NotificationOptions, Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import ConfigDict

EXTENSION = "io.modelcontextprotocol/tasks"
CLIENT_CAPS_META = "io.modelcontextprotocol/clientCapabilities"
POLL_MS = 50
TERMINAL = ("completed", "failed", "cancelled")


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat()


def _tool(name: str, description: str, support: str | None) -> types.Tool:
    schema = {
        "type": "object",
        "properties": {
            "steps": {"type": "integer"},
            "delay": {"type": "number"},
            "marker": {"type": "string"},
        },
    }
    extra: dict[str, Any] = {"execution": {"taskSupport": support}} if support else {}
    return types.Tool.model_validate(
        {"name": name, "description": description, "inputSchema": schema, **extra}
    )


TOOLS = [
    _tool("long_job", "Works in steps, as a task", "required"),
    _tool("maybe_job", "A task when asked for one", "optional"),
    _tool("stubborn", "Works until cancelled", "required"),
    _tool("broken_job", "Fails after one step", "required"),
    _tool("ask_job", "Asks for a city while it runs", "required"),
    _tool("plain", "Answers at once", None),
]


@dataclass
class Job:
    task_id: str
    tool: str
    modern: bool
    ttl: int | None
    status: str = "working"
    message: str | None = None
    created: str = field(default_factory=_now)
    updated: str = field(default_factory=_now)
    result: dict[str, Any] | None = None
    error: dict[str, Any] | None = None
    input_requests: dict[str, Any] | None = None
    answers: dict[str, Any] = field(default_factory=dict)
    changed: anyio.Event = field(default_factory=anyio.Event)
    cancel: anyio.CancelScope = field(default_factory=anyio.CancelScope)
    poll_ms: int = POLL_MS

    def wire(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "taskId": self.task_id,
            "status": self.status,
            "createdAt": self.created,
            "lastUpdatedAt": self.updated,
        }
        if self.message is not None:
            data["statusMessage"] = self.message
        if self.modern:
            data["ttlMs"] = self.ttl
            data["pollIntervalMs"] = self.poll_ms
            if self.status == "completed":
                data["result"] = self.result
            elif self.status == "failed":
                data["error"] = self.error
            elif self.status == "input_required":
                data["inputRequests"] = self.input_requests
        else:
            data["ttl"] = self.ttl
            data["pollInterval"] = self.poll_ms
        return data


def _text(text: str, is_error: bool = False) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": text}], "isError": is_error}


class TasksServer(Server[Any]):
    """Adds the 2025-11-25 `tasks` capability on the handshake era."""

    def get_capabilities(
        self, *args: Any, protocol_version: str | None = None, **kw: Any
    ) -> types.ServerCapabilities:
        caps = super().get_capabilities(*args, protocol_version=protocol_version, **kw)
        if protocol_version in MODERN_PROTOCOL_VERSIONS:
            return caps
        tasks = types.ServerTasksCapability(
            list=types.TasksListCapability(),
            cancel=types.TasksCancelCapability(),
            requests=types.ServerTasksRequestsCapability(
                tools=types.TasksToolsCapability(call=types.TasksCallCapability())
            ),
        )
        return caps.model_copy(update={"tasks": tasks})


class _Params(types.RequestParams):
    task_id: str


class _UpdateParams(types.RequestParams):
    task_id: str
    input_responses: dict[str, Any] | None = None


def build_server(group: anyio.abc.TaskGroup, offer_tasks: bool = True) -> Server[Any]:
    jobs: dict[str, Job] = {}
    ids = itertools.count(1)

    async def changed(job: Job, session: Any, status: str | None = None, message: str | None = None) -> None:
        if status is not None:
            job.status = status
        job.message = message if message is not None else job.message
        job.updated = _now()
        job.changed.set()
        job.changed = anyio.Event()
        if not job.modern:
            note = types.TaskStatusNotification(
                params=types.TaskStatusNotificationParams.model_validate(job.wire())
            )
            with contextlib.suppress(Exception):  # the client has gone: the work does not care
                await session.send_notification(note)

    async def work(job: Job, args: dict[str, Any], session: Any) -> None:
        steps = int(args.get("steps", 3))
        delay = float(args.get("delay", 0.02))
        with job.cancel:
            try:
                if job.tool == "stubborn":
                    await changed(job, session, message="working until cancelled")
                    print("stubborn: started", file=sys.stderr, flush=True)
                    await anyio.sleep_forever()
                if job.tool == "broken_job":
                    await anyio.sleep(delay)
                    job.error = {"code": types.INTERNAL_ERROR, "message": "the job broke at step 1"}
                    await changed(job, session, "failed", "the job broke at step 1")
                    return
                for i in range(steps):
                    await anyio.sleep(delay)
                    await changed(job, session, message=f"step {i + 1} of {steps}")
                if job.tool == "ask_job":
                    job.input_requests = {
                        "city-1": {
                            "method": "elicitation/create",
                            "params": {
                                "mode": "form",
                                "message": "Which city?",
                                "requestedSchema": {
                                    "type": "object",
                                    "properties": {"city": {"type": "string", "default": "Oslo"}},
                                },
                            },
                        }
                    }
                    await changed(job, session, "input_required", "waiting for a city")
                    while "city-1" not in job.answers:
                        await job.changed.wait()
                    job.input_requests = None
                    answer = job.answers["city-1"]
                    job.result = _text(f"city: {(answer.get('content') or {}).get('city')}")
                else:
                    job.result = _text(f"done after {steps} steps")
                await changed(job, session, "completed", "finished")
            finally:
                if job.cancel.cancel_called:
                    marker = args.get("marker")
                    if marker:
                        Path(marker).write_text("cancelled")
        if job.cancel.cancel_called:
            with anyio.CancelScope(shield=True):
                await changed(job, session, "cancelled", "cancelled by the client")

    def modern(ctx: Any) -> bool:
        return ctx.protocol_version in MODERN_PROTOCOL_VERSIONS

    def wants_tasks(ctx: Any, params: types.CallToolRequestParams) -> bool:
        if not modern(ctx):
            return params.task is not None
        meta = (ctx.params or {}).get("_meta") or {}
        caps = meta.get(CLIENT_CAPS_META) or {}
        return EXTENSION in (caps.get("extensions") or {})

    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=TOOLS)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> Any:
        name = params.name
        args = params.arguments or {}
        if name == "plain":
            return types.CallToolResult(content=[types.TextContent(type="text", text="plain answer")])
        if name not in {t.name for t in TOOLS}:
            raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {name}")
        if not wants_tasks(ctx, params):
            if name == "maybe_job":
                return types.CallToolResult(content=[types.TextContent(type="text", text="ran directly")])
            if modern(ctx):
                raise MCPError(
                    -32021,
                    "Missing required client capability",
                    {"requiredCapabilities": {"extensions": {EXTENSION: {}}}},
                )
            raise MCPError(types.METHOD_NOT_FOUND, f"{name} must be invoked as a task")
        ttl = params.task.ttl if params.task is not None else 60_000
        job = Job(task_id=f"task-{next(ids)}", tool=name, modern=modern(ctx), ttl=ttl, message="started")
        job.poll_ms = int(args.get("poll_ms", POLL_MS))
        jobs[job.task_id] = job
        group.start_soon(work, job, args, ctx.session)
        if job.modern:
            return _Raw({"resultType": "task", **job.wire()})
        return types.CreateTaskResult(task=types.Task.model_validate(job.wire()))

    def find(task_id: str) -> Job:
        job = jobs.get(task_id)
        if job is None:
            raise MCPError(types.INVALID_PARAMS, f"no task {task_id}")
        return job

    async def get_task(ctx: Any, params: _Params) -> Any:
        job = find(params.task_id)
        if job.modern:
            return _Raw({"resultType": "complete", **job.wire()})
        return types.GetTaskResult.model_validate(job.wire())

    async def task_result(ctx: Any, params: _Params) -> Any:
        job = find(params.task_id)
        while job.status not in TERMINAL:
            await job.changed.wait()
        if job.status == "failed" and job.error is not None:
            raise MCPError(job.error["code"], job.error["message"])
        if job.status == "cancelled":
            raise MCPError(types.INVALID_PARAMS, f"task {job.task_id} was cancelled")
        meta = {"io.modelcontextprotocol/related-task": {"taskId": job.task_id}}
        return types.CallToolResult.model_validate({**(job.result or {}), "_meta": meta})

    async def cancel_task(ctx: Any, params: _Params) -> Any:
        job = find(params.task_id)
        if job.status in TERMINAL:
            raise MCPError(types.INVALID_PARAMS, f"task {job.task_id} has already ended ({job.status})")
        job.cancel.cancel()
        if job.modern:
            return _Raw({"resultType": "complete"})
        return types.CancelTaskResult.model_validate({**job.wire(), "status": "cancelled"})

    async def update_task(ctx: Any, params: _UpdateParams) -> Any:
        job = find(params.task_id)
        job.answers.update(params.input_responses or {})
        job.changed.set()
        job.changed = anyio.Event()
        return _Raw({"resultType": "complete"})

    async def list_tasks(ctx: Any, params: types.PaginatedRequestParams) -> Any:
        return types.ListTasksResult(tasks=[types.Task.model_validate(j.wire()) for j in jobs.values()])

    async def legacy_task_calls(ctx: Any, call_next: Any) -> Any:
        # The runner checks a 2025-era tools/call result against CallToolResult, which a
        # CreateTaskResult is not: a task-augmented call is answered here, before that check.
        raw = ctx.params or {}
        if ctx.method == "tools/call" and not modern(ctx) and raw.get("task") is not None:
            params = types.CallToolRequestParams.model_validate(raw, by_name=False)
            result = await call_tool(ctx, params)
            return result.model_dump(by_alias=True, mode="json", exclude_none=True)
        return await call_next(ctx)

    cls = TasksServer if offer_tasks else Server
    server = cls("tasks-test-server", version="1.0.0", on_list_tools=list_tools, on_call_tool=call_tool)
    if offer_tasks:
        server.middleware.append(legacy_task_calls)
        server.extensions = {EXTENSION: {}}
    server.add_request_handler("tasks/get", _Params, get_task)
    server.add_request_handler("tasks/result", _Params, task_result)
    server.add_request_handler("tasks/cancel", _Params, cancel_task)
    server.add_request_handler("tasks/update", _UpdateParams, update_task)
    server.add_request_handler("tasks/list", types.PaginatedRequestParams, list_tasks)
    return server


class _Raw(types.Result):
    """A result sent as these wire fields (the 2026-07-28 task shapes have no SDK model)."""

    model_config = ConfigDict(extra="allow")

    def __init__(self, data: dict[str, Any]) -> None:
        super().__init__(**data)


async def serve_stdio(offer_tasks: bool) -> None:
    async with anyio.create_task_group() as group, stdio_server() as (read, write):
        server = build_server(group, offer_tasks)
        await server.run(read, write, server.create_initialization_options(NotificationOptions()))
        group.cancel_scope.cancel()


async def serve_http(offer_tasks: bool) -> None:
    """Streamable HTTP on 127.0.0.1 and a free port, announced as `MCP_TEST_LISTENING host:port`."""
    import socket

    import uvicorn

    async with anyio.create_task_group() as group:
        app: Any = build_server(group, offer_tasks).streamable_http_app()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        sock.listen(64)
        print(f"MCP_TEST_LISTENING 127.0.0.1:{sock.getsockname()[1]}", file=sys.stderr, flush=True)
        await uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on")).serve(sockets=[sock])
        group.cancel_scope.cancel()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--http", action="store_true", help="serve Streamable HTTP instead of stdio")
    parser.add_argument("--no-tasks", action="store_true", help="offer no tasks (capability nor extension)")
    args = parser.parse_args()
    anyio.run(serve_http if args.http else serve_stdio, not args.no_tasks)


if __name__ == "__main__":
    main()
