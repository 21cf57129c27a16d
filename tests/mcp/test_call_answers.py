"""A `tools/call` answer is read as the discriminated shape says, shortcut or not
(tasks_sdk.read_call_answer)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from app.mcp.tasks_sdk import CALL_SHAPE, read_call_answer

TEXT = [{"type": "text", "text": "Echo: hello"}]
ASK = {"a": {"method": "roots/list"}}

ANSWERS: list[dict[str, Any]] = [
    {"content": TEXT},
    {"content": []},
    {"content": TEXT, "isError": True, "structuredContent": {"n": 1}, "_meta": {"k": 1}, "extra": 5},
    {"content": TEXT, "resultType": "complete"},
    {"content": TEXT, "resultType": "input_required"},
    {"content": TEXT, "inputRequests": {}, "requestState": None},
    {"content": TEXT, "requestState": "s"},
    {"content": TEXT, "inputRequests": ASK},
    {"content": TEXT, "inputRequests": ASK, "requestState": "s"},
    {"resultType": "input_required", "requestState": "s"},
    {"inputRequests": ASK},
    {"resultType": "task", "taskId": "t1", "status": "working"},
    {"resultType": "task", "taskId": "t1", "status": "working", "content": TEXT},  # a task all the same
    {"content": [{"type": "image", "data": "aGk=", "mimeType": "image/png"}]},
    {"content": "not a list"},
    {},
]


def _read(read: Any, answer: dict[str, Any]) -> tuple[str, Any, Any]:
    try:
        value = read(dict(answer))
    except ValidationError as exc:
        return ("error", str(exc), None)
    dumped = value.model_dump(by_alias=True, mode="json", exclude_unset=True)
    return (type(value).__name__, dumped, value.model_fields_set)


@pytest.mark.parametrize("answer", ANSWERS, ids=[str(i) for i in range(len(ANSWERS))])
def test_the_shortcut_reads_every_answer_as_the_whole_shape_does(answer: dict[str, Any]) -> None:
    whole = TypeAdapter(CALL_SHAPE)
    assert _read(read_call_answer, answer) == _read(
        lambda raw: whole.validate_python(raw, by_name=False), answer
    )
