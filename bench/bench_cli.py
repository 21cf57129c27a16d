"""CLI benchmark (issue 3 §6): `mcp-desk tools` + `mcp-desk call` against server-everything over
stdio, versus the official Inspector's CLI mode doing the same, and where the CLI's time goes.
Prints figures; not a test.

    .venv/bin/python bench/bench_cli.py [RUNS] [--servers] [--before DIR]

Both clients start the same server command (Node 22 + server-everything, stdio). Wall and CPU
times are medians over RUNS runs (default 5), taken alternately. The breakdown runs the same
steps as `mcp-desk call` inside one instrumented process, and lists the costliest imports.
`--servers` adds `mcp-desk tools` vs the Inspector's tools/list on server-memory, server-filesystem,
mcp-server-time and mcp-server-git (installed under SERVERS_DIR); `--before DIR` also runs the
mcp-desk of another tree (say the base commit) in the same run, so before/after share the noise.
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
build_parser(["call", "--stdio", sys.argv[1], "echo"])  # as `mcp-desk call`: that command's parser
mark("import the CLI and build its parser")
import asyncio
from app.cli.remote import import_engine, _start_early
from app.mcp.process import discard_early, quick_stop
from app.mcp.target import target_from_command_line
async def main():
    # As app.cli.remote.run_on_server: the server's process first, then the SDK while it starts.
    quick_stop()
    target = target_from_command_line(sys.argv[1], None)
    early = await _start_early(target)
    mark("start the server's process (resolve, fork)")
    import_engine()
    from app.mcp.connection import ServerConnection
    mark("import the engine (and the MCP SDK) while the server starts")
    conn = ServerConnection(target, traffic=False, lists=("tools",))  # as `call` does
    conn.start()
    await conn.wait_settled(60)
    mark("connect: handshake, list the catalog")
    await conn.call_tool("echo", {"message": "hi"})
    mark("tools/call echo")
    await conn.stop()
    await discard_early(early)
    mark("disconnect (the server exits, no child left)")
asyncio.run(main())
prev = t0
for name, t in marks:
    print(f"{(t - prev) * 1000:8.0f} ms  {name}")
    prev = t
print(f"{(prev - t0) * 1000:8.0f} ms  in the process (plus interpreter start and exit)")
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
        [sys.executable, "-X", "importtime", "-c", "import app.cli.remote as r; r.import_engine()"],
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


SERVERS_DIR = Path(os.environ.get("BENCH_SERVERS_DIR", "/tmp/h12-cli-bench"))
"""Where `--servers` finds the four real servers (not installed by the test set-up):
    npm install --prefix DIR @modelcontextprotocol/server-memory @modelcontextprotocol/server-filesystem
    python3 -m venv DIR/pyenv && DIR/pyenv/bin/pip install mcp-server-time mcp-server-git"""


def real_servers(node: str, scratch: Path) -> dict[str, list[str]]:
    """Command lines of server-memory, server-filesystem, mcp-server-time and mcp-server-git."""
    modules = SERVERS_DIR / "node_modules" / "@modelcontextprotocol"
    pyenv = SERVERS_DIR / "pyenv" / "bin"
    repo = scratch / "repo"
    if not repo.exists():
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
    servers = {
        "server-memory": [node, str(modules / "server-memory" / "dist" / "index.js")],
        "server-filesystem": [node, str(modules / "server-filesystem" / "dist" / "index.js"), str(scratch)],
        "mcp-server-time": [str(pyenv / "mcp-server-time")],
        "mcp-server-git": [str(pyenv / "mcp-server-git"), "--repository", str(repo)],
    }
    scripts = {name: argv[1] if argv[0] == node else argv[0] for name, argv in servers.items()}
    missing = [name for name, script in scripts.items() if not Path(script).exists()]
    if missing:
        sys.exit(f"not installed under {SERVERS_DIR}: {', '.join(missing)} (see SERVERS_DIR in {__file__})")
    return servers


def desk_env(env: dict[str, str], before: Path | None) -> dict[str, str]:
    """The environment of an mcp-desk run: the code of `before` (a tree with an `app` package, e.g.
    `git archive BASE app | tar -x -C DIR`) comes first on the path when given."""
    if before is None:
        return env
    return {**env, "PYTHONPATH": os.pathsep.join(filter(None, [str(before), env.get("PYTHONPATH", "")]))}


def measure(
    commands: dict[str, tuple[list[str], dict[str, str]]], runs: int
) -> dict[str, list[tuple[float, float, float]]]:
    """Every command `runs` times, interleaved (a noisy machine hits all alike), after one warm-up."""
    for argv_, env in commands.values():  # warm the disk cache and bytecode once
        timed(argv_, env)
    samples: dict[str, list[tuple[float, float, float]]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, (argv_, env) in commands.items():
            samples[name].append(timed(argv_, env))
    return samples


def med(values: list[tuple[float, float, float]], i: int) -> float:
    return statistics.median(v[i] for v in values)


def cli_part(
    server_argv: list[str], inspector: list[str], env: dict[str, str], runs: int, before: Path | None
) -> None:
    server = shlex.join(server_argv)
    desk = [str(MCP_DESK)]
    variants = {"": desk_env(env, None)} | ({" (before)": desk_env(env, before)} if before else {})
    commands: dict[str, tuple[list[str], dict[str, str]]] = {}
    for suffix, denv in variants.items():
        commands[f"mcp-desk tools{suffix}"] = ([*desk, "tools", "--stdio", server], denv)
        commands[f"mcp-desk call{suffix}"] = (
            [*desk, "call", "--stdio", server, "echo", "--args", '{"message": "hi"}'],
            denv,
        )
    commands["inspector tools/list"] = ([*inspector, *server_argv, "--method", "tools/list"], env)
    commands["inspector tools/call"] = (
        [
            *inspector,
            *server_argv,
            "--method",
            "tools/call",
            "--tool-name",
            "echo",
            "--tool-arg",
            "message=hi",
        ],
        env,
    )
    samples = measure(commands, runs)
    load = os.getloadavg()
    print(
        f"bench_cli: server-everything over stdio, {runs} runs each, {os.cpu_count()} CPUs,"
        f" load {load[0]:.2f}"
    )
    print("  medians:                       wall      CPU   first output")
    for name, values in samples.items():
        print(f"  {name:29s} {med(values, 0):6.2f} s  {med(values, 1):6.2f} s  {med(values, 2):6.2f} s")
    theirs = med(samples["inspector tools/list"], 0) + med(samples["inspector tools/call"], 0)
    their_first = med(samples["inspector tools/call"], 2)
    their_cpu = med(samples["inspector tools/list"], 1) + med(samples["inspector tools/call"], 1)
    for suffix in variants:
        ours = med(samples[f"mcp-desk tools{suffix}"], 0) + med(samples[f"mcp-desk call{suffix}"], 0)
        our_cpu = med(samples[f"mcp-desk tools{suffix}"], 1) + med(samples[f"mcp-desk call{suffix}"], 1)
        first = med(samples[f"mcp-desk call{suffix}"], 2)
        print(
            f"  mcp-desk{suffix}: call first output / Inspector {first:.2f} / {their_first:.2f} s = "
            f"{first / their_first:.2f};  tools + call whole process {ours:.2f} / {theirs:.2f} s = "
            f"{ours / theirs:.2f} (CPU {our_cpu / their_cpu:.2f})"
        )


def servers_part(
    node: str, inspector: list[str], env: dict[str, str], scratch: Path, runs: int, before: Path | None
) -> None:
    """`mcp-desk tools --stdio` vs the Inspector's tools/list, whole process, on four real servers."""
    desk = [str(MCP_DESK)]
    variants = {"": desk_env(env, None)} | ({" (before)": desk_env(env, before)} if before else {})
    commands: dict[str, tuple[list[str], dict[str, str]]] = {}
    servers = real_servers(node, scratch)
    for name, argv_ in servers.items():
        for suffix, denv in variants.items():
            commands[f"{name} mcp-desk{suffix}"] = ([*desk, "tools", "--stdio", shlex.join(argv_)], denv)
        commands[f"{name} inspector"] = ([*inspector, *argv_, "--method", "tools/list"], env)
    samples = measure(commands, runs)
    load = os.getloadavg()
    print(f"bench_cli servers: `tools`, whole process, {runs} runs each, load {load[0]:.2f}")
    ratios: dict[str, list[float]] = {suffix: [] for suffix in variants}
    cpu_ratios: dict[str, list[float]] = {suffix: [] for suffix in variants}
    for name in servers:
        theirs, their_cpu = med(samples[f"{name} inspector"], 0), med(samples[f"{name} inspector"], 1)
        line = f"  {name:18s} Inspector {theirs:5.2f} s"
        for suffix in variants:
            ours, our_cpu = (
                med(samples[f"{name} mcp-desk{suffix}"], 0),
                med(samples[f"{name} mcp-desk{suffix}"], 1),
            )
            ratios[suffix].append(ours / theirs)
            cpu_ratios[suffix].append(our_cpu / their_cpu)
            line += f"  mcp-desk{suffix} {ours:5.2f} s ({ours / theirs:.2f}; CPU {our_cpu / their_cpu:.2f})"
        print(line)
    for suffix, values in ratios.items():
        print(
            f"  median ratio mcp-desk{suffix} / Inspector over the four:"
            f" wall {statistics.median(values):.2f},"
            f" CPU {statistics.median(cpu_ratios[suffix]):.2f}"
        )


