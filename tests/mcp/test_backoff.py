"""One reconnect backoff with jitter (app.mcp.manager.Backoff): the waits double up to the cap,
and servers that dropped together are retried spread out, not in lockstep (seeded random)."""

from __future__ import annotations

import asyncio
import random
import re

import pytest

from app.mcp import manager as manager_module
from app.mcp.events import ConnectionState, LogLine
from app.mcp.manager import Backoff, ConnectionManager
from tests.servers.harness import EventLog, stdio_fault_target
from tests.servers.process import TOKEN_VAR, wait_no_processes


def spread(delays: list[float]) -> float:
    return max(delays) - min(delays)


def test_waits_double_up_to_the_cap_each_in_its_upper_half() -> None:
    backoff = Backoff(random.Random(12))
    waits = [backoff.next("a") for _ in range(10)]
    ceilings = [min(manager_module.BACKOFF_FIRST * 2**n, manager_module.BACKOFF_MAX) for n in range(10)]
    for wait, ceiling in zip(waits, ceilings, strict=True):
        assert ceiling / 2 <= wait <= ceiling
    assert waits[-1] <= manager_module.BACKOFF_MAX
    backoff.reset("a")
    assert backoff.next("a") <= manager_module.BACKOFF_FIRST  # back to the first wait


def test_twenty_servers_dropped_together_do_not_come_back_in_lockstep() -> None:
    backoff = Backoff(random.Random(20))
    names = [f"server-{i}" for i in range(20)]
    for attempt in range(4):
        delays = sorted(backoff.next(name) for name in names)
        ceiling = manager_module.BACKOFF_FIRST * 2**attempt
        # Spread over most of the upper half of the ceiling, and never two at the same moment
        # (10 ms apart at least for most: a lockstep backoff gives one value twenty times).
        assert spread(delays) >= 0.3 * ceiling
        assert len({round(d, 2) for d in delays}) >= 15
        # No crowd: fewer than half of them within any twentieth of the ceiling (lockstep: all).
        window = ceiling / 20
        assert max(sum(1 for d in delays if start <= d < start + window) for start in delays) < 10


@pytest.mark.anyio
async def test_the_manager_spreads_the_reconnects_of_servers_that_crashed_together(
    token: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Long waits: the test reads the announced waits and stops before any reconnect happens.
    monkeypatch.setattr(manager_module, "BACKOFF_FIRST", 40.0)
    events = EventLog()
    manager = ConnectionManager(sink=events, traffic=False, backoff=Backoff(random.Random(5)))
    names = [f"crashes-{i}" for i in range(6)]
    for name in names:
        manager.set_target(stdio_fault_target(name, "crash-mid-call", {TOKEN_VAR: token}, mode="legacy"))
    manager.connect_all()
    try:
        conns = [manager.get(name) for name in names]
        assert all(c is not None for c in conns)
        states = await asyncio.gather(*(c.wait_settled(30) for c in conns if c is not None))
        assert set(states) == {ConnectionState.READY}

        async def crash(name: str) -> None:
            conn = manager.get(name)
            assert conn is not None
            with pytest.raises(Exception):  # noqa: B017 - the crash is the point, its type is not
                await conn.call_tool("crash", {})

        await asyncio.gather(*(crash(name) for name in names))

        def announced() -> dict[str, float]:
            found: dict[str, float] = {}
            for line in events.of(LogLine):
                match = re.fullmatch(r"reconnecting in ([\d.]+) s", line.text)
                if match:
                    found[line.server] = float(match.group(1))
            return found

        waits = await events.wait_until(lambda: (w := announced()) and len(w) == len(names) and w, timeout=30)
        assert all(20.0 <= w <= 40.0 for w in waits.values()), waits
        assert len(set(waits.values())) >= len(names) - 1, waits  # not one wait for all of them
        assert spread(list(waits.values())) >= 4.0, waits
    finally:
        await manager.shutdown()
    assert wait_no_processes(token, 5) == []
