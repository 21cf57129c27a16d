"""A server that is not an MCP server fails early and offers Diagnose: the doctor's steps run in
the window (off the GUI thread), each listed with its outcome; Cancel stops a run."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from tests.ui.conftest import open_desk, wait_state, write_servers

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")

HELLO = {"command": "sh", "args": ["-c", "echo Hello; exec sleep 60"]}
SILENT = {"command": "sh", "args": ["-c", "exec sleep 60"]}


def failed_with_diagnose(qtbot: Any, window: Any, server: str) -> None:
    assert window.servers.select(server)
    window.servers.buttons["connect"].click()
    wait_state(qtbot, window, server, "failed", timeout=30)
    qtbot.waitUntil(window.diagnose_button.isVisible)


def test_diagnose_lists_the_doctors_steps(qtbot: Any, aloop: Any, config_dir: Path) -> None:
    write_servers(config_dir, {"hello": HELLO})
    with open_desk(qtbot) as window:
        failed_with_diagnose(qtbot, window, "hello")
        row = window.server_model.server("hello")
        assert "does not look like an MCP server" in row.reason and "Hello" in row.reason
        window.diagnose_button.click()
        qtbot.waitUntil(lambda: getattr(window, "diagnose_dialog", None) is not None)
        d = window.diagnose_dialog
        qtbot.waitUntil(lambda: d.outcome is not None, timeout=60000)
        assert d.outcome == "fail"
        titles = {s.title: s for s in d.steps}
        assert titles["find the command 'sh'"].status == "ok"
        noise = titles["stdout carries only protocol messages"]
        assert noise.status == "fail" and any("Hello" in line for line in noise.details)
        assert d.step_count() == len(d.steps)  # every step is shown
        d.close_button.click()
        qtbot.waitUntil(lambda: window.diagnose_dialog is None)


@pytest.mark.slow
def test_diagnose_can_be_cancelled(qtbot: Any, aloop: Any, config_dir: Path, monkeypatch: Any) -> None:
    from app.mcp import connection

    monkeypatch.setattr(connection, "SILENCE_HINT", 60.0)
    write_servers(config_dir, {"silent": {**SILENT}})
    with open_desk(qtbot) as window:
        # Set a short connect timeout so the silent server fails soon.
        window.controller.store.settings("silent").timeout = 2.0
        window.controller.save()
        failed_with_diagnose(qtbot, window, "silent")
        # The diagnosis then waits for an answer as long as the doctor does (20 s): time to cancel.
        conn = window.controller.connection("silent")
        conn.target = dataclasses.replace(conn.target, timeout=60.0)
        window.diagnose_button.click()
        qtbot.waitUntil(lambda: getattr(window, "diagnose_dialog", None) is not None)
        d = window.diagnose_dialog
        qtbot.waitUntil(lambda: any(s.title == "start the process" for s in d.steps), timeout=20000)
        d.cancel_button.click()
        qtbot.waitUntil(lambda: d.outcome is not None, timeout=10000)
        assert d.outcome == "cancelled"
        d.reject()
        qtbot.waitUntil(lambda: window.diagnose_dialog is None)
