"""Instructions to the first paint: bench_ui's two start children under callgrind.

    .venv/bin/python bench/start_instructions.py            # desk and bare, one run each
    .venv/bin/python bench/start_instructions.py desk       # the desk only
    BENCH_CALLGRIND_OUT=DIR .venv/bin/python bench/start_instructions.py   # keep the profiles

`bench/bench_ui.py start` times the same two children on the wall clock, which the shared
two-core machine makes noisy; an instruction count is the same from one run to the next to
within a few tenths of a percent, so a cut of 1% shows. Each child (`bench_ui.py --child KIND`,
20 disabled servers configured, offscreen Qt) runs once natively first (bytecode written, the
file cache warm), then under `valgrind --tool=callgrind`; it prints READY at the loop turn after
its first paint and, with BENCH_EXIT_AT_READY set, ends there with os._exit, so the count is
everything from exec to that moment (the dynamic loader, Python's start, imports, Qt, the
window, the paint) and nothing after. PYTHONHASHSEED is fixed so that dict and set layouts,
and with them the count, repeat. With BENCH_CALLGRIND_OUT the callgrind.out files are kept
there (read them with callgrind_annotate, or kcachegrind).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_ui  # the children and their config, from beside this file


def instructions(kind: str, cfg: str, out_dir: str) -> int:
    env = {**bench_ui._env(cfg), "BENCH_EXIT_AT_READY": "1", "PYTHONHASHSEED": "0"}
    child = [bench_ui.PY, bench_ui.__file__, "--child", kind]
    subprocess.run(child, env=env, capture_output=True, timeout=120, check=True)  # warm-up
    out_file = Path(out_dir, f"callgrind.out.{kind}")
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out_file}", *child],
        env=env,
        capture_output=True,
        text=True,
        timeout=1200,
    )
    if "READY " not in run.stdout:
        raise SystemExit(f"{kind} child failed under callgrind:\n{run.stderr}")
    m = re.search(r"^(?:summary|totals): (\d+)", out_file.read_text(encoding="utf-8"), re.M)
    if m is None:
        raise SystemExit(f"no instruction total in {out_file}")
    return int(m.group(1))


def main(argv: list[str]) -> None:
    kinds = argv or ["desk", "bare"]
    keep = os.environ.get("BENCH_CALLGRIND_OUT")
    with tempfile.TemporaryDirectory() as cfg, tempfile.TemporaryDirectory() as tmp:
        bench_ui._write_servers(
            cfg, {f"server-{i:02d}": {**bench_ui._demo(), "disabled": True} for i in range(20)}
        )
        out_dir = keep or tmp
        counts = {kind: instructions(kind, cfg, out_dir) for kind in kinds}
    print("instructions to the first paint (callgrind):")
    for kind, n in counts.items():
        print(f"  {kind:5}: {n / 1e6:8.1f} M")
    if "desk" in counts and "bare" in counts:
        print(f"  ratio: {counts['desk'] / counts['bare']:.3f}  (goal <= 1.5)")


if __name__ == "__main__":
    main(sys.argv[1:])
