"""A server's process tree looks at the server's own process on first need (app/mcp/proctree.py
ServerTree._leader): psutil is not imported by the fork, and a pid taken over by a later process
is never the server."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import psutil

from app.mcp import proctree
from tests.mcp.conftest import REPO

SPAWN_AND_LOOK = """
import asyncio, json, sys
from app.mcp import process
async def main():
    resolved = await process.resolve_command(sys.executable, {}, None)
    server = await process.spawn(resolved, ['-c', 'import time; time.sleep(60)'], None)
    at_spawn = 'psutil' in sys.modules
    seen = [p.pid for p in server.tree.processes()]
    server.process.kill()
    await server.process.wait()
    print(json.dumps({'psutil_at_spawn': at_spawn, 'seen': seen, 'pid': server.pid,
                      'alive_after_kill': [p.pid for p in server.tree.alive()]}))
asyncio.run(main())
"""


def test_the_fork_does_not_import_psutil_and_the_server_is_still_seen() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SPAWN_AND_LOOK], capture_output=True, text=True, timeout=60, cwd=REPO
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["psutil_at_spawn"] is False
    assert found["seen"] == [found["pid"]]  # looked at on first need: the server itself
    assert found["alive_after_kill"] == []


def test_a_process_that_started_after_the_fork_is_not_taken_for_the_server() -> None:
    mine = psutil.Process(os.getpid())
    tree = proctree.ServerTree(os.getpid(), "marker")
    # As if this tree's server had been forked long before this process started, then reaped,
    # and its pid given to this process: not the server.
    before_me = time.time() - mine.create_time() + 10 * proctree.ServerTree.LEADER_CLOCK_SLACK
    tree._forked = time.monotonic() - before_me
    assert tree.processes() == []
    # A tree made now (after this process started) is this process's own.
    assert [p.pid for p in proctree.ServerTree(os.getpid(), "marker").processes()] == [os.getpid()]


def test_a_server_gone_before_the_first_look_is_none() -> None:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait(30)  # reaped: pids are handed out in turn, so nobody has this one yet
    assert proctree.ServerTree(child.pid, "marker").processes() == []
