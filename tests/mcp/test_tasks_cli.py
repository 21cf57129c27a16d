"""`mcp-desk call` on a tool the server runs as a task: a status line on the terminal (stderr)
while it waits, then the result on stdout (the SDK task server over stdio, a real pty)."""

from __future__ import annotations

import os
import pty
import select
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SERVER = REPO / "tests" / "servers" / "tasks_server.py"


def on_a_pty(args: list[str], config_dir: Path, timeout: float = 90.0) -> tuple[int, str]:
    leader, follower = pty.openpty()
    env = dict(
        os.environ,
        MCP_DESK_CONFIG_DIR=str(config_dir),
        PYTHON_KEYRING_BACKEND="keyring.backends.null.Keyring",
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "app", *args],
        stdin=follower,
        stdout=follower,
        stderr=follower,
        cwd=REPO,
        env=env,
        close_fds=True,
    )
    os.close(follower)
    seen = b""
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([leader], [], [], 0.5)
            if ready:
                try:
                    chunk = os.read(leader, 4096)
                except OSError:  # the program closed its side
                    break
                if not chunk:
                    break
                seen += chunk
            elif proc.poll() is not None:
                break
        code = proc.wait(timeout=max(1.0, deadline - time.monotonic()))
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(leader)
    return code, seen.decode("utf-8", "replace")


@pytest.mark.slow  # the CLI and the server, each a Python process
def test_call_waits_for_a_task_with_a_status_line(tmp_path: Path) -> None:
    command = shlex.join([sys.executable, str(SERVER)])
    args = [
        "call",
        "--stdio",
        command,
        "--mode",
        "legacy",
        "long_job",
        "--args",
        '{"steps": 3, "delay": 0.2}',
    ]
    code, output = on_a_pty(args, tmp_path)
    assert code == 0, output
    assert "long_job runs as a task: running on the server: step 1 of 3" in output, output
    assert output.rstrip().endswith("done after 3 steps"), output
