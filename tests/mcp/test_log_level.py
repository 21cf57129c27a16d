"""The per-server log level, in both eras: logging/setLevel (2025) and the per-request `_meta`
opt-in (2026-07-28), at connect (the setting) and while connected (`set_log_level`).

Against tests/servers/log_level_server.py: stdio in both eras, stateful HTTP (2025-11-25) and
stateless HTTP (2026-07-28).
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from app.mcp.connection import ServerConnection
from app.mcp.log_level import LEVELS, ServerLogLevel, known_level, stamp_with_level
from app.mcp.target import Target
from tests.mcp.conftest import connected
from tests.servers.process import ServerProcess

pytestmark = pytest.mark.anyio

SERVER = "tests.servers.log_level_server"
CASES = [("stdio", "legacy"), ("stdio", "auto"), ("http", "legacy"), ("http", "auto")]


@contextmanager
def log_server(transport: str, mode: str, **kw: Any) -> Iterator[Target]:
    argv = [sys.executable, "-m", SERVER]
    if transport == "stdio":
        yield Target(name="chatty", transport="stdio", command=argv[0], args=tuple(argv[1:]), mode=mode, **kw)
        return
    stateless = ["--stateless"] if mode != "legacy" else []
    with ServerProcess([*argv, "--http", *stateless]) as proc:
        host, port = proc.wait_listening(30)
        yield Target(name="chatty", transport="http", url=f"http://{host}:{port}/mcp", mode=mode, **kw)


async def chatter(conn: ServerConnection) -> list[str]:
    """Run `chatter` and return the levels of the server's lines it produced (the last one,
    "emergency", is always sent: its arrival means the others came before it)."""
    start = len(conn.log)
    assert (await conn.call_tool("chatter")).text() == "chattered"

    def lines() -> list[str]:
        return [line.level for line in list(conn.log)[start:] if line.source == "server"]

    async def until_last() -> None:
        while "emergency" not in lines():
            await asyncio.sleep(0.02)

    await asyncio.wait_for(until_last(), 10)
    return lines()


def at_least(level: str) -> list[str]:
    return list(LEVELS[LEVELS.index(level) :])


@pytest.mark.parametrize(("transport", "mode"), CASES)
async def test_the_setting_applies_on_connect_and_changes_while_connected(transport: str, mode: str) -> None:
    with log_server(transport, mode, log_level="error") as target:
        async with connected(target) as conn:
            modern = conn.protocol_version == "2026-07-28"
            assert modern == (mode == "auto")
            assert await chatter(conn) == at_least("error")
            said = (await conn.call_tool("level")).text()
            assert said == ("none" if modern else "error")  # 2026-07-28 has no logging/setLevel
            await conn.set_log_level("warning")
            assert await chatter(conn) == at_least("warning")
            await conn.set_log_level("debug")
            assert await chatter(conn) == list(LEVELS)
            assert conn.log_level.chosen == "debug"


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_nothing_chosen(mode: str) -> None:
    """2026-07-28 opts in at "info"; a 2025 server is sent no logging/setLevel (its own default)."""
    with log_server("stdio", mode) as target:
        async with connected(target) as conn:
            if mode == "auto":
                assert await chatter(conn) == at_least("info")
            else:
                assert await chatter(conn) == list(LEVELS)
                assert (await conn.call_tool("level")).text() == "none"


def test_levels() -> None:
    assert known_level(" Warning ") == "warning"
    assert known_level("loud") is None and known_level(3) is None
    assert ServerLogLevel(None).level == "info" and ServerLogLevel("bogus").chosen is None


def test_canary_the_sdk_session_stamp_is_there_and_keeps_our_key() -> None:
    """The 2026 level rides on the session's private `_stamp`: an SDK without it fails here."""
    import anyio
    from mcp.client.session import ClientSession, _make_modern_stamp

    send, receive = anyio.create_memory_object_stream[Any](1)
    with send, receive:
        assert callable(vars(ClientSession(receive, send)).get("_stamp"))
    stamp = _make_modern_stamp("2026-07-28", {}, {}, lambda name, args: {}, log_level="info")
    data: dict[str, Any] = {"method": "tools/list"}
    stamp_with_level(stamp, lambda: "error")(data, {})
    assert data["params"]["_meta"]["io.modelcontextprotocol/logLevel"] == "error"
