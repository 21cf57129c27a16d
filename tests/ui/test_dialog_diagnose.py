"""Diagnose speaks to people (issue 11, sections 1.6 and 2): the doctor's steps are shown in plain
words — no "JSON-RPC", "initialize" or "stdout" unless developer mode is on — with what the
program printed, and long lines wrap inside the window instead of running off its edge."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication, QLabel

from app.ui.developer_mode import developer_mode
from tests.ui.conftest import open_desk, wait_state, write_servers

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")

LONG = "x" * 190  # one unbroken line of output, as a server may print
# It prints and exits: the doctor finds both at once (a server that sleeps costs its 20 s wait).
NOISY = {"command": "sh", "args": ["-c", f"echo Hello; echo {LONG}"]}
PROTOCOL = ("JSON-RPC", "initialize", "stdout", "stderr")


def diagnosed(qtbot: Any, window: Any, server: str) -> Any:
    assert window.servers.select(server)
    window.servers.buttons["connect"].click()
    wait_state(qtbot, window, server, "failed", timeout=30)
    qtbot.waitUntil(window.diagnose_button.isVisible)
    window.diagnose_button.click()
    qtbot.waitUntil(lambda: getattr(window, "diagnose_dialog", None) is not None)
    d = window.diagnose_dialog
    qtbot.waitUntil(lambda: d.outcome is not None, timeout=60000)
    return d


def test_diagnose_in_peoples_words_and_the_doctors_in_developer_mode(
    qtbot: Any, aloop: Any, config_dir: Path
) -> None:
    write_servers(config_dir, {"noisy": NOISY})
    with open_desk(qtbot) as window:
        d = diagnosed(qtbot, window, "noisy")
        assert d.outcome == "fail"
        text = "\n".join(d.step_texts()).replace("\u200b", "")
        assert not [w for w in PROTOCOL if w in text], text
        assert "Start the program" in text and "“Hello”" in text  # what it printed, shown
        assert "does not look like an MCP server" in text

        developer_mode().set_enabled(True)  # the doctor's own words, while the window is open
        QApplication.processEvents()
        dev_text = "\n".join(d.step_texts()).replace("\u200b", "")
        assert "stdout carries only protocol messages" in dev_text and "JSON-RPC" in dev_text
        assert d.step_count() == len(d.steps)
        d.close_button.click()
        qtbot.waitUntil(lambda: window.diagnose_dialog is None)


def test_long_lines_wrap_inside_the_window(qtbot: Any, aloop: Any, config_dir: Path) -> None:
    write_servers(config_dir, {"noisy": NOISY})
    with open_desk(qtbot) as window:
        d = diagnosed(qtbot, window, "noisy")
        d.resize(520, 440)
        QApplication.processEvents()
        viewport = d.step_area.viewport().width()
        labels = [label for box in d.step_boxes for label in box.findChildren(QLabel)]
        long_label = next(label for label in labels if "xxxxxxxx" in label.text())
        assert long_label.wordWrap()
        assert all(label.minimumSizeHint().width() <= viewport for label in labels), viewport
        assert d.step_area.horizontalScrollBar().maximum() == 0  # nothing runs off to the side
        d.close_button.click()
        qtbot.waitUntil(lambda: window.diagnose_dialog is None)
