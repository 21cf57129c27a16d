"""Requests to the server: call_tool (re-discovery of a tool the server no longer knows,
results, output validation), resources/read, prompts/get, completion, ping, logging."""

from __future__ import annotations

import itertools
import json
import logging
import re
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, cast

import mcp_types as types
from mcp.shared.exceptions import MCPError

from app.mcp.catalog import ToolInfo
from app.mcp.catalog_sync import CatalogSync
from app.mcp.connection_base import _dump
from app.mcp.events import ConnectionState, Progress
from app.mcp.failures import failure_of
from app.mcp.log_level import ServerLogLevel, known_level
from app.mcp.person_requests import PersonRequests
from app.mcp.results import (
    INVALID_PARAMS,
    METHOD_NOT_FOUND,
    REQUEST_TIMEOUT,
    CallFailed,
    CallTimedOut,
    ToolCallResult,
    ToolGone,
    check_structured,
    compile_validator,
)
from app.mcp.tasks import TaskBoard, call_params, plan
from app.mcp.tasks_sdk import (
    RAW_ANSWER,
    as_call_result,
    input_answerer,
    read_call_answer,
    session_requests,
    task_of,
)
from app.mcp.url_elicitation import UrlSteps, required_steps

if TYPE_CHECKING:
    from mcp import Client
    from mcp.client.session import ClientSession
    from mcp.shared.dispatcher import ProgressFnT

logger = logging.getLogger(__name__)

HEADER_MISMATCH = -32020

_UNKNOWN_TOOL = re.compile(
    r"unknown tool|tool[^.]{0,80}not found|no such tool|tool[^.]{0,80}does not exist", re.I
)

_CALL_IDS = itertools.count(1)

_validate_call_request: Callable[[dict[str, Any]], types.CallToolRequest] | None = None


def _call_request(data: dict[str, Any]) -> types.CallToolRequest:
    """`types.CallToolRequest.model_validate(data)` (wire names), from the model's validator
    itself after the first: model_validate's own arguments, and building the request from
    keywords as the SDK does, cost a third of the request (made on every call). The session
    sends it dumped without its None fields, so the wire is the same."""
    global _validate_call_request
    if _validate_call_request is None:
        request = types.CallToolRequest.model_validate(data)  # builds the validator if need be
        _validate_call_request = types.CallToolRequest.__pydantic_validator__.validate_python
        return request
    return _validate_call_request(data)


def _tool_request(
    name: str, arguments: dict[str, Any] | None, responses: types.InputResponses | None, state: str | None
) -> types.CallToolRequest:
    params: dict[str, Any] = {"name": name, "arguments": arguments}
    if responses is not None:
        params["inputResponses"] = responses
    if state is not None:
        params["requestState"] = state
    return _call_request({"method": "tools/call", "params": params})


