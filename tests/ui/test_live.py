"""Live refresh and requests from the server (elicitation, sampling) through the real window."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt

from tests.ui.conftest import connect, fill_text_field, run, select_tool

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")


def current_tool_key(window: Any) -> str | None:
    item = window.catalog.current_item("tools")
    return item.key if item is not None else None


def test_list_changed_keeps_selection_and_input(qtbot: Any, desk: Any) -> None:
    connect(qtbot, desk)
    select_tool(qtbot, desk, "echo")
    fill_text_field(qtbot, desk.tool_panel.form, 0, "typed before the refresh")
    form_before = desk.tool_panel.form
    conn = desk.controller.connection("demo")
    with qtbot.waitSignal(desk.notice_shown, timeout=20000) as sig:
        run(qtbot, conn.call_tool("toggle_bonus_tool", {}))
    assert sig.args[0] == "demo: 1 tool added"
    assert "lucky_number" in desk.notice.toolTip()
    assert desk.catalog.models["tools"].find("demo", "lucky_number") >= 0
    assert desk.server_model.server("demo").tool_count == 14
    # the selection and what was typed survive the refresh
    assert current_tool_key(desk) == "echo"
    assert desk.tool_panel.form is form_before
    assert desk.tool_panel.form_value() == {"message": "typed before the refresh"}

    # Now select the bonus tool and have the server remove it: the panel says so.
    select_tool(qtbot, desk, "lucky_number")
    with qtbot.waitSignal(desk.notice_shown, timeout=20000) as sig:
        run(qtbot, conn.call_tool("toggle_bonus_tool", {}))
    assert sig.args[0] == "demo: 1 tool removed"
    assert desk.tool_panel.is_removed()
    assert "removed" in desk.tool_panel.removed.text()
    assert not desk.tool_panel.run_button.isEnabled()


def _open_dialogs(window: Any) -> list[Any]:
    return [d for d in window.controller.handlers.open_dialogs if d.isVisible()]


def _run_until_server_asks(qtbot: Any, desk: Any, tool: str) -> Any:
    """Connect, run `tool`, and return the one dialog its server request (elicitation/sampling) opened."""
    connect(qtbot, desk)
    select_tool(qtbot, desk, tool)
    desk.tool_panel.run_button.click()
    qtbot.waitUntil(lambda: bool(_open_dialogs(desk)), timeout=20000)
    (d,) = _open_dialogs(desk)
    return d


def test_elicitation_round_trip(qtbot: Any, desk: Any) -> None:
    d = _run_until_server_asks(qtbot, desk, "book_table")
    assert "Booking a table at Chez Demo" in d.message.text()
    # The main window stays usable while the server waits for the person (non-modal).
    assert not d.isModal()
    d.set_value(
        {
            "party_size": 4,
            "day": "2026-12-24",
            "seating": "terrace",
            "vegetarian": True,
            "contact_email": "ana@example.com",
        }
    )
    with qtbot.waitSignal(desk.call_finished, timeout=20000):
        d.accept_button.click()
    text = desk.tool_panel.result.json_text()
    assert "Booked a table for 4 at Chez Demo on 2026-12-24, terrace, vegetarian" in text


def test_elicitation_decline(qtbot: Any, desk: Any) -> None:
    d = _run_until_server_asks(qtbot, desk, "book_table")
    with qtbot.waitSignal(desk.call_finished, timeout=20000):
        d.decline_button.click()
    assert "No booking made: you said no" in desk.tool_panel.result.json_text()


def test_sampling_round_trip(qtbot: Any, desk: Any) -> None:
    from app.ui.requests import SamplingDialog

    d = _run_until_server_asks(qtbot, desk, "ask_model")
    assert isinstance(d, SamplingDialog)
    texts = [w.toPlainText() for w in d.findChildren(type(d.answer))]
    assert any("Say hello in three languages." in t and "Answer in one short paragraph." in t for t in texts)
    qtbot.keyClicks(d.answer, "Hello, Bonjour, Hallo")
    with qtbot.waitSignal(desk.call_finished, timeout=20000):
        d.send_button.click()
    assert "answered: Hello, Bonjour, Hallo" in desk.tool_panel.result.json_text()


def test_sampling_declined(qtbot: Any, desk: Any) -> None:
    d = _run_until_server_asks(qtbot, desk, "ask_model")
    with qtbot.waitSignal(desk.call_finished, timeout=20000):
        d.decline_button.click()
    status = desk.tool_panel.result.status_text()
    # A declined sampling request makes the server's tool fail: either way the window says so.
    assert "failed" in status or "error" in status, status


def test_progress_and_cancel(qtbot: Any, desk: Any) -> None:
    connect(qtbot, desk)
    select_tool(qtbot, desk, "slow_count")
    desk.tool_panel.form.set_value({"to": 20, "delay_seconds": 0.2})
    desk.tool_panel.run_button.click()
    qtbot.waitUntil(
        lambda: desk.tool_panel.progress.maximum() == 1000 and desk.tool_panel.progress.value() > 0,
        timeout=20000,
    )
    assert "Counted" in desk.tool_panel.progress_text.text()
    desk.activateWindow()
    with qtbot.waitSignal(desk.call_finished, timeout=20000):
        qtbot.keyClick(desk.tool_panel.form, Qt.Key.Key_Escape)  # Esc cancels the running call
    assert desk.tool_panel.result.status_text().startswith("Cancelled")  # neutral, not "failed"
    assert desk.tool_panel.run_button.isEnabled()
