"""Wrong tool listings hurt only the wrong tool: one schema nested too deeply for the SDK's parser,
and names listed twice (tests/servers/faults/catalog_fault.py), over stdio and HTTP."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest

from app.mcp.connection import ServerConnection
from app.mcp.events import LogLine
from app.mcp.target import Target
from tests.mcp.conftest import REPO, connected
from tests.servers.faults.catalog_fault import DEEP
from tests.servers.harness import EventLog
from tests.servers.process import ServerProcess

pytestmark = pytest.mark.anyio

FAULT = [sys.executable, "-m", "tests.servers.faults.catalog_fault"]
LEVELS = 2 * DEEP + 1  # each level of properties is two JSON levels, plus the innermost schema
# Longer than `connected`'s settle: a connection that waits out its timeout fails the test.
TIMEOUT = 120.0


def stdio_target(fault: str) -> Target:
    args = (*FAULT[1:], fault)
    return Target(
        name="bad", transport="stdio", command=sys.executable, args=args, cwd=str(REPO), timeout=TIMEOUT
    )


@asynccontextmanager
async def fault_connection(fault: str, transport: str, events: EventLog) -> AsyncIterator[ServerConnection]:
    if transport == "stdio":
        async with connected(stdio_target(fault), events) as conn:
            yield conn
        return
    argv = [*FAULT, fault, "--http", *(["--sse"] if transport == "http-sse" else [])]
    with ServerProcess(argv, cwd=REPO) as server:
        host, port = await asyncio.to_thread(server.wait_listening, 30.0)
        target = Target(name="bad", transport="http", url=f"http://{host}:{port}/mcp", timeout=TIMEOUT)
        async with connected(target, events) as conn:
            yield conn


def warnings(events: EventLog) -> list[str]:
    return [e.text for e in events.of(LogLine) if e.level == "warning"]


@pytest.mark.parametrize("transport", ["stdio", "http-json", "http-sse"])
async def test_one_deep_schema_does_not_sink_the_listing(transport: str) -> None:
    events = EventLog()
    async with fault_connection("deep-schema", transport, events) as conn:
        tools = conn.catalog.tools
        assert list(tools) == ["echo", "deep", "deep_output", "after"]
        deep = tools["deep"]
        assert deep.problem == f"its input description is nested too deeply ({LEVELS} levels)"
        assert not deep.runnable
        assert deep.description == "Its input nests too deeply"
        out = tools["deep_output"]
        assert out.problem == f"its output description is nested too deeply ({LEVELS} levels)"
        assert out.runnable and out.output_schema is None
        assert tools["echo"].problem is None and tools["after"].problem is None
        assert any("'deep' cannot be used: its input description" in w for w in warnings(events))
        assert (await conn.call_tool("after", {"message": "hi"})).text() == "after: hi"
        assert (await conn.call_tool("deep_output", {"message": "x"})).structured_valid is None
        if conn.process is not None:
            assert not conn.process.stdout_noise  # the listing was not taken for stray output


@pytest.mark.parametrize("transport", ["stdio", "http-json"])
async def test_duplicate_names_are_reported_not_merged(transport: str) -> None:
    events = EventLog()
    async with fault_connection("duplicate-tools", transport, events) as conn:
        tools = conn.catalog.tools
        assert list(tools) == ["echo", "twin", "other"]
        assert tools["twin"].description == "The first twin"  # the first is kept, in its place
        assert tools["twin"].listed == 2 and tools["echo"].listed == 1
        said = [w for w in warnings(events) if "twin" in w]
        assert said == ["the server lists 2 tools named 'twin'; only the first is used"]
        # Listing again finds the same mistake: no change, and the log is not repeated.
        assert not (await conn.refresh("tools"))["tools"]
        assert [w for w in warnings(events) if "twin" in w] == said
