"""Interoperability: the reference server `@modelcontextprotocol/server-everything` (Node, the
TypeScript SDK's experimental tasks) runs `simulate-research-query` (taskSupport "required") as
a 2025-11-25 task: stages as status messages, and a question to the person while the task is
`input_required`, delivered through `tasks/result` as the TypeScript SDK does."""

from __future__ import annotations

from typing import Any

import pytest

from app.mcp.handlers import ElicitationRequest, ElicitationResponse, SamplingRequest, SamplingResponse
from app.mcp.tasks_events import TaskUpdate
from tests.mcp.conftest import connected
from tests.mcp.test_everything import everything_target

pytestmark = [pytest.mark.anyio, pytest.mark.node]


class Person:
    def __init__(self) -> None:
        self.asked: list[ElicitationRequest] = []

    async def elicit(self, server: str, request: ElicitationRequest) -> ElicitationResponse:
        self.asked.append(request)
        return ElicitationResponse("accept", {"interpretation": "the protocol"})

    async def sample(self, server: str, request: SamplingRequest) -> SamplingResponse:
        return SamplingResponse("decline", None)


@pytest.mark.slow  # the server works four one-second stages
async def test_server_everything_research_task_asks_and_ends(token: str) -> None:
    person = Person()
    updates: list[TaskUpdate] = []

    def sink(event: Any) -> None:
        if isinstance(event, TaskUpdate):
            updates.append(event)

    with everything_target("stdio-legacy", token) as target:
        async with connected(target, sink, handlers=person, settle=60) as conn:  # type: ignore[arg-type]
            assert conn.catalog.tools["simulate-research-query"].raw["execution"]["taskSupport"] == "required"
            result = await conn.call_tool(
                "simulate-research-query", {"topic": "tasks", "ambiguous": True}, call_id="research"
            )
            assert not result.is_error
            assert "Research Report: tasks (the protocol)" in result.text()
            assert len(person.asked) == 1  # asked once, while the task waited for input
            said = [u.message or "" for u in updates if u.call_id == "research"]
            assert any(m.startswith("Gathering sources") for m in said), said
            assert updates[-1].status == "completed"
