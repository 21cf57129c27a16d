"""Async helpers for tests that drive `app.mcp` against real servers: an event log to wait on,
targets for the fault servers, and a check that nothing (task or process) is left behind."""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from tests.servers.process import TOKEN_VAR, processes_with_token, wait_until

FAULTS_DIR = Path(__file__).resolve().parent / "faults"
STDIO_FAULT = FAULTS_DIR / "stdio_fault.py"


POLL = 0.05


class EventLog:
    """A sink that keeps every event and lets a test wait for one, or for a condition (no sleeps).
    The one event collector of the engine tests (tests/mcp) and the fault tests."""

    def __init__(self) -> None:
        self.events: list[Any] = []
        self._changed = asyncio.Event()

    def __call__(self, event: Any) -> None:
        self.events.append(event)
        self._changed.set()

    def of(self, kind: type[Any], server: str | None = None) -> list[Any]:
        return [e for e in self.events if isinstance(e, kind) and (server is None or e.server == server)]

    async def _next_change(self) -> None:
        self._changed.clear()
        await self._changed.wait()

    async def wait_for(self, predicate: Callable[[Any], bool], timeout: float, *, since: int = 0) -> Any:
        """The first event from index `since` on for which `predicate` is true; TimeoutError otherwise."""
        async with asyncio.timeout(timeout):
            seen = since
            while True:
                for event in self.events[seen:]:
                    if predicate(event):
                        return event
                seen = len(self.events)
                await self._next_change()

    async def wait_until(self, condition: Callable[[], Any], timeout: float = 10.0) -> Any:
        """`condition()`'s first truthy value; TimeoutError otherwise. Checked after each event, and
        every `POLL` seconds too: a condition on the connection's state (a refresh count...) may
        become true without an event of its own."""
        async with asyncio.timeout(timeout):
            while not (value := condition()):
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(POLL):
                        await self._next_change()
            return value


def stdio_fault_target(
    name: str, fault: str, env: Mapping[str, str], *, timeout: float = 10.0, mode: str = "auto"
) -> Any:
    from app.mcp.target import Target

    return Target(
        name=name,
        transport="stdio",
        command=sys.executable,
        args=(str(STDIO_FAULT), fault),
        env=dict(env),
        timeout=timeout,
        mode=mode,
    )


@asynccontextmanager
async def nothing_left_behind(env: Mapping[str, str]) -> AsyncIterator[None]:
    """Around a test body: afterwards no new asyncio task may still run, and no process carrying
    the test's token may be alive (both are given a few seconds to finish first)."""
    before = set(asyncio.all_tasks())
    yield
    left = set(asyncio.all_tasks()) - before - {asyncio.current_task()}
    if left:
        await asyncio.wait(left, timeout=5.0)
    running = [t.get_name() for t in left if not t.done()]
    assert running == [], f"tasks left behind: {running}"
    token = env[TOKEN_VAR]
    await asyncio.to_thread(wait_until, lambda: not processes_with_token(token), 10.0)
    assert processes_with_token(token) == [], "processes left behind"
