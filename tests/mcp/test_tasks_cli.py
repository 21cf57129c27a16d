"""`mcp-desk call` on a tool the server runs as a task: a status line on the terminal (stderr)
while it waits, then the result on stdout (the SDK task server over stdio, a real pty)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from tests.support.pty_run import on_a_pty

REPO = Path(__file__).resolve().parents[2]
SERVER = REPO / "tests" / "servers" / "tasks_server.py"


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
