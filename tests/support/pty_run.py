"""Run `mcp-desk ARGS` with a pseudo-terminal as its terminal (stdin, stdout and stderr), as a
person at a shell would: what the CLI shows only on a terminal (a y/N question, a status line)."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def on_a_pty(
    args: list[str], config_dir: Path, answer: str | None = None, timeout: float = 90.0
) -> tuple[int, str]:
    """Its exit code and its output ("\\r\\n" as "\\n"); `answer` is typed at the first "[y/N]"."""
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
    answered = answer is None
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
            if not answered and answer is not None and b"[y/N]" in seen:
                os.write(leader, answer.encode() + b"\n")
                answered = True
            if proc.poll() is not None and not ready:
                break
        code = proc.wait(timeout=max(1.0, deadline - time.monotonic()))
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(leader)
    return code, seen.decode("utf-8", "replace").replace("\r\n", "\n")
