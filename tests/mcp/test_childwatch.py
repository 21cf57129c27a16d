"""stdio servers are watched by the event loop (a pidfd), not by one waiter thread each: starting
a thread makes the loop wait for it, and twenty servers starting together stalled a GUI's loop."""

from __future__ import annotations

import sys
import threading

import pytest

from app.mcp.events import ConnectionState
from app.mcp.results import CallFailed
from tests.mcp.conftest import connected, sdk_target
from tests.servers.harness import EventLog

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.skipif(sys.version_info >= (3, 12), reason="3.12+ watches children with pidfds itself"),
]


def waiter_threads() -> list[str]:
    # 3.11's threaded watcher names them asyncio-waitpid-N.
    return [t.name for t in threading.enumerate() if "waitpid" in t.name]


async def test_no_waiter_thread_per_server_and_exit_codes_still_arrive() -> None:
    before = waiter_threads()
    events = EventLog()
    async with connected(sdk_target(), events) as conn:
        assert waiter_threads() == before
        with pytest.raises(CallFailed):
            await conn.call_tool("exit", {"code": 7})  # the server exits at once, mid-call
        await events.wait_until(lambda: conn.state == ConnectionState.FAILED)
        assert conn.reason is not None and "exited with code 7" in conn.reason
