"""Instructions per echo call (issue 12 §3): the raw SDK, app.mcp, app.mcp with the traffic log.

    .venv/bin/python bench/echo_instructions.py [CALLS] [--keep DIR]   # default 200 calls per arm

With `--keep DIR` the callgrind dumps stay in DIR (cg.out.N; the blocks are N = 2, 4, 6, ... in
the order sdk, app.mcp, app.mcp+traffic, round after round) for `callgrind_annotate --inclusive=yes`.

What `bench_engine.py echo` times on the wall clock, counted instead: wall time on a shared
two-core machine moves by ±5 %, instruction counts by a fraction of a percent, so a change of
a few percent per call shows.

How: this script runs itself under `valgrind --tool=callgrind --dump-before=getppid` (only this
Python process; the servers, its children, are not traced). The measured process connects the
three arms to server-everything over stdio (as bench_engine.py echo does), makes WARMUP calls on
each, then for each round and each arm calls `os.getppid()` (which makes callgrind dump and zero
its counters), makes CALLS echo calls and reads each answer, and calls `os.getppid()` again. The
dump that ends a block holds that block's instructions alone: the instructions of one arm's
CALLS calls (the event loop's and the pipes' work included, as a caller would pay it). Rounds
alternate the arms; the figure printed per arm is the lowest per-call count of its ROUNDS blocks
(the others differ by what the event loop happened to wait for: up to a few thousand
instructions a call, mostly on the traffic arm).
"""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

WARMUP = 30
ROUNDS = 3
MARK_ENV = "ECHO_INSTRUCTIONS_CHILD"
ARMS = ("sdk", "app.mcp", "app.mcp+traffic")


async def measured(calls: int) -> None:
    """The process under callgrind: blocks of `calls` calls, each between two getppid marks."""
    from bench_engine import echo_arms  # beside this file

    from tests.servers import everything

    async with echo_arms(everything.stdio_argv(), timeout=600) as (arms, traced):
        assert tuple(arms) == ARMS
        for call in arms.values():
            for _ in range(WARMUP):
                await call()
        traced.clear()
        for _ in range(ROUNDS):
            for call in arms.values():
                os.getppid()  # mark: what came before is dumped, the counters start at zero
                for _ in range(calls):
                    await call()
                os.getppid()  # mark: this dump holds the block alone
                traced.clear()  # the log keeps a bounded number of rows: so does this


def _instructions(path: Path) -> int:
    text = path.read_text()
    match = re.search(r"^(?:summary|totals): (\d+)", text, re.M)
    assert match, f"no totals in {path}"
    return int(match.group(1))


def main(argv: list[str]) -> int:
    keep = None
    if "--keep" in argv:
        at = argv.index("--keep")
        keep = Path(argv[at + 1])
        del argv[at : at + 2]
    calls = int(argv[0]) if argv else 200
    if os.environ.get(MARK_ENV):
        asyncio.run(measured(calls))
        return 0
    with tempfile.TemporaryDirectory() as scratch:
        tmp = str(keep) if keep is not None else scratch
        Path(tmp).mkdir(parents=True, exist_ok=True)
        out = Path(tmp) / "cg.out"
        # A fixed hash seed: with a random one, dict and set layouts (so the counts) move by a
        # few thousand instructions per call from one run to the next.
        env = {**os.environ, MARK_ENV: "1", "PYTHONHASHSEED": "0"}
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # measure with .pyc files, as a person runs it
        subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                "--dump-before=getppid",
                f"--callgrind-out-file={out}",
                sys.executable,
                __file__,
                str(calls),
            ],
            env=env,
            check=True,
            stderr=subprocess.DEVNULL,
        )
        dumps = sorted(Path(tmp).glob("cg.out.*"), key=lambda p: int(p.suffix[1:]))
        counts = [_instructions(p) for p in dumps]
    # Dump 1 is everything up to the first mark; then each block's dump, then the gap before the
    # next mark (a few instructions), alternately.
    blocks = counts[1 : 1 + 2 * ROUNDS * len(ARMS) : 2]
    if len(blocks) != ROUNDS * len(ARMS):
        sys.exit(f"expected {ROUNDS * len(ARMS)} blocks, callgrind dumped {len(counts)} times")
    per_call: dict[str, list[float]] = {arm: [] for arm in ARMS}
    for i, count in enumerate(blocks):
        per_call[ARMS[i % len(ARMS)]].append(count / calls)
    sdk = min(per_call["sdk"])
    print(f"echo: instructions per tools/call (callgrind, {calls} calls x {ROUNDS} rounds per arm, lowest)")
    for arm in ARMS:
        best = min(per_call[arm])
        spread = ", ".join(f"{v / 1000:.1f}k" for v in per_call[arm])
        print(f"  {arm:16s} {best / 1000:8.1f}k  ratio {best / sdk:.3f}  (rounds: {spread})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
