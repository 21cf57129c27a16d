"""The Log tab: a real server's stderr activity lines, with the server's name and a level that the
level filter acts on (issue 5 §1, bottom dock)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.ui.conftest import connect, fill_text_field, run_tool_and_wait, select_tool

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")


def shown_rows(dock: Any) -> list[tuple[str, str, str, str]]:
    """(server, level, source, message) of each row the Log table shows, as displayed."""
    proxy = dock.log_filter
    cols = {proxy.headerData(c, _horizontal()): c for c in range(proxy.columnCount())}
    return [
        tuple(str(proxy.index(r, cols[h]).data()) for h in ("Server", "Level", "Source", "Message"))
        for r in range(proxy.rowCount())
    ]


def _horizontal() -> Any:
    from PySide6.QtCore import Qt

    return Qt.Orientation.Horizontal


def test_demo_servers_activity_shows_in_the_log_with_server_and_level(qtbot: Any, desk: Any) -> None:
    connect(qtbot, desk)
    select_tool(qtbot, desk, "add_note")
    fill_text_field(qtbot, desk.tool_panel.form, 0, "groceries")
    fill_text_field(qtbot, desk.tool_panel.form, 1, "milk")
    run_tool_and_wait(qtbot, desk)
    dock = desk.bottom
    assert dock.tabText(dock.currentIndex()) == "Log"

    def activity() -> list[tuple[str, str, str, str]]:
        return [r for r in shown_rows(dock) if "add_note groceries" in r[3]]

    qtbot.waitUntil(lambda: bool(activity()), timeout=20000)
    server, level, source, _ = activity()[0]
    assert (server, level, source) == ("demo", "info", "the program's error output")
    # Developer mode shows the engine's own word for where the line came from.
    from app.ui.developer_mode import developer_mode

    developer_mode().set_enabled(True)
    assert activity()[0][2] == "stderr"
    developer_mode().set_enabled(False)
    assert activity()[0][2] == "the program's error output"

    # The level filter acts on it: at "warning" and above the info line is hidden.
    dock.log_level.setCurrentText("warning")
    assert activity() == []
    dock.log_level.setCurrentText("debug")
    assert activity()
    # So does the server filter.
    assert dock.log_server.findText("demo") >= 0
    dock.log_server.setCurrentIndex(dock.log_server.findText("demo"))
    assert activity()


@pytest.mark.parametrize(
    ("line", "level"),
    [
        ("INFO app.demo.server: add_note a", "info"),
        ("WARNING:root:disk almost full", "warning"),
        ("[error] cannot open db", "error"),
        ("warn: deprecated option", "warning"),
        ("CRITICAL boom", "critical"),
        ("Information overload", "notice"),  # no level word: the given default stays
        ("Server listening on stdio", "notice"),
    ],
)
def test_stderr_lines_level_from_their_first_word(line: str, level: str) -> None:
    from app.ui.window import stderr_level

    assert stderr_level(line, "notice") == level
