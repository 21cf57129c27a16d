"""The tool panel speaks to people: titles without ids, annotations in words, no protocol words;
ids, the JSON tab and raw answers come back with developer mode (against the real demo server)."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtWidgets import QLabel, QWidget

from tests.ui.conftest import connect, run_tool_and_wait, select_tool

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")

PROTOCOL_WORDS = ("isError", "effects unknown", "idempotent", "null", "structuredContent", "outputSchema")


def shown_texts(root: QWidget) -> list[str]:
    """Every label's text a person can see under `root` (tooltips are not on screen)."""
    return [w.text() for w in root.findChildren(QLabel) if w.isVisibleTo(root) and w.text()]


def catalog_rows(desk: Any, kind: str = "tools") -> list[str]:
    proxy = desk.catalog.proxies[kind]
    return [str(proxy.index(i, 0).data()) for i in range(proxy.rowCount())]


def test_shown_hints_say_only_what_the_server_said() -> None:
    from app.ui.tool_panel import shown_hints

    assert shown_hints(None) == []  # nothing said: nothing shown (no "effects unknown")
    assert shown_hints({}) == []
    assert shown_hints({"readOnlyHint": True, "idempotentHint": True}) == ["readOnlyHint"]
    assert shown_hints({"readOnlyHint": False}) == ["changes"]
    assert shown_hints({"destructiveHint": False}) == ["changes"]
    assert shown_hints({"destructiveHint": True, "idempotentHint": True, "openWorldHint": True}) == [
        "destructiveHint",
        "idempotentHint",
        "openWorldHint",
    ]
    # a read-only tool is never "can delete", whatever else it says
    assert shown_hints({"readOnlyHint": True, "destructiveHint": True}) == ["readOnlyHint"]


def test_tool_panel_in_words_and_developer_mode_brings_back_ids(qtbot: Any, desk: Any) -> None:
    from app.ui.developer_mode import developer_mode

    connect(qtbot, desk)
    panel = desk.tool_panel
    select_tool(qtbot, desk, "echo")
    assert panel.title.text() == "Echo"
    assert panel.name.isHidden()  # "demo/echo" is for developer mode
    assert "demo/echo" in panel.title.toolTip()  # …and the tooltip
    assert panel.badge_texts() == ["Only reads"]
    assert "readOnlyHint" in panel._badge_widgets()[0].toolTip()  # the precise term, in the tooltip
    assert "Echo" in catalog_rows(desk) and "Echo (echo)" not in catalog_rows(desk)
    tabs = panel.form.tabs
    assert not tabs.isTabVisible(tabs.indexOf(panel.form._json_page))  # the JSON tab: developer mode

    select_tool(qtbot, desk, "configure_service")  # the demo gives it no annotations
    assert panel.badge_texts() == []
    select_tool(qtbot, desk, "delete_note")
    assert panel.badge_texts() == ["Can delete things", "Safe to repeat"]
    select_tool(qtbot, desk, "add_note")
    assert panel.badge_texts() == ["Changes things"]
    for text in shown_texts(panel):
        assert not any(word in text for word in PROTOCOL_WORDS), text

    developer_mode().set_enabled(True)
    assert not panel.name.isHidden() and panel.name.text() == "demo/add_note"
    form_tabs = panel.form.tabs
    assert form_tabs.isTabVisible(form_tabs.indexOf(panel.form._json_page))
    assert "Echo (echo)" in catalog_rows(desk)  # the lists name the ids again
    developer_mode().set_enabled(False)
    assert panel.name.isHidden()
    assert "Echo" in catalog_rows(desk) and "Echo (echo)" not in catalog_rows(desk)

    # At 1024×700 the catalog's three tabs stay in sight.
    desk.resize(1024, 700)
    bar = desk.catalog.tabs.tabBar()
    qtbot.waitUntil(lambda: desk.width() == 1024, timeout=5000)
    assert not bar.usesScrollButtons()
    last = bar.tabRect(bar.count() - 1)
    assert last.right() <= bar.width() and last.width() > 0  # "Prompts" is not behind an arrow
    assert bar.tabToolTip(2).startswith("Prompts")


def test_a_tool_error_is_the_tools_problem_in_words(qtbot: Any, desk: Any) -> None:
    from app.ui.developer_mode import developer_mode

    connect(qtbot, desk)
    select_tool(qtbot, desk, "fail")
    run_tool_and_wait(qtbot, desk)
    rv = desk.tool_panel.result
    assert rv.status_text().startswith("The tool reported a problem")
    assert rv.status_kind() == "error"
    assert rv.copy_button.isHidden() and rv.raw_button.isHidden()  # raw JSON: developer mode only
    for text in shown_texts(desk.tool_panel):
        assert "isError" not in text, text
    developer_mode().set_enabled(True)
    assert not rv.copy_button.isHidden() and not rv.raw_button.isHidden()
    rv.raw_button.setChecked(True)
    assert rv.raw_block is not None and '"isError": true' in rv.raw_block.text()
    developer_mode().set_enabled(False)
    assert rv.raw_block is None  # leaving developer mode closes the raw answer


def test_weather_result_data_is_a_table_and_labelled_values(qtbot: Any, desk: Any) -> None:
    from app.ui.result_data import DataView, RecordTable
    from app.ui.results import TextBlock
    from tests.ui.conftest import fill_text_field

    connect(qtbot, desk)
    select_tool(qtbot, desk, "weather")
    fill_text_field(qtbot, desk.tool_panel.form, 0, "Lisbon")
    run_tool_and_wait(qtbot, desk)
    rv = desk.tool_panel.result
    views = rv.findChildren(DataView)
    assert views
    tables = rv.findChildren(RecordTable)
    assert len(tables) == 1  # the forecast: a list of flat records
    assert tables[0].header_texts() == ["Day", "High", "Low", "Conditions"]
    assert tables[0].rowCount() == 3
    labels = shown_texts(views[0])
    assert "Humidity percent:" in labels and "Lisbon" in labels
    # The text copy of the same data (JSON) is not shown twice to a person.
    assert not [b for b in rv.findChildren(TextBlock) if '"city"' in b.text()]