def main(argv: list[str]) -> int:
    import argparse

    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("runs", nargs="?", type=int, default=5)
    parser.add_argument(
        "--before", type=Path, help="also run the mcp-desk of this tree (same run, interleaved)"
    )
    parser.add_argument("--servers", action="store_true", help="also the four real servers (see SERVERS_DIR)")
    parser.add_argument("--no-breakdown", action="store_true")
    opts = parser.parse_args(argv)
    # Byte-compile both trees first, as an installed copy is: with PYTHONDONTWRITEBYTECODE set (as
    # here) every run would otherwise compile app/ from source again (~50 ms of each start).
    import compileall

    for tree in filter(None, [REPO, opts.before]):
        compileall.compile_dir(str(Path(tree) / "app"), quiet=1)
    node = str(node22())
    server_argv = everything.stdio_argv()
    with tempfile.TemporaryDirectory() as tmp:
        env = {
            **os.environ,
            "MCP_DESK_CONFIG_DIR": tmp,
            "MCP_CATALOG_PATH": str(Path(tmp) / "inspector.json"),
        }
        inspector = [node, str(INSPECTOR_JS), "--cli"]
        cli_part(server_argv, inspector, env, opts.runs, opts.before)
        if opts.servers:
            scratch = Path(tmp) / "files"
            scratch.mkdir()
            servers_part(node, inspector, env, scratch, opts.runs, opts.before)
        if not opts.no_breakdown:
            breakdown(shlex.join(server_argv), env)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
