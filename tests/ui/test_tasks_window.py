"""A tool the server runs as a task, in the window: the task view shows it with the server's
status message; the person leaves it running (the form is free again, the result lands in the
History when it ends) or cancels it (the SDK task server, tests/servers/tasks_server.py)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from tests.ui.conftest import connect, open_desk, select_tool, write_servers

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")

SERVER = Path(__file__).resolve().parents[2] / "tests" / "servers" / "tasks_server.py"


def only_row(view: Any) -> Any:
    rows = list(view.rows.values())
    return rows[0] if len(rows) == 1 else None


@pytest.mark.slow  # a window and a server: ~30 s on a busy machine
def test_a_task_is_shown_left_running_cancelled_and_its_result_kept(
    qtbot: Any, aloop: Any, config_dir: Path
) -> None:
    write_servers(config_dir, {"tasks": {"command": sys.executable, "args": [str(SERVER)]}})
    with open_desk(qtbot) as desk:
        desk.controller.settings("tasks").protocol_mode = "legacy"  # 2025-11-25 tasks
        connect(qtbot, desk, "tasks")
        panel = desk.tool_panel
        view = panel.tasks
        assert not view.isVisible()

        # A task that works until cancelled: shown with its status message, then left running.
        select_tool(qtbot, desk, "stubborn", "tasks")
        panel.run_button.click()
        qtbot.waitUntil(
            lambda: (row := only_row(view)) is not None and row.message.text() == "working until cancelled",
            timeout=20000,
        )
        row = only_row(view)
        assert view.isVisible() and row.status.text() == "running on the server"
        assert row.title.text() == "Task: stubborn on tasks"
        assert row.leave_button.isVisible() and row.cancel_button.isVisible()
        with qtbot.waitSignal(desk.call_finished, timeout=20000):
            row.leave_button.click()
        assert panel.result.status_text().startswith("Left running on the server")
        assert panel.run_button.isEnabled()  # the form is free for another run
        assert row.status.text() == "left running on the server"
        assert not row.leave_button.isVisible() and row.cancel_button.isVisible()

        # Cancelled from its row while it runs on: the server ends it, the History says so.
        row.cancel_button.click()
        qtbot.waitUntil(lambda: row.status.text() == "cancelled", timeout=20000)
        (entry,) = desk.bottom.history_model.entries()
        assert entry.outcome() == "cancelled"
        assert row.dismiss_button.isVisible() and not row.cancel_button.isVisible()
        row.dismiss_button.click()
        assert not view.isVisible()

        # A task left running that ends: its result is in the History and behind "Show result".
        select_tool(qtbot, desk, "long_job", "tasks")
        panel.form.set_value({"steps": 8, "delay": 0.25})
        panel.run_button.click()
        qtbot.waitUntil(lambda: only_row(view) is not None, timeout=20000)
        with qtbot.waitSignal(desk.call_finished, timeout=20000):
            only_row(view).leave_button.click()
        row = only_row(view)
        qtbot.waitUntil(lambda: row.status.text() == "finished", timeout=30000)
        newest = desk.bottom.history_model.entries()[0]
        assert newest.tool == "long_job" and newest.outcome() == "ok"
        assert row.result_button.isVisible()
        row.result_button.click()
        assert "done after 8 steps" in panel.result.json_text()
