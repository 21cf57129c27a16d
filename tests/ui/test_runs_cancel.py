"""Item 8 of issue 11: a call the person cancels is "Cancelled", a neutral outcome — not a red
"The call failed … cancelled by you" — and the History records it as cancelled, not failed."""

from __future__ import annotations

from typing import Any

import pytest

from tests.ui.conftest import connect, select_tool

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")


def red() -> str:
    """The error colour of the palette in use (theme.py's, light or dark)."""
    from app.ui.theme import colours

    return colours("error")[1]


def test_cancelling_a_call_is_neutral_and_recorded_as_cancelled(qtbot: Any, desk: Any) -> None:
    connect(qtbot, desk)
    select_tool(qtbot, desk, "slow_count")
    panel = desk.tool_panel
    panel.form.set_value({"to": 30, "delay_seconds": 0.2})
    panel.run_button.click()
    qtbot.waitUntil(lambda: panel.progress.value() > 0, timeout=20000)  # it is running for sure
    with qtbot.waitSignal(desk.call_finished, timeout=20000):
        panel.cancel_button.click()

    status = panel.result.status
    assert status.text().startswith("Cancelled after "), status.text()
    assert "fail" not in status.text() and "cancelled by you" not in status.text()
    assert status.property("kind") == "cancelled"
    assert red() not in status.styleSheet()
    assert not panel.result.copy_button.isEnabled()  # nothing came back to copy

    (entry,) = desk.bottom.history_model.entries()
    assert entry.outcome() == "cancelled" and entry.failure is None
    assert desk.bottom.history_model.index(0, 0).data().endswith("demo/slow_count  [cancelled]")

    # Picked again in the History, it still reads as cancelled.
    panel.result.clear()
    dock = desk.bottom
    dock.setCurrentWidget(dock._history_page)
    dock.history_view.setCurrentIndex(dock.history_filter.index(0, 0))
    assert panel.result.status_text() == "Cancelled."
    assert panel.result.status.property("kind") == "cancelled"


def test_a_failed_call_still_reads_as_failed(qtbot: Any, desk: Any) -> None:
    """The other side of the line: a call that really failed keeps its red "The call failed"."""
    from app.ui.models.history import HistoryEntry

    view = desk.tool_panel.result
    view.show_entry(HistoryEntry("demo", "echo", {}, failure="the server went away"))
    assert view.status_text() == "The call failed: the server went away"
    assert view.status.property("kind") == "failed" and red() in view.status.styleSheet()
