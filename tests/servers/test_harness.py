"""The shared event log of the engine and fault tests: waiting for an event, or for a condition."""

from __future__ import annotations

import asyncio

import pytest

from tests.servers.harness import EventLog

pytestmark = pytest.mark.anyio


async def test_wait_for_an_event_and_until_a_condition() -> None:
    log = EventLog()
    log("early")

    async def later() -> None:
        await asyncio.sleep(0)
        log("late")
        log(3)

    task = asyncio.create_task(later())
    assert await log.wait_for(lambda e: e == "late", 5.0) == "late"
    assert await log.wait_until(lambda: log.of(int), 5.0) == [3]
    assert await log.wait_for(lambda e: isinstance(e, str), 5.0, since=1) == "late"
    await task
    state = {"ready": False}
    asyncio.get_running_loop().call_later(0.01, state.update, {"ready": True})  # no event for this one
    assert await log.wait_until(lambda: state["ready"], 5.0) is True
    with pytest.raises(TimeoutError):
        await log.wait_until(lambda: "never" in log.events, 0.05)
