"""CLI benchmark (issue 3 §6): `mcp-desk tools` + `mcp-desk call` against server-everything over
stdio, versus the official Inspector's CLI mode doing the same, and where the CLI's time goes.
Prints figures; not a test.

    .venv/bin/python bench/bench_cli.py [RUNS]

Both clients start the same server command (Node 22 + server-everything, stdio). Wall and CPU
times are medians over RUNS runs (default 5), taken alternately. The breakdown runs the same
steps as `mcp-desk call` inside one instrumented process, and lists the costliest imports.
"""

from __future__ import annotations

import os
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.servers import everything  # noqa: E402
from tests.servers.node import INSPECTOR_JS, node22  # noqa: E402

MCP_DESK = Path(sys.executable).parent / "mcp-desk"


def timed(argv: list[str], env: dict[str, str]) -> tuple[float, float, float]:
    """Wall seconds until the first line of output and until exit, and CPU seconds (user+sys of
    the process tree) of one run; fails loudly."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert proc.stdout is not None
    proc.stdout.readline()
    first = time.perf_counter() - started
    _, err = proc.communicate(timeout=120)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        sys.exit(f"{shlex.join(argv[:3])}... failed ({proc.returncode}): {err.decode()[-500:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, first


PHASES = r"""
import time, sys
t0 = time.perf_counter()
marks = []
def mark(name):
    marks.append((name, time.perf_counter()))
from app.cli.main import build_parser
build_parser()
mark("import the CLI and build its parser")
import asyncio
from app.mcp.connection import ServerConnection
from app.mcp.target import target_from_command_line
mark("import the engine (and the MCP SDK)")
async def main():
    target = target_from_command_line(sys.argv[1], None)
    conn = ServerConnection(target, traffic=False)
    conn.start()
    await conn.wait_settled(60)
    mark("connect: spawn, handshake, list the catalog")
    await conn.call_tool("echo", {"message": "hi"})
    mark("tools/call echo")
    await conn.stop()
    mark("disconnect (the server exits, no child left)")
asyncio.run(main())
prev = t0
for name, t in marks:
    print(f"{(t - prev) * 1000:8.0f} ms  {name}")
    prev = t
print(f"{(prev - t0) * 1000:8.0f} ms  in the process (plus interpreter start)")
"""


def breakdown(server: str, env: dict[str, str]) -> None:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True, env=env)
    bare = time.perf_counter() - started
    print("  where `mcp-desk call` spends its time (one instrumented run):")
    print(f"{bare * 1000:8.0f} ms  bare interpreter start")
    done = subprocess.run(
        [sys.executable, "-c", PHASES, server], capture_output=True, text=True, env=env, cwd=REPO, check=True
    )
    print(done.stdout.rstrip())
    imports = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import app.cli.main, app.mcp.connection"],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        check=True,
    ).stderr
    rows = []
    for line in imports.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[1].strip().isdigit():
            name = parts[2].rstrip()
            depth = (len(name) - len(name.lstrip())) // 2
            rows.append((int(parts[1]), depth, name.strip()))
    top = sorted((r for r in rows if r[1] <= 1), reverse=True)[:8]
    print("  costliest top-level imports (cumulative, -X importtime):")
    for cumulative, _, name in top:
        print(f"{cumulative / 1000:8.0f} ms  {name}")


def main(argv: list[str]) -> int:
    runs = int(argv[0]) if argv else 5
    node = str(node22())
    server_argv = everything.stdio_argv()
    server = shlex.join(server_argv)
    with tempfile.TemporaryDirectory() as tmp:
        env = {
            **os.environ,
            "MCP_DESK_CONFIG_DIR": tmp,
            "MCP_CATALOG_PATH": str(Path(tmp) / "inspector.json"),
        }
        desk = [str(MCP_DESK)]
        inspector = [node, str(INSPECTOR_JS), "--cli", *server_argv]
        commands = {
            "mcp-desk tools": [*desk, "tools", "--stdio", server],
            "mcp-desk call": [*desk, "call", "--stdio", server, "echo", "--args", '{"message": "hi"}'],
            "inspector tools/list": [*inspector, "--method", "tools/list"],
            "inspector tools/call": [
                *inspector,
                "--method",
                "tools/call",
                "--tool-name",
                "echo",
                "--tool-arg",
                "message=hi",
            ],
        }
        for argv_ in commands.values():  # warm the disk cache and bytecode once
            timed(argv_, env)
        walls: dict[str, list[float]] = {name: [] for name in commands}
        cpus: dict[str, list[float]] = {name: [] for name in commands}
        firsts: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(runs):
            for name, argv_ in commands.items():
                wall, cpu, first = timed(argv_, env)
                walls[name].append(wall)
                cpus[name].append(cpu)
                firsts[name].append(first)
        load = os.getloadavg()
        print(f"bench_cli: {runs} runs each, {os.cpu_count()} CPUs, load average {load[0]:.2f}")
        print("  medians:              wall      CPU   first output")
        for name in commands:
            wall, cpu, first = (statistics.median(x[name]) for x in (walls, cpus, firsts))
            print(f"  {name:20s} {wall:6.2f} s  {cpu:6.2f} s  {first:6.2f} s")
        ours = statistics.median(walls["mcp-desk tools"]) + statistics.median(walls["mcp-desk call"])
        theirs = statistics.median(walls["inspector tools/list"]) + statistics.median(
            walls["inspector tools/call"]
        )
        print(f"  tools + call: mcp-desk {ours:.2f} s, Inspector {theirs:.2f} s, ratio {ours / theirs:.2f}")
        breakdown(server, env)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