class Calls(CatalogSync, PersonRequests):
    """What a person (or the CLI) asks of a ready server."""

    log_level: ServerLogLevel
    url_steps: UrlSteps
    tasks: TaskBoard
    """Calls the server runs as tasks (app/mcp/tasks.py); set in ServerConnection.__init__."""

    async def call_tool(
        self,
        name: str,
        arguments: dict[str, Any] | None = None,
        *,
        timeout: float | None = None,
        call_id: str | None = None,
    ) -> ToolCallResult:
        """Call a tool. `isError` results are returned; protocol failures raise `CallFailed`
        (`CallTimedOut` when nothing, not even progress, came within `timeout`; `ToolGone` when
        the server no longer knows the tool even after re-listing). Cancelling the awaiting task
        cancels the call on the server."""
        client = self._require_client()
        call_id = call_id or f"call-{next(_CALL_IDS)}"
        known_before = self.catalog.tools.get(name)
        keeper = self._session_keeper

        def attempt() -> Awaitable[ToolCallResult]:
            # A lost session (HTTP 404) is renewed and the call sent once more (on the client
            # of the renewed session: _call_once looks it up again).
            if keeper.active:
                return keeper.retrying(lambda: self._call_once(name, arguments, timeout, call_id))
            return self._call_once(name, arguments, timeout, call_id)

        try:
            try:
                # Without a session to keep (stdio) the call is awaited as is, on the client just
                # checked, and `attempt` is only used again for the steps below.
                if keeper.active:
                    result = await attempt()
                else:
                    result = await self._call_once(name, arguments, timeout, call_id, client)
            except CallFailed as failure:
                if required_steps(failure) is None:
                    raise
                # -32042: the person's web page step, then the call again (UrlSteps.run, with
                # its first attempt made here: one coroutine fewer on every call).
                result = await self.url_steps.after(f"calling {name}", failure, attempt)
        except CallFailed as exc:
            if exc.code in (INVALID_PARAMS, METHOD_NOT_FOUND) and _UNKNOWN_TOOL.search(exc.message or ""):
                await self._rediscover(name, known_before)
            raise
        if result.is_error and _UNKNOWN_TOOL.search(result.text()):
            await self._rediscover(name, known_before)
        return result

    async def _rediscover(self, name: str, before: ToolInfo | None) -> None:
        """One re-listing after the server did not know a tool; raises ToolGone if it is gone."""
        await self._refresh_kind("tools")
        if name in self.catalog.tools:
            return  # it is there: the failure was something else, let the caller see it
        raise ToolGone(self.name, name, _successor(before, self.catalog.tools), known=before is not None)

    async def _call_once(
        self,
        name: str,
        arguments: dict[str, Any] | None,
        timeout: float | None,
        call_id: str,
        client: Client | None = None,
    ) -> ToolCallResult:
        # What runs on every call is kept to the few calls it needs: the resend after a header
        # mismatch and the input-required rounds are methods made use of only when they happen,
        # the failures are turned into CallFailed by a try (free until something is raised)
        # rather than a `Failures` block, and the task rule is asked only of a tool that may run
        # as a task. Each Python call or object made here cost ~1-2k instructions of the ~45k
        # the engine added to an echo call (bench/echo_instructions.py).
        session = (client or self._require_client()).session
        started = time.perf_counter()
        clock = self._new_clock(timeout)

        async def on_progress(progress: float, total: float | None, message: str | None) -> None:
            clock.alive()  # progress means it is alive: restart the clock (up to its cap)
            said = self._mask(message) if message else message  # a server's words may repeat a key
            self._emit(Progress(self.name, call_id, progress, total, said))

        tool = self.catalog.tools.get(name)  # tasks: app/mcp/tasks.py (its rule: `plan`)
        as_task = (
            tool is not None
            and tool.task_support != "forbidden"
            and not self._modern
            and plan(name, tool.raw, self.capabilities, False) == "task"
        )
        limit = clock.limit
        first: Any
        with clock:
            try:
                if as_task:  # 2025-11-25: a CreateTaskResult is no CallToolResult, so sent raw
                    first = await self._raw_request("tools/call", call_params(name, arguments))
                else:  # the first request sent from here: one coroutine fewer on every message
                    request = _tool_request(name, arguments, None, None)
                    try:
                        first = read_call_answer(
                            await session.send_request(request, RAW_ANSWER, progress_callback=on_progress)
                        )
                    except MCPError as exc:
                        first = await self._resend_call(exc, request, session, on_progress)
                    if isinstance(first, types.InputRequiredResult):
                        rounds = self._call_rounds(name, arguments, session, on_progress)
                        first = await self._drive_input_required(first, rounds)
                if type(first) is types.CallToolResult:
                    final = first  # nearly every answer: no task, nothing to check again
                else:
                    task = task_of(first, self._modern)
                    if task is not None:  # no overall timeout for a task: each of its requests has one
                        clock.unlimited()
                        return await self._follow_task(name, call_id, task, limit, started)
                    final = as_call_result(first)
            except Exception as exc:  # what `self._failures(f"calling {name}")` does
                if isinstance(exc, CallFailed):
                    raise
                raise failure_of(exc, f"calling {name}", self._failure_rules) from exc
        if clock.timed_out:
            if clock.capped:
                raise CallTimedOut(
                    f"{name} did not finish within {clock.cap:g} s, the longest a call may run"
                    " (the server was asked to stop)",
                    REQUEST_TIMEOUT,
                )
            raise CallTimedOut(
                f"{name} did not answer within {clock.limit:g} s (the server was asked to stop)",
                REQUEST_TIMEOUT,
            )
        elapsed = time.perf_counter() - started
        return self._to_result(name, final, elapsed)

    async def _resend_call(
        self, exc: MCPError, request: types.CallToolRequest, session: ClientSession, on_progress: ProgressFnT
    ) -> Any:
        """A tools/call the server refused: sent once more after a header mismatch, else `exc`."""
        if exc.error.code != HEADER_MISMATCH or not self._modern:
            raise exc
        # 2026-07-28: the server thinks our listing is stale; list again and resend once.
        await self._refresh_kind("tools")
        return read_call_answer(
            await session.send_request(request, RAW_ANSWER, progress_callback=on_progress)
        )

    def _call_rounds(
        self, name: str, arguments: dict[str, Any] | None, session: ClientSession, on_progress: ProgressFnT
    ) -> Callable[[types.InputResponses | None, str | None], Awaitable[Any]]:
        """The call sent again with the answers of an input-required round (2026-07-28)."""

        async def send(responses: types.InputResponses | None, state: str | None) -> Any:
            request = _tool_request(name, arguments, responses, state)
            try:
                return read_call_answer(
                    await session.send_request(request, RAW_ANSWER, progress_callback=on_progress)
                )
            except MCPError as exc:
                return await self._resend_call(exc, request, session, on_progress)

        return send

    async def _follow_task(
        self, name: str, call_id: str, task: dict[str, Any], limit: float, started: float
    ) -> ToolCallResult:
        """The server runs this call as a task: follow it to its result (app/mcp/tasks.py)."""
        session = self._require_client().session

        def finish(raw: dict[str, Any]) -> ToolCallResult:
            result = types.CallToolResult.model_validate(raw, by_name=False)
            return self._to_result(name, result, time.perf_counter() - started)

        result = await self.tasks.run(
            call_id=call_id,
            tool=name,
            first=task,
            modern=self._modern,
            send=session_requests(session),
            finish=finish,
            timeout=limit,
            answer=input_answerer(session),
        )
        return cast(ToolCallResult, result)

    async def cancel_task(self, call_id: str) -> bool:
        """Ask the server to cancel a task (one left running too); True once it acknowledged."""
        return await self.tasks.cancel(call_id, session_requests(self._require_client().session))

    def _to_result(self, name: str, result: types.CallToolResult, elapsed: float) -> ToolCallResult:
        structured = result.structured_content
        valid: bool | None = None
        error: str | None = None
        tool = self.catalog.tools.get(name)
        if tool is not None and tool.output_schema is not None and not result.is_error:
            if structured is None:
                valid, error = False, "the tool declares an output schema but sent no structuredContent"
            else:
                cached = self._validators.get(name)
                if cached is None or cached[0] is not tool:
                    try:
                        cached = (tool, compile_validator(tool.output_schema))
                    except Exception as exc:
                        cached = (tool, exc)
                    self._validators[name] = cached
                validator = cached[1]
                if isinstance(validator, Exception):
                    error = f"the output schema cannot be used: {validator}"
                else:
                    error = check_structured(validator, structured)
                valid = error is None
        if not self.target.secret_values:
            # Nothing to mask: the answer is put in wire form when somebody reads it.
            return ToolCallResult.answered(result, valid, error, elapsed)
        raw = self._masked(_dump(result))  # checked as sent, shown masked
        return ToolCallResult(
            content=list(raw.get("content") or []),
            is_error=bool(result.is_error),
            structured_content=raw.get("structuredContent", structured),
            structured_valid=valid,
            structured_error=error,
            elapsed=elapsed,
            raw=raw,
        )

    async def read_resource(self, uri: str) -> dict[str, Any]:
        """resources/read; returns the result dict (`contents`: text or blob entries).

        The SDK's `Client.read_resource` answers a 2026-07-28 server's input-required rounds
        itself (through our elicitation/sampling callbacks); the clock stops while the person
        answers."""
        client = self._require_client()
        with self._failures(f"reading {uri}"):
            result = await self._timed_for_the_server(client.read_resource(uri), f"reading {uri}")
        masked: dict[str, Any] = self._masked(_dump(result))
        return masked

    async def get_prompt(self, name: str, arguments: dict[str, str] | None = None) -> dict[str, Any]:
        """prompts/get; returns the result dict (`description`, `messages`), input-required
        rounds answered by the SDK's `Client.get_prompt` as for `read_resource`."""
        client = self._require_client()
        with self._failures(f"getting prompt {name}"):
            result = await self._timed_for_the_server(
                client.get_prompt(name, arguments), f"getting prompt {name}"
            )
        masked: dict[str, Any] = self._masked(_dump(result))
        return masked

    async def complete(
        self,
        ref: dict[str, Any],
        argument_name: str,
        value: str,
        context_arguments: dict[str, str] | None = None,
    ) -> list[str]:
        """completion/complete for a prompt (`{"type": "ref/prompt", "name": ...}`) or a resource
        template (`{"type": "ref/resource", "uri": ...}`) argument; returns the suggested values."""
        session = self._require_client().session
        typed_ref: types.PromptReference | types.ResourceTemplateReference
        if ref.get("type") == "ref/prompt":
            typed_ref = types.PromptReference.model_validate(ref)
        else:
            typed_ref = types.ResourceTemplateReference.model_validate(ref)
        with self._failures("completion"):
            result = await self._timed(
                session.complete(typed_ref, {"name": argument_name, "value": value}, context_arguments)
            )
        return list(result.completion.values)

    async def ping(self) -> float:
        """Round trip time in seconds (ping; on 2026-07-28, where ping is gone, server/discover)."""
        session = self._require_client().session
        started = time.perf_counter()
        with self._failures("ping"):
            if self._modern:
                await self._timed(session.send_discover(self.protocol_version or ""))
            else:
                await self._timed(session.send_request(types.PingRequest(), types.EmptyResult))
        return time.perf_counter() - started

    async def set_log_level(self, level: str) -> None:
        """The person chose how much this server logs (kept for the next connects): a ready
        2025-era server with the logging capability is sent logging/setLevel; on 2026-07-28 the
        level rides in the `_meta` of every request from the next one on (app.mcp.log_level)."""
        chosen = known_level(level)
        if chosen is None:
            raise ValueError(f"unknown log level {level!r}")
        self.log_level.chosen = chosen
        if self._client is not None and self.state == ConnectionState.READY:
            caps = self.capabilities
            await self.log_level.tell(self._send_set_level, modern=self._modern, capabilities=caps)

    async def _apply_log_level(self, client: Any) -> None:
        """On connect: 2026-07-28 requests carry the current level; a 2025 server is told the
        chosen one (a refusal is logged, the connection goes on)."""
        self.log_level.attach(client.session, modern=self._modern)
        try:
            await self.log_level.tell(
                self._send_set_level, modern=self._modern, capabilities=self.capabilities, on_connect=True
            )
        except CallFailed as exc:
            self._log("warning", "client", f"could not set the log level: {exc}")

    async def _send_set_level(self, level: str) -> None:
        session = self._require_client().session
        with self._failures("logging/setLevel"):
            await self._timed(
                session.send_request(
                    types.SetLevelRequest(params=types.SetLevelRequestParams(level=cast(Any, level))),
                    types.EmptyResult,
                )
            )


def _successor(before: ToolInfo | None, tools: dict[str, ToolInfo]) -> str | None:
    """The tool that looks like a renamed `before`: same description and schemas, else same
    input schema; only an unambiguous match counts."""
    if before is None:
        return None
    same = [t.name for t in tools.values() if t.signature() == before.signature()]
    if len(same) == 1:
        return same[0]
    schema = json.dumps(before.input_schema, sort_keys=True)
    similar = [t.name for t in tools.values() if json.dumps(t.input_schema, sort_keys=True) == schema]
    return similar[0] if len(similar) == 1 else None
