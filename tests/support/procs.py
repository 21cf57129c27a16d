"""Checking by pid that processes are gone (a zombie counts as gone: it runs nothing and is only
waiting for its parent to collect its exit status)."""

from __future__ import annotations

import json
import signal
import time
from pathlib import Path


def running(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat[stat.rindex(")") + 2] != "Z"


def left_running(pids: list[int], timeout: float = 15.0) -> list[int]:
    """The pids still running after waiting up to `timeout` seconds for all of them to end."""
    deadline = time.monotonic() + timeout
    while True:
        alive = [pid for pid in pids if running(pid)]
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.02)


def descendants(pid: int) -> list[int]:
    """Every descendant of `pid` now (from /proc/PID/task/TID/children)."""
    found: list[int] = []
    todo = [pid]
    while todo:
        parent = todo.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            try:
                kids = [int(k) for k in (task / "children").read_text().split()]
            except OSError:
                continue
            found += kids
            todo += kids
    return found


def read_pidfile(path: Path, timeout: float = 30.0) -> dict[str, list[int] | int]:
    """The tree fault server's pids, once it has written them."""
    deadline = time.monotonic() + timeout
    while not path.exists():
        if time.monotonic() > deadline:
            raise TimeoutError(f"{path} was not written in {timeout} s")
        time.sleep(0.02)
    data: dict[str, list[int] | int] = json.loads(path.read_text(encoding="utf-8"))
    return data


def default_sigint() -> None:
    """A `preexec_fn` for a child a test sends Ctrl+C: a test run started in the background
    (`cmd &` in a script, as CI may be) inherits SIGINT ignored, and Python then installs no
    Ctrl+C handler. The child gets the terminal's default."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
