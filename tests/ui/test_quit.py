"""Quitting is clean, whichever way it is asked for: exit code 0, no traceback, and every server
process and every process they started is gone afterwards (checked by pid, with a deadline).

The real GUI runs as a subprocess (offscreen, a temp config dir, no keyring needed: the servers
have no secrets). Signals go to `python -m app` itself; the window and Qt ways of quitting need
someone inside the process to press the button, tests/ui/quit_driver.py.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.procs import descendants, left_running, read_pidfile
from tests.support.trust import write_approved_servers

REPO = Path(__file__).resolve().parents[2]
DEMO = {"command": sys.executable, "args": ["-m", "app", "demo-server"]}

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="checks processes through /proc")


def servers(cfg: Path, pidfile: Path, fault: str = "grandchild-ignores-term") -> None:
    """The demo server, and by default one whose helper left the process group (setsid) and
    ignores SIGTERM."""
    tree = {
        "command": sys.executable,
        "args": ["-m", "tests.servers.faults.tree_fault", fault, str(pidfile)],
        "cwd": str(REPO),
    }
    listing = {"mcpServers": {"demo": DEMO, "tree": tree}}
    write_approved_servers(cfg, listing["mcpServers"])


def gui_env() -> dict[str, str]:
    return dict(
        os.environ,
        QT_QPA_PLATFORM="offscreen",
        PYTHONPATH=str(REPO),
        # No real keyring for the child either (these servers need no secret anyway).
        PYTHON_KEYRING_BACKEND="keyring.backends.null.Keyring",
    )


def assert_clean(code: int | None, stderr: str) -> None:
    assert code == 0, stderr
    assert "Traceback" not in stderr, stderr
    assert "RuntimeError" not in stderr, stderr


def kill_strays(pidfile: Path) -> None:
    """After a failed test: leave no sleeper behind on a shared machine."""
    if pidfile.exists():
        tree = json.loads(pidfile.read_text(encoding="utf-8"))
        for pid in [tree["server"], *tree["helpers"]]:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


def start_gui(config_dir: Path, *extra: str, output: bool = True) -> subprocess.Popen[str]:
    """The real app as a person starts it, on the test's config folder (output captured or not)."""
    pipe = subprocess.PIPE if output else subprocess.DEVNULL
    return subprocess.Popen(
        [sys.executable, "-m", "app", "--config-dir", str(config_dir), *extra],
        stdout=pipe,
        stderr=pipe,
        text=True,
        env=gui_env(),
        cwd=REPO,
    )


def wait_for_children(pid: int, count: int, timeout: float = 60.0) -> list[int]:
    """Descendants of `pid` once it has at least `count` direct children (the servers)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = descendants(pid)
        if len([c for c in found if Path(f"/proc/{c}/stat").exists()]) >= count:
            return found
        time.sleep(0.05)
    raise TimeoutError(f"the servers of {pid} did not start in {timeout} s")


@pytest.mark.parametrize("sig", ["SIGTERM", "SIGINT", "SIGHUP"])
def test_signal_quits_cleanly_and_stops_every_server_process(
    sig: str, tmp_path: Path, config_dir: Path
) -> None:
    cfg = config_dir  # the test's own (tests/conftest.py)
    pidfile = tmp_path / "tree.json"
    servers(cfg, pidfile)
    gui = start_gui(cfg)
    try:
        tree = read_pidfile(pidfile, timeout=60)
        helpers = [int(p) for p in tree["helpers"]]  # type: ignore[union-attr]
        procs = sorted({*wait_for_children(gui.pid, 2), int(tree["server"]), *helpers})  # type: ignore[arg-type]
        gui.send_signal(getattr(signal, sig))
        _, stderr = gui.communicate(timeout=60)
    finally:
        if gui.poll() is None:
            gui.kill()
            gui.communicate()
        if left_running(procs, timeout=0):
            kill_strays(pidfile)
    assert_clean(gui.returncode, stderr)
    assert left_running(procs) == []


def test_servers_die_with_the_app_even_when_it_is_killed(tmp_path: Path, config_dir: Path) -> None:
    """SIGKILL leaves the app no chance to stop anything: the servers still go (a parent-death
    signal), even one that ignores SIGTERM and goes on after its stdin closes."""
    pidfile = tmp_path / "tree.json"
    servers(config_dir, pidfile, "ignore-term")
    gui = start_gui(config_dir, output=False)
    try:
        server = int(read_pidfile(pidfile, timeout=60)["server"])  # type: ignore[arg-type]
        leaders = wait_for_children(gui.pid, 2)
        gui.kill()
        gui.wait(timeout=30)
        assert left_running([server, *leaders]) == []
    finally:
        if gui.poll() is None:
            gui.kill()
            gui.wait()
        kill_strays(pidfile)


@pytest.mark.parametrize("how", ["close", "ctrl-q", "quit-event"])
def test_window_and_qt_quits_are_clean_and_stop_every_server_process(
    how: str, tmp_path: Path, config_dir: Path
) -> None:
    cfg = config_dir  # the test's own (tests/conftest.py)
    pidfile = tmp_path / "tree.json"
    servers(cfg, pidfile)
    try:
        out = subprocess.run(
            [sys.executable, "-m", "tests.ui.quit_driver", how, "--config-dir", str(cfg)],
            capture_output=True,
            text=True,
            timeout=100,
            env=gui_env(),
            cwd=REPO,
        )
    except subprocess.TimeoutExpired:
        kill_strays(pidfile)
        raise
    assert_clean(out.returncode, out.stderr)
    ready = [line for line in out.stdout.splitlines() if line.startswith("READY")]
    assert ready, out.stdout
    procs = [int(p) for p in ready[0].split()[1:]]
    tree = read_pidfile(pidfile, timeout=0)
    assert int(tree["server"]) in procs  # type: ignore[arg-type]
    assert len(procs) >= 3  # the demo server, the tree server and its helper (at least)
    assert left_running([*procs, *tree["helpers"]]) == []  # type: ignore[misc]


def test_interrupted_smoke_test_stops_its_servers_and_says_so(config_dir: Path) -> None:
    hang = {
        "command": sys.executable,
        "args": ["-m", "tests.servers.faults.stdio_fault", "never-initialize"],
        "cwd": str(REPO),
    }
    write_approved_servers(config_dir, {"hang": hang})
    gui = start_gui(config_dir, "--smoke-test")
    try:
        procs = wait_for_children(gui.pid, 1)
        gui.send_signal(signal.SIGTERM)
        _, stderr = gui.communicate(timeout=60)
    finally:
        if gui.poll() is None:
            gui.kill()
            gui.communicate()
    assert gui.returncode == 1, stderr  # the smoke test did not finish
    assert "interrupted (signal SIGTERM)" in stderr
    assert "Traceback" not in stderr, stderr
    assert left_running(procs) == []
