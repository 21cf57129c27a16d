"""Shared helpers for the engine tests: real servers, an event collector, and waits with timeouts."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from app.mcp.connection import ServerConnection
from app.mcp.events import Event
from app.mcp.target import Target
from tests.servers.process import TOKEN_VAR, new_token

REPO = Path(__file__).resolve().parents[2]
SDK_SERVER = REPO / "tests" / "mcp" / "sdk_server.py"
MODES = ["legacy", "auto"]
EXPECTED_VERSION = {"legacy": "2025-11-25", "auto": "2026-07-28", "2026-07-28": "2026-07-28"}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"  # the engine is asyncio (qasync in the GUI)


class Events:
    """Collects events from a sink; `wait_for` waits on a condition without fixed sleeps."""

    def __init__(self) -> None:
        self.items: list[Event] = []
        self._changed = asyncio.Event()

    def __call__(self, event: Event) -> None:
        self.items.append(event)
        self._changed.set()

    def of(self, kind: type[Any]) -> list[Any]:
        return [e for e in self.items if isinstance(e, kind)]

    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 10.0) -> Any:
        async def loop() -> Any:
            while True:
                value = predicate()
                if value:
                    return value
                self._changed.clear()
                await self._changed.wait()

        return await asyncio.wait_for(loop(), timeout)


def sdk_target(
    name: str = "sdk", mode: str = "legacy", *extra: str, token: str | None = None, **kw: Any
) -> Target:
    env = dict(kw.pop("env", {}))
    if token:
        env[TOKEN_VAR] = token
    return Target(
        name=name,
        transport="stdio",
        command=sys.executable,
        args=(str(SDK_SERVER), *extra),
        env=env,
        mode=mode,
        **kw,
    )


def demo_target(name: str = "demo", mode: str = "legacy", **kw: Any) -> Target:
    return Target(
        name=name,
        transport="stdio",
        command=sys.executable,
        args=("-m", "app", "demo-server"),
        cwd=str(REPO),
        mode=mode,
        **kw,
    )


@asynccontextmanager
async def connected(
    target: Target, events: Events | None = None, **kw: Any
) -> AsyncIterator[ServerConnection]:
    conn = ServerConnection(target, sink=events, **kw)
    conn.start()
    try:
        state = await conn.wait_settled(30)
        assert state.name == "READY", conn.reason
        yield conn
    finally:
        await conn.stop()


@pytest.fixture
def token() -> str:
    return new_token()
