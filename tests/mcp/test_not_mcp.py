"""A program that is not an MCP server is told apart early, with what it printed.

The rule (app/mcp/connection.py, NOT_MCP_GRACE and SILENCE_HINT): a local program that prints
text that is not a protocol message on stdout and sends no protocol message within NOT_MCP_GRACE
fails at once; one that repeats its input (`cat`) sends our own request back and is no server
either; one that exits having printed only text says so; one that stays silent is hinted at under
"connecting…" after SILENCE_HINT and, at the connect timeout, said not to look like an MCP
server. A real server that prints a banner on stdout and then answers still connects
(tests/mcp/test_faults.py, test_non_json_on_stdout). Real child processes, no mocks.
Every target's connect timeout is 60 s: settling within the waits below proves the early
answer without timing anything.
"""

from __future__ import annotations

import sys
from typing import Any

import pytest

from app.mcp import connection as connection_module
from app.mcp.connection import ServerConnection
from app.mcp.events import ConnectionState, StateChanged
from app.mcp.reasons import NOT_MCP
from app.mcp.target import Target
from tests.servers.harness import EventLog

pytestmark = pytest.mark.anyio

EARLY = 20.0
"""Well under the 60 s connect timeout: settling within it is the early answer."""


def program(*args: str, env: dict[str, str] | None = None, timeout: float = 60.0) -> Target:
    return Target(
        name="program", transport="stdio", command=args[0], args=args[1:], env=env or {}, timeout=timeout
    )


class Failed:
    """What a connection said when it settled (stop() clears the reason)."""

    def __init__(self, conn: ServerConnection) -> None:
        self.reason = conn.reason
        self.log = list(conn.log)


async def settle(target: Target, wait: float = EARLY, events: EventLog | None = None) -> Failed:
    conn = ServerConnection(target, sink=events)
    conn.start()
    try:
        assert await conn.wait_settled(wait) == ConnectionState.FAILED, conn.reason
        return Failed(conn)
    finally:
        await conn.stop()


async def test_http_server_printing_on_stdout_is_not_mcp() -> None:
    # Unbuffered, `python3 -m http.server` says "Serving HTTP on 127.0.0.1 port …" on stdout.
    conn = await settle(
        program(
            sys.executable, "-m", "http.server", "--bind", "127.0.0.1", "0", env={"PYTHONUNBUFFERED": "1"}
        )
    )
    assert conn.reason is not None
    assert conn.reason.startswith(f"{NOT_MCP}: it printed “Serving HTTP on 127.0.0.1 port")
    assert conn.reason.endswith("instead of answering")
    assert any("Serving HTTP" in line.text for line in conn.log)  # the log shows what it printed


async def test_program_printing_hello_and_staying() -> None:
    conn = await settle(program("sh", "-c", "echo Hello; exec sleep 60"))
    assert conn.reason == f"{NOT_MCP}: it printed “Hello” instead of answering"


async def test_program_printing_hello_and_exiting() -> None:
    conn = await settle(program("sh", "-c", "echo Hello"))
    assert conn.reason == f"{NOT_MCP}: it printed “Hello” and exited with code 0"


async def test_cat_repeats_what_it_is_sent() -> None:
    conn = await settle(program("cat"))
    assert conn.reason == f"{NOT_MCP}: it sends back what it is sent (it repeats its input)"


async def test_silent_program_is_hinted_at_then_not_mcp_at_the_timeout(monkeypatch: Any) -> None:
    # Buffered, http.server prints nothing at all: the hint comes under "connecting…" (the
    # connection goes on: a slow real server is as silent), the timeout's reason names it.
    monkeypatch.setattr(connection_module, "SILENCE_HINT", 0.5)
    events = EventLog()
    conn = await settle(
        program(sys.executable, "-m", "http.server", "--bind", "127.0.0.1", "0", timeout=4.0), events=events
    )
    hints = [
        e
        for e in events.events
        if isinstance(e, StateChanged) and e.state == ConnectionState.CONNECTING and e.reason
    ]
    assert hints and "this may not be an MCP server" in (hints[0].reason or "")
    assert conn.reason == f"{NOT_MCP}: it has not answered in 4 s"
