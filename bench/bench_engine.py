"""Engine benchmarks (issue 3 §6). Prints figures; not a test.

    .venv/bin/python bench/bench_engine.py            # every part, each in a fresh process
    .venv/bin/python bench/bench_engine.py echo       # one part: echo | catalog | qasync
    .venv/bin/python bench/bench_engine.py repeat 7 [--before DIR]   # echo 7 times: median ratios

echo     1,000 `tools/call` echo round trips over stdio to server-everything, through app.mcp and
         through the raw SDK `Client`, on the same server in the same run, interleaved in blocks so
         machine noise hits both alike; each answer is read (its text), as a caller would.
         Goals: p50 ratio app.mcp / SDK <= 1.05, with the traffic log on <= 1.10.
catalog  A replay server with 10,000 tools in pages of 100 (stdio): time from start() until the
         connection is READY with the whole catalog, and a second full re-listing on the live
         connection; peak RSS of this process. Goal: <= 1.5 s.
qasync   20 stdio servers (server-everything) connecting at once on a qasync loop (offscreen Qt):
         wall time until all are READY, and the longest stall of the loop seen by a 5 ms ticker.
         Goal: stall <= 50 ms.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.servers import everything  # noqa: E402
from tests.servers.node import NodeToolsUnavailable  # noqa: E402

CALLS = 1000
BLOCK = 100
WARMUP = 50
TOOLS = 10_000
PAGE = 100
SERVERS = 20
TICK = 0.005


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def server_argv() -> list[str]:
    try:
        return everything.stdio_argv()
    except NodeToolsUnavailable as exc:
        sys.exit(f"server-everything is not installed: {exc}")


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f} ms"


# ------------------------------------------------------------------------------------------ echo


@contextlib.asynccontextmanager
async def echo_arms(argv: list[str], timeout: float = 60) -> AsyncIterator[tuple[dict[str, Any], list[Any]]]:
    """The three arms of the echo figure on one server command: a function per arm that makes
    one echo call and reads its answer, as a caller would (the SDK's blocks' text; app.mcp's
    wire-form content, which ToolCallResult makes when first read), and the traffic events the
    traffic arm's sink keeps unread (as the window's log keeps them until a row is shown).
    Shared with bench/echo_instructions.py."""
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters
    from mcp_types import TextContent

    from app.mcp.connection import ServerConnection
    from app.mcp.target import Target

    command, args = argv[0], tuple(argv[1:])
    target = Target(name="everything", transport="stdio", command=command, args=args, timeout=timeout)
    conn = ServerConnection(target, traffic=False)
    traced: list[Any] = []
    conn_traffic = ServerConnection(target, traffic=True, sink=traced.append)
    for c in (conn, conn_traffic):
        c.start()
        assert (await c.wait_settled(timeout)).value == "ready", c.reason
    params = StdioServerParameters(command=argv[0], args=argv[1:])
    arguments = {"message": "hello"}
    try:
        async with Client(params, cache=None) as client:

            async def sdk_call() -> None:
                answer = await client.call_tool("echo", arguments)
                "\n".join(b.text for b in answer.content if isinstance(b, TextContent))

            async def app_call() -> None:
                (await conn.call_tool("echo", arguments)).text()

            async def app_traffic_call() -> None:
                (await conn_traffic.call_tool("echo", arguments)).text()

            yield {"sdk": sdk_call, "app.mcp": app_call, "app.mcp+traffic": app_traffic_call}, traced
    finally:
        for c in (conn, conn_traffic):
            await c.stop()


async def bench_echo() -> None:
    samples: dict[str, list[float]] = {"sdk": [], "app.mcp": [], "app.mcp+traffic": []}
    cpu: dict[str, float] = dict.fromkeys(samples, 0.0)

    async with echo_arms(server_argv()) as (calls, _traced):
        for call in calls.values():
            for _ in range(WARMUP):
                await call()
        for _ in range(CALLS // BLOCK):
            for name, call in calls.items():
                cpu_started = time.process_time()
                for _ in range(BLOCK):
                    started = time.perf_counter()
                    await call()
                    samples[name].append(time.perf_counter() - started)
                cpu[name] += time.process_time() - cpu_started

    print(f"echo: {CALLS} tools/call round trips over stdio to server-everything (per call)")
    for name, values in samples.items():
        print(
            f"  {name:16s} p50 {ms(statistics.median(values))}  mean {ms(statistics.fmean(values))}"
            f"  p95 {ms(sorted(values)[int(len(values) * 0.95)])}  total {sum(values):.3f} s"
            f"  client CPU {ms(cpu[name] / len(values))}"
        )
    sdk = statistics.median(samples["sdk"])
    for name, goal in (("app.mcp", 1.05), ("app.mcp+traffic", 1.10)):  # issue 12 §3
        ratio = statistics.median(samples[name]) / sdk
        total_ratio = sum(samples[name]) / sum(samples["sdk"])
        cpu_ratio = cpu[name] / cpu["sdk"]
        verdict = "ok" if ratio <= goal else "over the goal"
        print(
            f"  ratio {name}/sdk: p50 {ratio:.3f} (goal <= {goal:.2f}: {verdict}), total {total_ratio:.3f},"
            f" client CPU {cpu_ratio:.3f}"
        )


# --------------------------------------------------------------------------------------- catalog


async def bench_catalog() -> None:
    from app.mcp.connection import ServerConnection
    from app.mcp.target import Target

    target = Target(
        name="replay",
        transport="stdio",
        command=sys.executable,
        args=("-m", "tests.servers.replay_server", "--synthetic-tools", str(TOOLS), "--page-size", str(PAGE)),
        cwd=str(REPO),
        env={"PYTHONPATH": str(REPO)},
        timeout=120,
    )
    rss_before = peak_rss_mb()
    conn = ServerConnection(target, traffic=False)
    started = time.perf_counter()
    conn.start()
    assert (await conn.wait_settled(120)).value == "ready", conn.reason
    ready = time.perf_counter() - started
    assert len(conn.catalog.tools) == TOOLS, len(conn.catalog.tools)
    relist_started = time.perf_counter()
    await conn.refresh("tools")
    relist = time.perf_counter() - relist_started
    rss_after = peak_rss_mb()
    await conn.stop()
    sdk = await sdk_listing(target)
    verdict = "ok" if relist <= 1.5 else "over the goal"
    print(f"catalog: {TOOLS:,} tools in pages of {PAGE} over stdio (replay server, Python SDK)")
    print(f"  start() until READY with every tool: {ready:.3f} s (includes starting the Python server)")
    print(f"  full re-listing on the live connection: {relist:.3f} s (goal <= 1.5 s: {verdict})")
    print(f"  the same listing with the raw SDK Client: {sdk:.3f} s")
    grew = rss_after - rss_before
    print(f"  peak RSS: {rss_after:.0f} MB (before connecting {rss_before:.0f} MB, +{grew:.0f} MB)")


async def sdk_listing(target: Any) -> float:
    """Every page of tools/list through the raw SDK Client, for comparison."""
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    params = StdioServerParameters(
        command=target.command, args=list(target.args), cwd=target.cwd, env=dict(target.env)
    )
    async with Client(params, cache=None) as client:
        started = time.perf_counter()
        count, cursor = 0, None
        while True:
            page = await client.list_tools(cursor=cursor)
            count += len(page.tools)
            cursor = page.next_cursor
            if not cursor:
                break
        elapsed = time.perf_counter() - started
    assert count == TOOLS, count
    return elapsed


# ---------------------------------------------------------------------------------------- qasync


def bench_qasync() -> None:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    import qasync
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    argv = server_argv()

    async def main() -> tuple[float, float, float, int, float]:
        from app.mcp.manager import ConnectionManager
        from app.mcp.target import Target

        stall = 0.0
        ticks = 0
        done = asyncio.Event()

        async def ticker() -> None:
            nonlocal stall, ticks
            while not done.is_set():
                before = loop.time()
                await asyncio.sleep(TICK)
                stall = max(stall, loop.time() - before - TICK)
                ticks += 1

        manager = ConnectionManager(traffic=True, sink=lambda event: None)
        for i in range(SERVERS):
            manager.set_target(
                Target(name=f"s{i:02d}", transport="stdio", command=argv[0], args=tuple(argv[1:]))
            )
        tick_task = asyncio.ensure_future(ticker())
        await asyncio.sleep(0.05)  # the ticker is running before the storm starts
        started = time.perf_counter()
        manager.connect_all()
        states = await manager.wait_settled(120)
        wall = time.perf_counter() - started
        assert all(s.value == "ready" for s in states.values()), states
        connect_stall = stall
        stop_started = time.perf_counter()
        await manager.shutdown()
        stop_wall = time.perf_counter() - stop_started
        done.set()
        await tick_task
        return wall, connect_stall, max(stall, connect_stall), ticks, stop_wall

    with loop:
        wall, connect_stall, overall, ticks, stop_wall = loop.run_until_complete(main())
    verdict = "ok" if connect_stall <= 0.050 else "over the goal"
    print(f"qasync: {SERVERS} stdio servers (server-everything) connecting at once on a qasync loop")
    print(f"  wall time until all READY: {wall:.3f} s")
    print(f"  longest loop stall while connecting (5 ms ticker): {connect_stall * 1000:.1f} ms", end="")
    print(f" (goal <= 50 ms: {verdict}; {ticks} ticks)")
    print(f"  shutdown of all {SERVERS}: {stop_wall:.3f} s", end="")
    print(f"; longest stall including shutdown: {overall * 1000:.1f} ms")


# ------------------------------------------------------------------------------------------ main

PARTS = {
    "echo": lambda: asyncio.run(bench_echo()),
    "catalog": lambda: asyncio.run(bench_catalog()),
    "qasync": bench_qasync,
}


_RATIO = re.compile(r"ratio (\S+)/sdk: p50 ([\d.]+).*total ([\d.]+), client CPU ([\d.]+)")


def repeat_echo(runs: int, before: Path | None) -> None:
    """`echo` `runs` times, each in a fresh process, alternating with the `echo` of the `before`
    tree (its own bench script, so its own app.mcp) when given; the medians of each ratio."""
    scripts = {"": Path(__file__).resolve()}
    if before is not None:
        scripts[" (before)"] = before.resolve() / "bench" / "bench_engine.py"
    ratios: dict[str, list[tuple[float, float, float]]] = {}
    for _ in range(runs):
        for label, script in scripts.items():
            done = subprocess.run(
                [sys.executable, str(script), "echo"], capture_output=True, text=True, check=True
            )
            for m in _RATIO.finditer(done.stdout):
                found = (float(m[2]), float(m[3]), float(m[4]))
                ratios.setdefault(f"{m[1]}{label}", []).append(found)
    load = os.getloadavg()
    print(f"echo, {runs} runs of {CALLS} calls each (fresh processes, alternating), load {load[0]:.2f}")
    print("  medians over the runs of the ratio to the raw SDK Client in the same run:")
    for name, values in ratios.items():
        p50, total, cpu = (statistics.median(v[i] for v in values) for i in range(3))
        each = " ".join(f"{v[0]:.3f}" for v in values)
        print(f"  {name:26s} p50 {p50:.3f}  total {total:.3f}  client CPU {cpu:.3f}   (p50s: {each})")


def main(argv: list[str]) -> int:
    if argv and argv[0] == "repeat":
        runs = int(argv[1]) if len(argv) > 1 else 5
        before = Path(argv[3]) if len(argv) > 3 and argv[2] == "--before" else None
        repeat_echo(runs, before)
        return 0
    if argv:
        for part in argv:
            PARTS[part]()
        return 0
    load = os.getloadavg()
    print(f"bench_engine: {os.cpu_count()} CPUs, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    status = 0
    for part in PARTS:
        done = subprocess.run([sys.executable, __file__, part], check=False)
        status |= done.returncode
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
