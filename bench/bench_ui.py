"""MCP Desk window figures (issue 5 §8). Prints numbers; not a test.

    .venv/bin/python bench/bench_ui.py              # all three
    .venv/bin/python bench/bench_ui.py start        # cold start: 20 servers configured vs bare PySide6
    .venv/bin/python bench/bench_ui.py filter       # filter keystroke latency on a 10,000-tool server
    .venv/bin/python bench/bench_ui.py rss          # peak RSS with 10 demo servers connected
    BENCH_QPA=xcb xvfb-run -a .venv/bin/python bench/bench_ui.py start   # a real X11 window

Cold start is measured the same way for both: a fresh `python bench/bench_ui.py --child KIND`
process (offscreen Qt, qasync loop) reports the wall-clock moment its main window has painted and
the event loop has taken one more turn (the window answers input); the parent subtracts the moment
it started the process. Runs alternate between the two kinds; medians are printed.
bench/start_instructions.py runs the same two children under callgrind and prints the
instructions each takes to that moment (steadier than the clock on a shared machine).

"20 servers configured, not connected": the app connects every enabled server right after its
first paint (`run_gui` calls `MainWindow.start_engine(connect_enabled=True)` then). The desk child
runs `run_gui`'s own set-up and window opening (`app.ui.main.set_up`, `open_window`: crash
reports, log file, colour scheme, language, single-instance listener, loop) and stops at that
first paint, before the start-up connect; and its 20 servers are configured `"disabled": true` as
well, so nothing could connect (or fork 20 server processes on the two cores) even if it ran on.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
PY = sys.executable


def _env(config_dir: str) -> dict[str, str]:
    env = dict(os.environ)
    # offscreen by default; BENCH_QPA=xcb (under xvfb-run) measures a real X11 window.
    env["QT_QPA_PLATFORM"] = os.environ.get("BENCH_QPA", "offscreen")
    env["MCP_DESK_CONFIG_DIR"] = config_dir
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    # An installed app has its bytecode compiled (pip does it); this sandbox sets
    # PYTHONDONTWRITEBYTECODE, which would make every start recompile every module.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _write_servers(config_dir: str, servers: dict[str, Any]) -> None:
    Path(config_dir, "servers.json").write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")


def _demo() -> dict[str, Any]:
    return {"command": PY, "args": ["-m", "app", "demo-server"]}


# --- children --------------------------------------------------------------------------------
def child_start(kind: str) -> None:
    if kind == "desk":
        _desk_start()
        return
    import asyncio

    import qasync
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QLabel, QMainWindow

    app = QApplication([])
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)

    def report() -> None:
        _report()
        loop.stop()

    class Bare(QMainWindow):
        painted = False

        def paintEvent(self, event: Any) -> None:
            super().paintEvent(event)
            if not self.painted:
                self.painted = True
                QTimer.singleShot(0, report)

    w = Bare()
    w.setCentralWidget(QLabel("hello"))
    w.resize(1280, 820)
    w.show()
    with loop:
        loop.run_forever()


def _desk_start() -> None:
    """The start a person waits for: `run_gui`'s own set-up (crash reports, log file, Qt, colour
    scheme, language, single instance, loop) and its own window opening, up to the loop turn after
    the first paint; the start-up connect that follows is not run."""
    from app.ui.main import open_window, set_up

    started = set_up([])
    assert started is not None

    reported = []

    def painted() -> None:
        _report()
        reported.append(True)
        started.loop.stop()  # as the bare child does: nothing after this is measured

    async def main() -> None:
        # The clock stops on the loop turn after the first paint, as for the bare window.
        await open_window(started, on_painted=painted)

    try:
        with started.loop:
            started.loop.run_until_complete(main())
    except RuntimeError:
        if not reported:
            raise  # not the stop painted() made on purpose
    finally:
        started.close()


def _report() -> None:
    import resource

    ru = resource.getrusage(resource.RUSAGE_SELF)
    print(f"READY {time.time():.6f} {ru.ru_utime + ru.ru_stime:.6f}", flush=True)
    if os.environ.get("BENCH_EXIT_AT_READY"):
        # bench/start_instructions.py: end here, so the instructions counted are those to this
        # moment (nothing of the loop's, the window's or the interpreter's teardown).
        os._exit(0)


def child_rss(n: int) -> None:
    """Connect n configured servers in a full window, then print peak RSS of this process."""
    import asyncio
    import resource

    import qasync
    from PySide6.QtWidgets import QApplication

    app = QApplication([])
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)

    async def main() -> None:
        from app.ui.controller import DeskController
        from app.ui.window import MainWindow

        c = DeskController()
        c.load_config()
        w = MainWindow(c)
        w.show()
        w.start_engine()
        names = await c.connect_enabled()
        for name in names:
            conn = c.connection(name)
            await conn.wait_settled(60)
        ready = sum(1 for r in w.server_model._rows if r.state == "ready")
        # Show one tool form and run one call per server, as a person would.
        for name in names:
            conn = c.connection(name)
            await conn.call_tool("echo", {"message": "hi"})
        w.servers.select(names[0])
        w.catalog.select("tools", names[0], "create_contact")
        await asyncio.sleep(0.2)
        peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        print(f"RSS {ready} {peak_kb / 1024:.1f}", flush=True)
        await c.shutdown()

    with loop:
        loop.run_until_complete(main())


# --- parent ----------------------------------------------------------------------------------
def bench_start(runs: int) -> None:
    with tempfile.TemporaryDirectory() as cfg:
        _write_servers(cfg, {f"server-{i:02d}": {**_demo(), "disabled": True} for i in range(20)})
        times: dict[str, list[float]] = {"bare": [], "desk": []}
        cpu: dict[str, list[float]] = {"bare": [], "desk": []}
        for kind in ("bare", "desk"):  # warm-up (writes bytecode, fills the OS file cache); not counted
            subprocess.run([PY, __file__, "--child", kind], env=_env(cfg), capture_output=True, timeout=120)
        for _ in range(runs):
            for kind in ("bare", "desk"):
                t0 = time.time()
                out = subprocess.run(
                    [PY, __file__, "--child", kind],
                    env=_env(cfg),
                    capture_output=True,
                    text=True,
                    timeout=120,
                )
                line = next((ln for ln in out.stdout.splitlines() if ln.startswith("READY ")), None)
                if line is None:
                    raise SystemExit(f"{kind} child failed:\n{out.stderr}")
                times[kind].append(float(line.split()[1]) - t0)
                cpu[kind].append(float(line.split()[2]))
    bare, desk = statistics.median(times["bare"]), statistics.median(times["desk"])
    print(f"cold start to interactive window, median of {runs}:")
    print(f"  bare PySide6 + qasync window : {bare * 1000:7.0f} ms  (all: {_fmt(times['bare'])})")
    print(f"  MCP Desk, 20 servers config'd: {desk * 1000:7.0f} ms  (all: {_fmt(times['desk'])})")
    print(f"  ratio: {desk / bare:.2f}  (goal <= 1.5)")
    pairs = sorted(d / b for d, b in zip(times["desk"], times["bare"], strict=True))
    print(
        f"  ratio of each back-to-back pair: median {statistics.median(pairs):.2f}, "
        f"min {pairs[0]:.2f}, max {pairs[-1]:.2f}"
    )
    cb, cd = statistics.median(cpu["bare"]), statistics.median(cpu["desk"])
    print(
        f"  CPU time until then (less sensitive to a busy machine): bare {cb * 1000:.0f} ms, "
        f"MCP Desk {cd * 1000:.0f} ms, ratio {cd / cb:.2f}"
    )


def _fmt(xs: list[float]) -> str:
    return ", ".join(f"{x * 1000:.0f}" for x in xs)


def bench_filter() -> None:
    import asyncio

    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    cfg = tempfile.mkdtemp(prefix="mcp-desk-bench-")
    os.environ["MCP_DESK_CONFIG_DIR"] = cfg
    big = {
        "command": PY,
        "args": ["-m", "tests.servers.replay_server", "--synthetic-tools", "10000", "--page-size", "100"],
        "cwd": str(REPO),
    }
    _write_servers(cfg, {"big": big})
    import qasync
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    app = QApplication([])
    # A loop that counts as running while we pump Qt events by hand (as the UI tests do).
    loop = qasync.QEventLoop(app, already_running=True)
    asyncio.set_event_loop(loop)
    from app.ui.controller import DeskController
    from app.ui.window import MainWindow

    c = DeskController()
    c.load_config()
    w = MainWindow(c)
    w.resize(1280, 820)
    w.show()
    w.start_engine()
    task = asyncio.ensure_future(c.connect_server("big"))
    t0 = time.perf_counter()
    deadline = t0 + 120
    from PySide6.QtCore import QEventLoop

    while time.perf_counter() < deadline:
        # Sleep until something happens (a busy loop here would starve the server process).
        app.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)
        row = w.server_model.server("big")
        if task.done() and row is not None and row.state in ("ready", "failed"):
            break
    row = w.server_model.server("big")
    if row is None or row.state != "ready":
        raise SystemExit(f"10,000-tool server not ready: {row}")
    w.servers.select("big")
    app.processEvents()
    print(
        f"10,000-tool server ready and listed after {time.perf_counter() - t0:.2f} s "
        f"({w.catalog.proxies['tools'].rowCount()} rows shown)"
    )
    search = w.catalog.search
    search.setFocus()
    lat: list[float] = []
    worst: list[tuple[float, str]] = []
    for word in ("tool_0", "tool_09", "number 42", "synthetic"):
        for ch in word:
            t = time.perf_counter()
            prof = None
            if os.environ.get("BENCH_PROFILE") == search.text() + ch:
                import cProfile

                prof = cProfile.Profile()
                prof.enable()
            QTest.keyClick(search, ch)
            app.processEvents()  # the proxy re-filters and the list repaints
            if prof is not None:
                import pstats

                prof.disable()
                pstats.Stats(prof).sort_stats("tottime").print_stats(12)
            lat.append(time.perf_counter() - t)
            worst.append((lat[-1], search.text()))
        for _ in word:
            t = time.perf_counter()
            QTest.keyClick(search, Qt.Key.Key_Backspace)
            app.processEvents()
            lat.append(time.perf_counter() - t)
    lat_ms = sorted(x * 1000 for x in lat)
    print(f"filter keystroke to updated list over {len(lat_ms)} keystrokes on 10,000 tools:")
    print(
        f"  median {statistics.median(lat_ms):.1f} ms, p90 {lat_ms[int(len(lat_ms) * 0.9)]:.1f} ms, "
        f"max {lat_ms[-1]:.1f} ms  (goal <= 30 ms)"
    )
    slow = ", ".join(f"{t * 1000:.0f} ms for {q!r}" for t, q in sorted(worst, reverse=True)[:3])
    print(f"  slowest typed keystrokes: {slow}")
    task = asyncio.ensure_future(c.shutdown())
    while not task.done():
        app.processEvents()
    asyncio.events._set_running_loop(None)
    loop.stop()
    loop.close()  # joins the worker threads


def bench_rss(n: int = 10) -> None:
    with tempfile.TemporaryDirectory() as cfg:
        _write_servers(cfg, {f"demo-{i:02d}": _demo() for i in range(n)})
        out = subprocess.run(
            [PY, __file__, "--child-rss", str(n)], env=_env(cfg), capture_output=True, text=True, timeout=300
        )
        line = next((ln for ln in out.stdout.splitlines() if ln.startswith("RSS ")), None)
        if line is None:
            raise SystemExit(f"rss child failed:\n{out.stderr}")
        _, ready, mb = line.split()
        print(
            f"peak RSS of the GUI process with {ready}/{n} demo servers connected (one call each, "
            f"a form open): {float(mb):.0f} MB  (goal <= 250 MB; server processes not included)"
        )


def main(argv: list[str]) -> None:
    if argv[:1] == ["--child"]:
        child_start(argv[1])
        return
    if argv[:1] == ["--child-rss"]:
        child_rss(int(argv[1]))
        return
    what = argv[0] if argv else "all"
    if what in ("start", "all"):
        bench_start(int(os.environ.get("BENCH_RUNS", "7")))
    if what in ("rss", "all"):
        bench_rss()
    if what in ("filter", "all"):
        bench_filter()


if __name__ == "__main__":
    main(sys.argv[1:])
