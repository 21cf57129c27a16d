"""The SDK side of tasks: the client extension, the 2026-07-28 task shape, the task requests.

Only public SDK API here: `ClientExtension` (claims, notification bindings) and
`ClientSession.send_request` with request models of our own (the SDK has the 2025-11-25 task
request types but leaves `tasks/*` out of its tables; a method it does not know is sent as is and
its answer comes back as the dict we ask for). `name_param = "taskId"` makes the SDK set the
`Mcp-Name` header SEP-2663 requires for `tasks/*` over Streamable HTTP.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal

import mcp_types as types
from mcp.client.extension import ClaimContext, ClientExtension, NotificationBinding, ResultClaim
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import ConfigDict, Discriminator, Tag, TypeAdapter, ValidationError

from app.mcp.tasks import EXTENSION, InputAnswerer, TaskRequests

if TYPE_CHECKING:
    from mcp.client.session import ClientSession

    from app.mcp.tasks import TaskBoard

logger = logging.getLogger(__name__)


class _AnyResult(types.Result):
    """Any answer, its wire fields kept (a task request's answer has no SDK model to check)."""

    model_config = ConfigDict(extra="allow")


class CreatedTask(types.Result):
    """2026-07-28 `CreateTaskResult` (`resultType: "task"`, the task's fields inline)."""

    model_config = ConfigDict(extra="allow")

    result_type: Literal["task"] = "task"
    task_id: str
    status: str
    status_message: str | None = None
    created_at: str | None = None
    last_updated_at: str | None = None
    ttl_ms: int | None = None
    poll_interval_ms: int | None = None


class _TaskIdParams(types.RequestParams):
    task_id: str


class _UpdateParams(types.RequestParams):
    task_id: str
    input_responses: dict[str, Any]


class _TaskRequest(types.Request[_TaskIdParams, str]):
    name_param: ClassVar[str | None] = "taskId"
    method: str
    params: _TaskIdParams


class _UpdateRequest(types.Request[_UpdateParams, Literal["tasks/update"]]):
    name_param: ClassVar[str | None] = "taskId"
    method: Literal["tasks/update"] = "tasks/update"
    params: _UpdateParams


def session_requests(session: ClientSession) -> TaskRequests:
    """`TaskRequests` over an SDK session: `tasks/get|result|cancel|update` as raw dicts."""

    async def send(method: str, params: dict[str, Any]) -> dict[str, Any]:
        request: types.Request[Any, Any]
        if method == "tasks/update":
            request = _UpdateRequest(
                params=_UpdateParams(task_id=params["taskId"], input_responses=params["inputResponses"])
            )
        else:
            request = _TaskRequest(method=method, params=_TaskIdParams(task_id=params["taskId"]))
        answer = await session.send_request(request, _AnyResult)
        return answer.model_dump(by_alias=True, mode="json", exclude_none=True)

    return send


class TasksExtension(ClientExtension):
    identifier = EXTENSION

    def __init__(self, board_of: Callable[[], TaskBoard | None]) -> None:
        self._board_of = board_of

    def claims(self) -> Sequence[ResultClaim[Any]]:
        return (
            ResultClaim(
                result_type="task",
                model=CreatedTask,
                resolve=self._resolve,
                protocol_versions=frozenset(MODERN_PROTOCOL_VERSIONS),
            ),
        )

    def notifications(self) -> Sequence[NotificationBinding[Any]]:
        return (
            NotificationBinding(
                method="notifications/tasks/status",
                params_type=types.TaskStatusNotificationParams,
                handler=self._on_status,
            ),
        )

    async def _on_status(self, params: types.TaskStatusNotificationParams) -> None:
        board = self._board_of()
        if board is not None:
            board.on_status(params.model_dump(by_alias=True, mode="json", exclude_none=True))

    async def _resolve(self, created: CreatedTask, ctx: ClaimContext) -> types.CallToolResult:
        """`Client.call_tool` met a task (a plain SDK client: the engine follows tasks itself)."""
        from app.mcp.tasks import TaskBoard

        board = self._board_of() or TaskBoard("", lambda update: None)
        raw = await board.run(
            call_id=f"sdk-{created.task_id}",
            tool=ctx.tool_name,
            first=created.model_dump(by_alias=True, mode="json", exclude_none=True),
            modern=True,
            send=session_requests(ctx.session),
            finish=lambda raw: raw,
            timeout=ctx.read_timeout_seconds or 60.0,
        )
        return types.CallToolResult.model_validate(raw, by_name=False)


def _route(value: Any) -> str:
    tag = value.get("resultType") if isinstance(value, dict) else getattr(value, "result_type", None)
    return "task" if tag == "task" else "core"


CALL_SHAPE: Any = Annotated[
    Annotated[types.CallToolResult | types.InputRequiredResult, Tag("core")]
    | Annotated[CreatedTask, Tag("task")],
    Discriminator(_route),
]
CALL_RESULT: TypeAdapter[types.CallToolResult | types.InputRequiredResult | CreatedTask] = TypeAdapter(
    CALL_SHAPE
)
"""A `tools/call` answer on 2026-07-28 with the tasks extension named: the result, an
`InputRequiredResult`, or a task (told apart by `resultType`, as the SDK's own claim adapter does).
Read through `read_call_answer`."""

RAW_ANSWER: TypeAdapter[Any] = TypeAdapter(Any)
"""The answer as it came (the session's `send_request` checks nothing): `read_call_answer` reads it."""

_validate_call_tool_result = types.CallToolResult.__pydantic_validator__.validate_python


def read_call_answer(raw: Any) -> types.CallToolResult | types.InputRequiredResult | CreatedTask:
    """`CALL_RESULT.validate_python(raw, by_name=False)`, with a shortcut for the answer nearly
    every call gets.

    The "core" arm is the SDK's own smart union `CallToolResult | InputRequiredResult`: it checks
    an answer against both models, and the `InputRequiredResult` attempt fails (after building
    a ValidationError) on every plain result, a third of checking the answer. That attempt can
    only succeed when the answer has `inputRequests` (non-empty) or a `requestState` (its model
    requires one of them), so an answer with neither, and no task, is checked as
    `CallToolResult` alone: what the union gives when only that member can succeed. If that
    fails too, the whole shape checks it again, so the error is the one it always was."""
    if (
        type(raw) is dict
        and not raw.get("inputRequests")
        and raw.get("requestState") is None
        and raw.get("resultType") != "task"
    ):
        try:
            result: types.CallToolResult = _validate_call_tool_result(raw, by_name=False)
        except ValidationError:
            pass
        else:
            return result
    return CALL_RESULT.validate_python(raw, by_name=False)


def task_of(result: Any, modern: bool) -> dict[str, Any] | None:
    """The task a `tools/call` answer started (a `CreatedTask`, or a raw 2025-era dict), else None."""
    from app.mcp.tasks import created_task

    if isinstance(result, CreatedTask):
        return result.model_dump(by_alias=True, mode="json", exclude_none=True)
    if isinstance(result, dict):
        return created_task(result, modern)
    return None


def as_call_result(result: Any) -> types.CallToolResult:
    """A `tools/call` answer that is no task, as the SDK's `CallToolResult` (a raw dict checked)."""
    if isinstance(result, types.CallToolResult):
        return result
    return types.CallToolResult.model_validate(result, by_name=False)


_INPUT_REQUEST: TypeAdapter[types.InputRequest] = TypeAdapter(types.InputRequest)


def input_answerer(session: ClientSession) -> InputAnswerer:
    """2026-07-28: a task's `inputRequests` answered through the session's own callbacks (the
    connection's elicitation, sampling and roots handlers: the person is asked as for any call)."""
    from mcp.client.session import ClientRequestContext

    from app.mcp.results import CallFailed

    async def answer(requests: dict[str, Any]) -> dict[str, Any]:
        responses: dict[str, Any] = {}
        for key, wire in requests.items():
            request = _INPUT_REQUEST.validate_python(wire, by_name=False)
            meta = request.params.meta if request.params is not None else None
            ctx = ClientRequestContext(session=session, request_id=key, meta=meta)
            response = await session.dispatch_input_request(ctx, request)
            if isinstance(response, types.ErrorData):
                raise CallFailed(response.message, response.code)
            responses[key] = response.model_dump(by_alias=True, mode="json", exclude_none=True)
        return responses

    return answer
