"""Run a test server as a child process, learn when it is ready, and prove it is gone afterwards.

Every process a test starts carries `MCP_DESK_TEST_PROCESS=<token>` in its environment; children it
forks inherit it, so `processes_with_token` finds grandchildren too, even after they were re-parented.
"""

from __future__ import annotations

import collections
import contextlib
import os
import re
import signal
import socket
import subprocess
import threading
import time
import uuid
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

TOKEN_VAR = "MCP_DESK_TEST_PROCESS"
LISTENING = re.compile(r"MCP_TEST_LISTENING (?P<host>[\d.]+):(?P<port>\d+)")


def new_token() -> str:
    return uuid.uuid4().hex


def processes_with_token(token: str) -> list[int]:
    """Live (non-zombie) processes whose environment holds our token."""
    needle = f"{TOKEN_VAR}={token}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if needle not in (entry / "environ").read_bytes().split(b"\0"):
                continue
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue  # gone meanwhile, or not ours to read
        if state != "Z":
            found.append(int(entry.name))
    return found


def wait_until(predicate: object, timeout: float, interval: float = 0.02) -> bool:
    """Poll `predicate()` until it is true or `timeout` passes; returns its last value."""
    assert callable(predicate)
    deadline = time.monotonic() + timeout
    while True:
        if predicate():
            return True
        if time.monotonic() >= deadline:
            return bool(predicate())
        time.sleep(interval)


def wait_no_processes(token: str, timeout: float = 10.0) -> list[int]:
    """Wait for every process carrying `token` to exit; returns the ones still alive."""
    wait_until(lambda: not processes_with_token(token), timeout)
    return processes_with_token(token)


def wait_until_accepts(host: str, port: int, timeout: float) -> None:
    def accepts() -> bool:
        try:
            with socket.create_connection((host, port), timeout=0.5):
                return True
        except OSError:
            return False

    if not wait_until(accepts, timeout, interval=0.05):
        raise TimeoutError(f"nothing accepts connections on {host}:{port} after {timeout:.0f} s")


class ServerProcess:
    """A child in its own session (so stop() reaches everything it forked); output drained by threads."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        env: Mapping[str, str] | None = None,
        cwd: str | os.PathLike[str] | None = None,
        token: str | None = None,
    ) -> None:
        self.argv = list(argv)
        self.token = token or new_token()
        self.env = {**os.environ, **(env or {}), TOKEN_VAR: self.token}
        self.cwd = cwd
        self.output: collections.deque[str] = collections.deque(maxlen=2000)
        self._new_line = threading.Condition()
        self._threads: list[threading.Thread] = []
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> ServerProcess:
        self.proc = subprocess.Popen(
            self.argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=self.env,
            cwd=self.cwd,
            start_new_session=True,
        )
        for stream in (self.proc.stdout, self.proc.stderr):
            assert stream is not None
            thread = threading.Thread(target=self._drain, args=(stream,), daemon=True)
            thread.start()
            self._threads.append(thread)
        return self

    def _drain(self, stream: Iterable[bytes]) -> None:
        for raw in stream:
            with self._new_line:
                self.output.append(raw.decode("utf-8", "replace").rstrip("\n"))
                self._new_line.notify_all()
        with self._new_line:
            self._new_line.notify_all()

    def wait_for_line(self, pattern: re.Pattern[str], timeout: float) -> re.Match[str]:
        """The first output line matching `pattern`; fails early if the process exits."""
        assert self.proc is not None
        deadline = time.monotonic() + timeout
        with self._new_line:
            while True:
                for line in self.output:
                    if match := pattern.search(line):
                        return match
                if self.proc.poll() is not None and not any(t.is_alive() for t in self._threads):
                    raise RuntimeError(
                        f"{self.argv[0]} exited with {self.proc.returncode} before it was ready:\n"
                        + "\n".join(self.output)
                    )
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    output = "\n".join(self.output)
                    raise TimeoutError(f"{self.argv[0]} not ready after {timeout:.0f} s:\n{output}")
                self._new_line.wait(min(remaining, 0.5))

    def wait_listening(self, timeout: float = 30.0) -> tuple[str, int]:
        """Wait for the `MCP_TEST_LISTENING host:port` line, then until the port accepts."""
        match = self.wait_for_line(LISTENING, timeout)
        host, port = match["host"], int(match["port"])
        wait_until_accepts(host, port, timeout)
        return host, port

    def stop(self, grace: float = 3.0) -> None:
        """Terminate the whole process group, kill it after `grace` seconds, and reap the child."""
        if self.proc is None:
            return
        for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 5.0)):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, sig)
            try:
                self.proc.wait(wait)
                break
            except subprocess.TimeoutExpired:
                continue
        # Grandchildren that left the group still carry the token.
        for pid in processes_with_token(self.token):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        for thread in self._threads:
            thread.join(5.0)
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()

    def __enter__(self) -> ServerProcess:
        return self.start() if self.proc is None else self

    def __exit__(self, *exc: object) -> None:
        self.stop()
