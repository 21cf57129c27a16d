"""A second start hands what it was asked to open to the running MCP Desk, over a per-user local
socket: a real second process talks to the listening end in this test (no sleeps: each side waits
on the other's answer), a stale socket file left by a crash is taken over, nothing listening
means "become the instance", and what arrives opens the install dialog in the real window."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest

from app.ui.single_instance import MAX_MESSAGE, SingleInstance, _items, hand_off, socket_name
from tests.ui.conftest import open_desk

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")

ROOT = Path(__file__).resolve().parents[2]
SECOND_START = (
    "import sys; from PySide6.QtCore import QCoreApplication; app = QCoreApplication([]); "
    "from app.ui.single_instance import hand_off; "
    "sys.exit(0 if hand_off(sys.argv[1], sys.argv[2:], 20000) else 1)"
)


def unique_name() -> str:
    return f"mcp-desk-test-{uuid.uuid4().hex[:12]}"


def second_start(name: str, *items: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.Popen([sys.executable, "-c", SECOND_START, name, *items], env=env, cwd=ROOT)


def test_a_second_process_hands_its_arguments_over(qtbot: Any, qapp: Any) -> None:
    instance = SingleInstance(unique_name())
    assert instance.listen()
    got: list[list[str]] = []
    instance.received.connect(got.append)
    link = "mcp-desk://install?name=a&config=e30"
    proc = second_start(instance.name, link, "/home/me/Downloads/weather.mcpb")
    try:
        qtbot.waitUntil(lambda: got != [] and proc.poll() is not None, timeout=30000)
    finally:
        if proc.poll() is None:
            proc.kill()
        instance.close()
    assert got == [[link, "/home/me/Downloads/weather.mcpb"]]
    assert proc.returncode == 0  # it was told "ok": it exits instead of opening a second window


def test_nothing_running_means_become_the_instance(qapp: Any) -> None:
    name = unique_name()
    assert hand_off(name, ["mcp-desk://install?x"], 2000) is False
    instance = SingleInstance(name)
    try:
        assert instance.listen()
        assert not SingleInstance(name).listen()  # a second one does not take the name
    finally:
        instance.close()


@pytest.mark.skipif(sys.platform == "win32", reason="a stale socket file is a Unix thing")
def test_a_socket_file_left_by_a_crash_is_taken_over(qapp: Any) -> None:
    from PySide6.QtNetwork import QLocalServer

    name = unique_name()
    probe = QLocalServer()
    assert probe.listen(name)
    path = Path(probe.fullServerName())
    probe.close()
    path.write_text("")  # what a crash leaves: the file, nobody behind it
    instance = SingleInstance(name)
    try:
        assert instance.listen()
    finally:
        instance.close()


def test_messages_are_read_with_limits() -> None:
    assert _items(b'{"open": ["a", 5, "", "b"]}') == ["a", "b"]
    assert _items(b"not json") is None and _items(b'["a"]') is None and _items(b"\xff") is None
    assert hand_off(unique_name(), ["x" * MAX_MESSAGE]) is False  # too long to send at all


def test_socket_name_is_per_folder() -> None:
    assert socket_name("/a") == socket_name("/a") != socket_name("/b")


def test_what_a_second_start_hands_over_opens_in_the_window(qtbot: Any, aloop: Any, config_dir: Path) -> None:
    from app.ui.main import Opener

    entry = {"command": sys.executable, "args": ["-c", "pass"]}
    link = "mcp-desk://install?name=handed&config=" + base64.b64encode(json.dumps(entry).encode()).decode()
    with open_desk(qtbot) as window:
        instance = SingleInstance(unique_name())
        assert instance.listen()
        opener = Opener(window)
        instance.received.connect(opener.received)
        proc = second_start(instance.name, link)
        try:
            qtbot.waitUntil(lambda: getattr(window, "install_dialog", None) is not None, timeout=30000)
            qtbot.waitUntil(lambda: proc.poll() is not None, timeout=30000)
        finally:
            if proc.poll() is None:
                proc.kill()
            instance.close()
        assert proc.returncode == 0
        dialog = window.install_dialog
        assert dialog.name_edit.text() == "handed"
        dialog.reject()
        qtbot.waitUntil(lambda: window.install_dialog is None)


@pytest.mark.slow
def test_the_real_app_started_twice_hands_the_link_over_and_exits(
    qtbot: Any, qapp: Any, config_dir: Path
) -> None:
    """`mcp-desk LINK` while MCP Desk runs on the same folder: the second start exits 0 at once,
    and the running one is the one that shows the link (it quits cleanly afterwards)."""
    import signal

    from PySide6.QtNetwork import QLocalSocket

    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "PYTHONPATH": str(ROOT),
        "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring",
    }
    command = [sys.executable, "-m", "app", "--config-dir", str(config_dir)]
    first = subprocess.Popen(
        command, env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        name = socket_name(str(config_dir))

        def listening() -> bool:
            sock = QLocalSocket()
            sock.connectToServer(name)
            ok = sock.waitForConnected(200)
            sock.abort()
            return ok or first.poll() is not None

        qtbot.waitUntil(listening, timeout=60000)
        assert first.poll() is None, first.communicate()
        link = "mcp-desk://install?name=t&config=" + base64.b64encode(b'{"command":"true"}').decode()
        second = subprocess.run(
            [*command, link], env=env, cwd=ROOT, capture_output=True, text=True, timeout=60
        )
        assert second.returncode == 0, second.stderr
        assert first.poll() is None  # still the one window
        first.send_signal(signal.SIGTERM)
        _, stderr = first.communicate(timeout=60)
        assert first.returncode == 0, stderr
        assert "Traceback" not in stderr, stderr
    finally:
        if first.poll() is None:
            first.kill()
            first.communicate()
