"""Resource subscriptions in the Resources panel, against the real demo server: subscribe to a
note, change it with the add_note tool, and the panel shows the new text by itself."""

from __future__ import annotations

from typing import Any

import pytest

from tests.ui.conftest import connect, fill_text_field, run, run_tool_and_wait, select_tool

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")

URI = "demo://notes/groceries"


def add_note(qtbot: Any, desk: Any, text: str) -> None:
    """Through the Tools panel, as a person would."""
    select_tool(qtbot, desk, "add_note")
    fill_text_field(qtbot, desk.tool_panel.form, 0, "groceries")
    fill_text_field(qtbot, desk.tool_panel.form, 1, text)
    run_tool_and_wait(qtbot, desk)
    assert "Saved note groceries" in desk.tool_panel.result.json_text()


def read_note(qtbot: Any, desk: Any) -> Any:
    assert desk.catalog.select("resource_templates", "demo", "demo://notes/{name}")
    panel = desk.resource_panel
    assert desk.right.currentWidget() is panel
    qtbot.keyClicks(panel.fields["name"], "groceries")
    panel.read_button.click()
    qtbot.waitUntil(lambda: "milk, bread" in panel.result.json_text(), timeout=20000)
    return panel


def test_subscribed_note_is_read_again_when_it_changes(qtbot: Any, desk: Any) -> None:
    connect(qtbot, desk)
    add_note(qtbot, desk, "milk, bread")
    panel = read_note(qtbot, desk)
    # The note read through the template is one concrete resource: it can be followed.
    assert panel.uri == URI
    assert panel.subscribe.isVisibleTo(panel)
    with qtbot.waitSignal(desk.controller.subscription_changed, timeout=20000):
        panel.subscribe.setChecked(True)
    assert desk.controller.is_subscribed("demo", URI)

    with qtbot.waitSignal(desk.resource_refreshed, timeout=20000) as sig:
        add_note(qtbot, desk, "oat milk, pears")
    assert sig.args == ["demo", URI]
    qtbot.waitUntil(lambda: "oat milk, pears" in panel.result.json_text(), timeout=20000)
    assert "milk, bread" not in panel.result.json_text()
    assert "Updated at" in panel.updated.text()

    # Unsubscribed: the next change is not pushed (the server only tells subscribers).
    with qtbot.waitSignal(desk.controller.subscription_changed, timeout=20000):
        panel.subscribe.setChecked(False)
    assert not desk.controller.is_subscribed("demo", URI)
    conn = desk.controller.connection("demo")
    assert not run(qtbot, conn.call_tool("add_note", {"name": "groceries", "text": "cheese"})).is_error
    # Nothing re-read it by itself; Read by hand shows the change.
    assert "oat milk, pears" in panel.result.json_text()
    panel.read_button.click()
    qtbot.waitUntil(lambda: "cheese" in panel.result.json_text(), timeout=20000)
