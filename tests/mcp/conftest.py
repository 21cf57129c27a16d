"""Shared helpers for the engine tests: real servers to connect to (events are collected with
`tests.servers.harness.EventLog`)."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from app.mcp.connection import ServerConnection
from app.mcp.target import Target
from tests.servers.harness import EventLog
from tests.servers.process import TOKEN_VAR, new_token

REPO = Path(__file__).resolve().parents[2]
SDK_SERVER = REPO / "tests" / "mcp" / "sdk_server.py"
MODES = ["legacy", "auto"]
EXPECTED_VERSION = {"legacy": "2025-11-25", "auto": "2026-07-28", "2026-07-28": "2026-07-28"}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"  # the engine is asyncio (qasync in the GUI)


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
    target: Target, events: EventLog | None = None, *, settle: float = 30, **kw: Any
) -> AsyncIterator[ServerConnection]:
    """A started connection that must become READY within `settle` seconds; stopped after."""
    conn = ServerConnection(target, sink=events, **kw)
    conn.start()
    try:
        state = await conn.wait_settled(settle)
        assert state.name == "READY", conn.reason
        yield conn
    finally:
        await conn.stop()


@pytest.fixture
def token() -> str:
    return new_token()
