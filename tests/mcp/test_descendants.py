"""Every process a stdio server started is gone once the server is stopped: helpers in their own
session (setsid), helpers and servers that ignore SIGTERM, and (with the app as child subreaper)
the orphan of a double fork. Checked by pid, with a deadline."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import anyio
import pytest

from app.mcp.target import Target
from tests.mcp.conftest import REPO, connected
from tests.support.procs import left_running, read_pidfile, running

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="checks processes through /proc"),
]


def tree_target(fault: str, pidfile: Path) -> Target:
    return Target(
        name=fault,
        transport="stdio",
        command=sys.executable,
        args=("-m", "tests.servers.faults.tree_fault", fault, str(pidfile)),
        cwd=str(REPO),
    )


async def still_running(pids: list[int], timeout: float = 15.0) -> list[int]:
    with anyio.move_on_after(timeout):
        while any(running(pid) for pid in pids):
            await anyio.sleep(0.02)
    return [pid for pid in pids if running(pid)]


@pytest.mark.parametrize("fault", ["plain", "setsid-grandchild", "ignore-term", "grandchild-ignores-term"])
async def test_stop_leaves_no_process(fault: str, tmp_path: Path) -> None:
    pidfile = tmp_path / "pids.json"
    async with connected(tree_target(fault, pidfile)):
        pids = read_pidfile(pidfile)
        everyone = [int(pids["server"]), *pids["helpers"]]  # type: ignore[misc]
        assert all(running(pid) for pid in everyone)
    assert await still_running(everyone) == []


def test_cli_as_subreaper_stops_the_orphan_of_a_double_fork(tmp_path: Path) -> None:
    """`mcp-desk call` makes itself a child subreaper: the double-forked helper, nobody's
    descendant any more when the server stops, is still found (by the marker in its
    environment) and stopped."""
    pidfile = tmp_path / "pids.json"
    command = f"{sys.executable} -m tests.servers.faults.tree_fault daemon {pidfile}"
    out = subprocess.run(
        [sys.executable, "-m", "app", "call", "--stdio", command, "echo", "--args", '{"message": "hi"}'],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
        env=dict(os.environ, PYTHONPATH=str(REPO)),
    )
    assert out.returncode == 0, out.stderr
    pids = read_pidfile(pidfile, timeout=0)
    assert left_running([int(pids["server"]), *pids["helpers"]]) == []  # type: ignore[misc]
