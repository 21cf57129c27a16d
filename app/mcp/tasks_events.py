"""The event a running task publishes (no SDK behind it: the GUI bridge imports it for nothing)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

TaskStatus = Literal["working", "input_required", "completed", "failed", "cancelled"]
TERMINAL_STATUSES: frozenset[str] = frozenset({"completed", "failed", "cancelled"})


@dataclass(frozen=True)
class TaskUpdate:
    """A tool call running as a task on `server` changed: its status or its status message.

    `call_id` is the call's id (as in `Progress`), `task_id` the server's. `left_running` is True
    once the person stopped waiting for it (the engine still follows it). The last update of a
    task has a terminal `status` and, for "completed", `result` (a `ToolCallResult`), else
    `failure` (a plain sentence)."""

    server: str
    call_id: str
    tool: str
    task_id: str
    status: str
    message: str | None
    left_running: bool = False
    result: Any = None
    failure: str | None = None

    @property
    def finished(self) -> bool:
        return self.status in TERMINAL_STATUSES
