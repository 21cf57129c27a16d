"""stdio servers are watched by the event loop (a pidfd), not by one waiter thread each: starting
a thread makes the loop wait for it, and twenty servers starting together stalled a GUI's loop.

And with the app as child subreaper (app.mcp.proctree), the orphans it adopts are reaped, while
the servers' own exit status still reaches asyncio (it is never collected by the reaper)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading

import pytest

from app.mcp.events import ConnectionState
from app.mcp.results import CallFailed
from tests.mcp.conftest import REPO, connected, sdk_target
from tests.servers.harness import EventLog

pytestmark = pytest.mark.anyio


def waiter_threads() -> list[str]:
    # 3.11's threaded watcher names them asyncio-waitpid-N.
    return [t.name for t in threading.enumerate() if "waitpid" in t.name]


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="3.12+ watches children with pidfds itself")
async def test_no_waiter_thread_per_server_and_exit_codes_still_arrive() -> None:
    before = waiter_threads()
    events = EventLog()
    async with connected(sdk_target(), events) as conn:
        assert waiter_threads() == before
        with pytest.raises(CallFailed):
            await conn.call_tool("exit", {"code": 7})  # the server exits at once, mid-call
        await events.wait_until(lambda: conn.state == ConnectionState.FAILED)
        assert conn.reason is not None and "exited with code 7" in conn.reason


# Run in a child process: a subreaper adopts every orphan of the process, pytest's included.
SUBREAPER_SCRIPT = r"""
import anyio, json, os, signal, sys, threading
from pathlib import Path
from app.mcp import proctree
from app.mcp.events import ConnectionState
from app.mcp.results import CallFailed
from tests.mcp.conftest import connected, sdk_target
from tests.mcp.test_descendants import tree_target
from tests.servers.harness import EventLog
from tests.support.procs import read_pidfile

assert proctree.enable_subreaper()
proctree.REAP_INTERVAL = 0.005
stop = threading.Event()

def reap_all_the_time():  # a reaper that steals a server's status would steal it here
    while not stop.is_set():
        proctree.reap_orphans()

threading.Thread(target=reap_all_the_time, daemon=True).start()

async def main():
    out = {}
    pidfile = Path(sys.argv[1])
    async with connected(tree_target("daemon", pidfile)):
        orphan = read_pidfile(pidfile)["helpers"][0]
        stat = open(f"/proc/{orphan}/stat").read()
        out["orphan_parent_is_us"] = stat.split(") ")[1].split()[1] == str(os.getpid())
        os.kill(orphan, signal.SIGKILL)  # dies while its server runs: our zombie until reaped
        events = EventLog()
        async with connected(sdk_target(), events) as conn:
            for code in (7, 9, 11):
                try:
                    await conn.call_tool("exit", {"code": code})
                except CallFailed:
                    pass
                await events.wait_until(lambda: conn.state == ConnectionState.FAILED)
                out.setdefault("reasons", []).append(conn.reason)
                if code != 11:
                    conn.start()
                    await conn.wait_settled(30)
        with anyio.move_on_after(10):
            while os.path.exists(f"/proc/{orphan}"):
                await anyio.sleep(0.01)
        out["orphan_reaped"] = not os.path.exists(f"/proc/{orphan}")
    stop.set()
    print(json.dumps(out))

anyio.run(main)
"""


def test_subreaper_reaps_orphans_and_never_a_servers_exit_status(tmp_path: object) -> None:
    if not sys.platform.startswith("linux"):
        pytest.skip("child subreapers are Linux only")
    pidfile = os.path.join(str(tmp_path), "pids.json")
    done = subprocess.run(
        [sys.executable, "-c", SUBREAPER_SCRIPT, pidfile],
        capture_output=True,
        text=True,
        timeout=110,
        cwd=REPO,
        env=dict(os.environ, PYTHONPATH=str(REPO)),
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.splitlines()[-1])
    assert out["orphan_parent_is_us"]
    assert out["orphan_reaped"]  # not left a zombie
    assert len(out["reasons"]) == 3
    for code, reason in zip((7, 9, 11), out["reasons"], strict=True):
        assert f"exited with code {code}" in reason, reason
    assert "reaped elsewhere" not in done.stderr
