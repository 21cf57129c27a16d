"""Start-up time of the frozen app against the same code run from source, in one run, alternating.

    .venv/bin/python packaging/measure_startup.py BUNDLE [--rounds N] [--xcb]

Offscreen (always): `servers list` (the CLI's start) and `--smoke-test` (window up, the demo
server connected, a tool called, exit). With --xcb (DISPLAY set, xdotool installed): the time
from exec to the main window mapped on the X server, the start-up a person sees. Each round runs
the two kinds back to back with fresh config folders, so machine load hits both alike; medians.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def commands(bundle: Path) -> dict[str, list[str]]:
    return {
        "source": [str(ROOT / ".venv" / "bin" / "python"), "-m", "app"],
        "frozen": [str(bundle / "mcp-desk")],
    }


def _env(config: str, platform: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["MCP_DESK_DATA_DIR"] = os.path.join(config, "data")
    if platform:
        env["QT_QPA_PLATFORM"] = platform
    return env


def _cpu() -> float:
    """User + system seconds of the waited-for children (and theirs: the demo server)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(base: list[str], extra: list[str], platform: str | None) -> tuple[float, float]:
    """(wall, CPU) seconds of one run; CPU time barely moves with the machine's load."""
    with tempfile.TemporaryDirectory() as config:
        c0 = _cpu()
        t0 = time.perf_counter()
        done = subprocess.run(
            [*base, "--config-dir", config, *extra],
            capture_output=True,
            text=True,
            timeout=180,
            env=_env(config, platform),
            cwd=ROOT,
        )
        took = time.perf_counter() - t0
    if done.returncode != 0:
        raise SystemExit(f"{base} {extra} failed: {done.stderr[-2000:]}")
    return took, _cpu() - c0


def window_time(base: list[str]) -> float:
    """exec -> the main window mapped (xdotool search --sync), then the window is closed."""
    with tempfile.TemporaryDirectory() as config:
        env = _env(config, "xcb")
        t0 = time.perf_counter()
        proc = subprocess.Popen([*base, "--config-dir", config], env=env, cwd=ROOT)
        try:
            found = subprocess.run(
                ["xdotool", "search", "--sync", "--onlyvisible", "--pid", str(proc.pid)],
                capture_output=True,
                text=True,
                timeout=120,
            )
            took = time.perf_counter() - t0
            if found.returncode != 0:
                raise SystemExit(f"no window for {base}")
        finally:
            proc.terminate()  # the app quits as on a session end: stops its servers, exits
            proc.wait(timeout=60)
    return took


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bundle", type=Path)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--xcb", action="store_true", help="also time the window on a real X server")
    args = parser.parse_args(argv)
    cmds = commands(args.bundle)
    results: dict[str, list[float]] = {}
    for _ in range(args.rounds):
        for kind, base in cmds.items():
            for label, extra, platform in (
                ("servers list", ["servers", "list"], None),
                ("--smoke-test", ["--smoke-test"], "offscreen"),
            ):
                wall, cpu = timed(base, extra, platform)
                results.setdefault(f"{kind} {label}", []).append(wall)
                results.setdefault(f"{kind} {label} (CPU)", []).append(cpu)
            if args.xcb:
                results.setdefault(f"{kind} window on xcb", []).append(window_time(base))
    for name in sorted(results, key=lambda n: (n.split(" ", 1)[1], n)):
        values = results[name]
        median, low = statistics.median(values), min(values)
        print(f"{name:34s} median {median:6.2f} s  (min {low:.2f}, n={len(values)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
