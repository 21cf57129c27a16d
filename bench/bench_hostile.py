"""MCP Desk against a hostile server (issue 8): how long the window freezes, how much memory it takes.

    .venv/bin/python bench/bench_hostile.py                  # every scenario
    .venv/bin/python bench/bench_hostile.py result-5mb name  # some of them (names as in the table)
    BENCH_CAP=60 .venv/bin/python bench/bench_hostile.py     # give up on a scenario after 60 s
    BENCH_RUNS=1 .venv/bin/python bench/bench_hostile.py     # one process per scenario (default 3)
    BENCH_PROFILE=/tmp/p.out .venv/bin/python bench/bench_hostile.py name   # cProfile the measured part

Each scenario runs in a fresh `python bench/bench_hostile.py --child SCENARIO` process (offscreen Qt,
the real main window on a temporary config folder with one server,
`tests/servers/faults/hostile_server.py`). A QTimer firing every 5 ms records the longest gap
between two firings: the longest time the Qt event loop could not answer the person (a click, a
repaint). The child connects (that gap is the "connect" column), selects the server and shows the
tool `echo` (the first tool shown builds the panel: a one-time cost), then measures what a person
would do next:

  result-*     select the tool `big`, press Run, wait for the answer, repaint the window
  description  select the tool `described` (5 MB description), repaint
  name         select the server (its list shows a tool with a 100 KB name), select that tool, repaint
  tools-50k    select one tool of 50,000 (by the program, then by a click on another row)

and then lets the loop run idle for half a second more (late layouts and paints count too).

Memory: VmHWM (this process's peak resident size) at the end, minus VmRSS just before the measured
part (the window open and connected). Anything the engine and the SDK hold of the payload (the line
read from the pipe, the parsed message) is in it as well as what the window adds; for answers,
"view" is the window's own share: VmRSS after the answer is shown minus VmRSS just before.

A child whose loop is still frozen `BENCH_CAP` seconds (default 60) after the measured part started
is killed and reported as "> 60 s" (its memory figure is then its peak until it was killed).
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
PY = sys.executable
MB = 1_000_000

# name: (hostile_server options, payload bytes, what the child does)
SCENARIOS: dict[str, tuple[list[str], int, str]] = {
    "result-1mb": (["--result-bytes", str(1 * MB)], 1 * MB, "run"),
    "result-5mb": (["--result-bytes", str(5 * MB)], 5 * MB, "run"),
    "result-100mb": (["--result-bytes", str(100 * MB)], 100 * MB, "run"),
    "description": (["--description-bytes", str(5 * MB)], 5 * MB, "describe"),
    "name": (["--name-bytes", str(100_000)], 100_000, "name"),
    "tools-50k": (["--tools", "50000"], 0, "select"),
    # The same selection among 10 tools: what showing any tool costs, for comparison.
    "tools-10": (["--tools", "10"], 0, "select"),
}
LABELS = {
    "result-1mb": "1 MB single-line result",
    "result-5mb": "5 MB single-line result",
    "result-100mb": "100 MB single-line result",
    "description": "5 MB tool description",
    "name": "100 KB tool name",
    "tools-50k": "50,000 tools: select one",
    "tools-10": "(10 tools: select one)",
}


def _status_kb(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def _pid_status_kb(pid: int, field: str) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


# --- child -----------------------------------------------------------------------------------
def child(scenario: str) -> None:
    import asyncio

    import qasync
    from PySide6.QtCore import Qt, QTimer
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    _options, _payload, action = SCENARIOS[scenario]
    app = QApplication([])
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)

    class StallMeter:
        """The longest gap between two firings of a 5 ms timer (minus the 5 ms it waits anyway)."""

        def __init__(self) -> None:
            self.timer = QTimer()
            self.timer.setInterval(5)
            self.timer.timeout.connect(self._tick)
            self.last = 0.0
            self.worst = 0.0

        def start(self) -> None:
            self.last = time.perf_counter()
            self.worst = 0.0
            self.timer.start()

        def _tick(self) -> None:
            now = time.perf_counter()
            self.worst = max(self.worst, now - self.last)
            self.last = now

        def stop(self) -> float:
            self._tick()  # a freeze that lasted until now counts too
            self.timer.stop()
            return max(0.0, self.worst - 0.005)

    profiler: list[Any] = []

    def profile_start() -> None:
        if os.environ.get("BENCH_PROFILE"):
            import cProfile

            profiler.append(cProfile.Profile())
            profiler[0].enable()

    def profile_stop() -> None:
        if profiler:
            profiler[0].disable()
            profiler[0].dump_stats(os.environ["BENCH_PROFILE"])

    async def turns(seconds: float) -> None:
        """Let the loop run (paints, late layouts) for `seconds`."""
        await asyncio.sleep(seconds)

    async def main() -> None:
        from app.ui.controller import DeskController
        from app.ui.window import MainWindow

        c = DeskController()
        c.load_config()
        w = MainWindow(c)
        w.resize(1280, 820)
        w.show()
        w.start_engine()
        # The engine is imported on a worker thread: wait for it before importing anything else
        # (two threads importing pydantic at once can meet a half-initialised module).
        await c.ensure_engine()
        # The first tool shown imports the forms package (and jsonschema), the first connection
        # the transport and the SDK client: one-time costs of any server, paid before measuring.
        import mcp.client.session  # noqa: F401

        import app.mcp.stdio
        import app.mcp.target
        import app.ui.forms  # noqa: F401

        await turns(0.3)
        meter = StallMeter()
        view_rss: list[int] = []
        # Connecting (listing the catalog, filling the lists) is measured on its own.
        meter.start()
        await c.connect_server("hostile")
        conn = c.connection("hostile")
        assert conn is not None
        await conn.wait_settled(120)
        for _ in range(600):  # the window hears of it through the bridge, a few turns later
            row = w.server_model.server("hostile")
            if row is not None and row.state in ("ready", "failed"):
                break
            await asyncio.sleep(0.05)
        if row is None or row.state != "ready":
            raise SystemExit(f"hostile server not ready: {row}")
        await turns(0.3)
        connect_stall = meter.stop()
        if action != "name":
            w.servers.select("hostile")
            await turns(0.3)
            # The first tool shown builds the tool panel: a one-time cost, paid on `echo`.
            w.catalog.select("tools", "hostile", "echo")
            await turns(0.3)
        baseline = _status_kb("VmRSS")
        print(f"MEASURE {connect_stall * 1000:.1f}", flush=True)
        meter.start()
        profile_start()
        if action == "run":
            w.catalog.select("tools", "hostile", "big")
            await turns(0.1)
            done = asyncio.Event()
            w.call_finished.connect(lambda *_: done.set())
            result_view = w.tool_panel.result
            show_result = result_view.show_result

            def measured_show(*args: Any, **kwargs: Any) -> None:
                # What the view itself keeps: resident size before the answer is shown, and after.
                view_rss.append(_status_kb("VmRSS"))
                show_result(*args, **kwargs)

            result_view.show_result = measured_show  # type: ignore[method-assign]
            w.tool_panel.run_button.click()
            await done.wait()
        elif action == "describe":
            w.catalog.select("tools", "hostile", "described")
        elif action == "name":
            w.servers.select("hostile")
            await turns(0.1)
            long_name = next(it.key for it in w.catalog.models["tools"].items() if len(it.key) > 1000)
            w.catalog.select("tools", "hostile", long_name)
        elif action == "select":
            await turns(0.1)
            w.catalog.select("tools", "hostile", "tool_25000" if scenario == "tools-50k" else "tool_00005")
            await turns(0.2)
            # And as a person does it: a click on another row of the list.
            view = w.catalog.views["tools"]
            idx = view.model().index(view.currentIndex().row() + 3, 0)
            view.scrollTo(idx)
            await turns(0.1)
            QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=view.visualRect(idx).center())
        await turns(0.05)
        w.repaint()  # what a real window does next; offscreen, the backing store is painted too
        await turns(0.5)
        stall = meter.stop()
        profile_stop()
        peak = _status_kb("VmHWM")
        view_mb = (_status_kb("VmRSS") - view_rss[0]) / 1024 if view_rss else 0.0
        print(f"RESULT {stall * 1000:.1f} {(peak - baseline) / 1024:.1f} {view_mb:.1f}", flush=True)
        await c.shutdown()

    with loop:
        loop.run_until_complete(main())


# --- parent ----------------------------------------------------------------------------------
def _env(config_dir: str) -> dict[str, str]:
    env = dict(os.environ)
    env["QT_QPA_PLATFORM"] = os.environ.get("BENCH_QPA", "offscreen")
    env["MCP_DESK_CONFIG_DIR"] = config_dir
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as bench_ui: an installed app has its bytecode
    return env


def run_scenario(name: str, cap: float) -> tuple[str, str, float, str]:
    """(stall, memory, payload MB, stall while connecting) of one scenario in a fresh process."""
    options, payload, _ = SCENARIOS[name]
    with tempfile.TemporaryDirectory(prefix="mcp-desk-hostile-") as cfg:
        server = {
            "command": PY,
            "args": ["-m", "tests.servers.faults.hostile_server", *options],
            "cwd": str(REPO),
        }
        Path(cfg, "servers.json").write_text(
            json.dumps({"mcpServers": {"hostile": server}}), encoding="utf-8"
        )
        proc = subprocess.Popen(
            [PY, __file__, "--child", name],
            env=_env(cfg),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert proc.stdout is not None
        started: float | None = None
        setup_deadline = time.monotonic() + 300
        baseline_kb = 0
        connect_ms = "?"
        result: list[str] | None = None
        buf = ""
        while result is None:
            deadline = started + cap if started is not None else setup_deadline
            left = deadline - time.monotonic()
            if left <= 0:
                break
            ready, _, _ = select.select([proc.stdout], [], [], min(left, 1.0))
            if not ready:
                if proc.poll() is not None:
                    break
                continue
            line = proc.stdout.readline()
            if not line:
                break
            buf += line
            if line.startswith("MEASURE "):
                started = time.monotonic()
                connect_ms = f"{float(line.split()[1]):.0f}"
                baseline_kb = _pid_status_kb(proc.pid, "VmRSS")
            elif line.startswith("RESULT "):
                result = line.split()[1:]
        if result is not None:
            proc.wait(timeout=60)
            mem = f"{float(result[1]):.0f}"
            if SCENARIOS[name][2] == "run":
                mem += f" (view {float(result[2]):.0f})"
            return f"{float(result[0]):.0f}", mem, payload / MB, connect_ms
        if started is not None and proc.poll() is None:
            peak_kb = _pid_status_kb(proc.pid, "VmHWM")
            proc.kill()
            proc.wait()
            return f"> {cap:.0f} s", f">= {(peak_kb - baseline_kb) / 1024:.0f}", payload / MB, connect_ms
        proc.kill()
        _, err = proc.communicate()
        raise SystemExit(
            f"{name}: child failed before measuring (exit {proc.returncode}):\n{buf}\n{err[-4000:]}"
        )


def main(argv: list[str]) -> None:
    if argv[:1] == ["--child"]:
        child(argv[1])
        return
    cap = float(os.environ.get("BENCH_CAP", "60"))
    names = argv or list(SCENARIOS)
    unknown = [n for n in names if n not in SCENARIOS]
    if unknown:
        raise SystemExit(f"unknown scenario(s) {unknown}; choose from {list(SCENARIOS)}")
    print(
        f"{'scenario':28} | {'stall ms':>9} | {'peak RSS MB':>18} | {'payload MB':>10} | {'connect ms':>10}"
    )
    print(f"{'-' * 28}-+-{'-' * 9}-+-{'-' * 18}-+-{'-' * 10}-+-{'-' * 10}")
    runs = int(os.environ.get("BENCH_RUNS", "3"))
    for name in names:
        results = [run_scenario(name, cap) for _ in range(runs)]
        if any(r[0].startswith(">") for r in results):
            stall, mem, payload, connect = next(r for r in results if r[0].startswith(">"))
        else:  # the median run by stall (a shared machine makes single runs noisy)
            stall, mem, payload, connect = sorted(results, key=lambda r: float(r[0]))[len(results) // 2]
        print(f"{LABELS[name]:28} | {stall:>9} | {mem:>18} | {payload:>10.1f} | {connect:>10}", flush=True)
    print(
        f"each row: the median of {runs} fresh processes by stall (BENCH_RUNS); a frozen one counts as such"
    )
    print("stall: longest Qt event-loop gap during the scenario; peak RSS: VmHWM minus VmRSS before it")
    print("(view: what the process still holds after the answer is shown, over what it held just before)")
    print("connect: longest gap while connecting and listing (before the scenario, not in its figures)")


if __name__ == "__main__":
    main(sys.argv[1:])
