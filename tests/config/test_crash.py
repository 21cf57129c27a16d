"""SIGKILL a process that saves the server list, 100 times: the file always parses and is one
of the versions written. Figures are printed (run with -s to see them)."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.config.crash_writer import version

ROOT = Path(__file__).resolve().parents[2]
KILLS = 100


@pytest.mark.slow
@pytest.mark.timeout(600)
@pytest.mark.skipif(os.name != "posix", reason="SIGKILL")
def test_sigkill_during_save_never_leaves_a_broken_file(tmp_path: Path) -> None:
    directory = tmp_path / "crash"
    rng = random.Random(20261130)
    # Version 0 is on disk before the first child starts, so every kill finds a file.
    from app.config.model import ServerEntry
    from app.config.store import ConfigStore

    store = ConfigStore(directory)
    store.load()
    store.remove("demo")
    store.add(ServerEntry.from_json("crash", version(0)["mcpServers"]["crash"]))
    store.save()
    last_complete = 0  # version the file held before this child started
    found_latest = found_older = found_initial = 0
    writes_started = 0
    delays: list[float] = []
    for cycle in range(KILLS):
        start = cycle * 1_000_000 + 1
        child = subprocess.Popen(
            [sys.executable, "-m", "tests.config.crash_writer", str(directory), str(start)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready", "child could not load the previous file"
        # The point of the test is an arbitrary kill moment: a random delay, not a wait for a state.
        delay = rng.uniform(0.0, 0.05)
        delays.append(delay)
        time.sleep(delay)
        child.send_signal(signal.SIGKILL)
        rest = child.stdout.read()
        child.wait(timeout=30)
        child.stdout.close()
        assert child.returncode == -signal.SIGKILL
        started = [int(x) for x in rest.split()]
        writes_started += len(started)

        path = directory / "servers.json"
        data = json.loads(path.read_text(encoding="utf-8"))  # must parse
        k = int(data["mcpServers"]["crash"]["args"][0])
        assert data == version(k), f"cycle {cycle}: file is not exactly version {k}"
        allowed = {*started, last_complete}
        assert k in allowed, f"cycle {cycle}: version {k} was never written by this run"
        if started and k == started[-1]:
            found_latest += 1
        elif k == last_complete:
            found_initial += 1
        else:
            found_older += 1
        bak = directory / "servers.json.bak"
        if bak.exists():
            json.loads(bak.read_text(encoding="utf-8"))  # the backup parses too
        last_complete = k

    temps = sorted(p.name for p in directory.iterdir() if p.name.endswith(".tmp"))
    print(
        f"\ncrash test: {KILLS} SIGKILLs, {writes_started} saves started, kill delay "
        f"{min(delays) * 1000:.1f}-{max(delays) * 1000:.1f} ms; file afterwards: "
        f"last started version {found_latest}x, previous version {found_older}x, "
        f"unchanged from before the child {found_initial}x; broken 0x; "
        f"left-over temp files {len(temps)}"
    )
