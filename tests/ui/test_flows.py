"""End-to-end flows through the real window against the real demo server (no protocol mocks)."""

from __future__ import annotations

import sys
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from tests.ui.conftest import connect, fill_text_field, run_tool_and_wait, select_tool, wait_state

# The offscreen platform plugin warns that it cannot size top-level windows; that is not our bug.
pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")


def test_first_run_shows_demo_and_guide(desk: Any) -> None:
    assert desk.server_model.names() == ["demo"]
    assert desk.right.currentWidget() is desk.guide
    assert "connecting by itself" in desk.guide_text.text()


def test_add_server_connect_run_echo(qtbot: Any, desk: Any) -> None:
    desk.add_server()
    qtbot.waitUntil(
        lambda: getattr(desk, "server_dialog", None) is not None and desk.server_dialog.isVisible()
    )
    d = desk.server_dialog
    qtbot.keyClicks(d.name, "mine")
    qtbot.keyClicks(d.command, sys.executable)
    d.set_args(["-m", "app", "demo-server"])
    d.buttons.button(d.buttons.StandardButton.Save).click()
    qtbot.waitUntil(lambda: "mine" in desk.server_model.names())
    assert desk.controller.entry("mine").args == ["-m", "app", "demo-server"]

    connect(qtbot, desk, "mine")
    assert desk.server_model.server("mine").tool_count >= 10
    select_tool(qtbot, desk, "echo", "mine")
    assert desk.tool_panel.title.text() == "Echo"
    assert "readOnlyHint" in desk.tool_panel.badge_hints()
    fill_text_field(qtbot, desk.tool_panel.form, 0, "hello from the form")
    run_tool_and_wait(qtbot, desk)
    status = desk.tool_panel.result.status_text()
    assert status.startswith("Done"), status
    assert "hello from the form" in desk.tool_panel.result.json_text()
    # the call is in the history and the traffic log saw it
    assert desk.bottom.history_model.rowCount() == 1
    assert any(
        "tools/call" in desk.bottom.traffic_model.index(i, 3).data()
        for i in range(desk.bottom.traffic_model.rowCount())
    )


def test_add_dialog_validates_at_the_field(qtbot: Any, desk: Any) -> None:
    desk.add_server()
    qtbot.waitUntil(
        lambda: getattr(desk, "server_dialog", None) is not None and desk.server_dialog.isVisible()
    )
    d = desk.server_dialog
    qtbot.keyClicks(d.name, "broken")
    qtbot.keyClicks(d.command, "surely-no-such-command-xyz")
    d.buttons.button(d.buttons.StandardButton.Save).click()
    assert d.isVisible()
    assert "not found on PATH" in d.command_error.text()
    d.transport.setCurrentIndex(d.transport.findData("http"))
    qtbot.keyClicks(d.url, "ftp://example.com")
    d.buttons.button(d.buttons.StandardButton.Save).click()
    assert d.isVisible() and "http" in d.url_error.text()
    d.reject()
    qtbot.waitUntil(lambda: desk.server_dialog is None)
    assert "broken" not in desk.server_model.names()


def test_is_error_result_shown_as_tool_error(qtbot: Any, desk: Any) -> None:
    connect(qtbot, desk)
    select_tool(qtbot, desk, "fail")
    run_tool_and_wait(qtbot, desk)
    assert desk.tool_panel.result.status_text().startswith("The tool reported a problem")
    assert "fails on purpose" in desk.tool_panel.result.json_text()


def test_image_and_structured_results(qtbot: Any, desk: Any) -> None:
    from app.ui.results import ImageBlock

    connect(qtbot, desk)
    select_tool(qtbot, desk, "draw_badge")
    run_tool_and_wait(qtbot, desk)
    images = [b for b in desk.tool_panel.result.findChildren(ImageBlock)]
    assert images and not images[0].image.isNull()
    select_tool(qtbot, desk, "weather")
    fill_text_field(qtbot, desk.tool_panel.form, 0, "Lisbon")
    run_tool_and_wait(qtbot, desk)
    marks = [w.text() for w in desk.tool_panel.result.findChildren(QLabel, "structuredMark")]
    assert marks and "matches" in marks[0], marks


def test_destructive_tool_asks_first(qtbot: Any, desk: Any) -> None:
    from PySide6.QtWidgets import QMessageBox

    connect(qtbot, desk)
    select_tool(qtbot, desk, "delete_note")
    assert "destructiveHint" in desk.tool_panel.badge_hints()
    fill_text_field(qtbot, desk.tool_panel.form, 0, "nothing-here")

    def box() -> QMessageBox | None:
        boxes = [w for w in desk.findChildren(QMessageBox) if w.isVisible()]
        return boxes[0] if boxes else None

    # Cancel: the tool does not run.
    desk.tool_panel.run_button.click()
    qtbot.waitUntil(lambda: box() is not None)
    b = box()
    assert "delete or change things" in b.text()
    next(btn for btn in b.buttons() if btn.text() == "Cancel").click()
    qtbot.waitUntil(lambda: box() is None and desk._call_task.done())
    assert desk.bottom.history_model.rowCount() == 0
    # Run, and don't ask again: stored in the settings' trusted_tools.
    desk.tool_panel.run_button.click()
    qtbot.waitUntil(lambda: box() is not None)
    b = box()
    b.checkBox().setChecked(True)
    with qtbot.waitSignal(desk.call_finished, timeout=30000):
        next(btn for btn in b.buttons() if btn.text() == "Run").click()
    assert desk.bottom.history_model.rowCount() == 1
    assert desk.controller.is_trusted("demo", "delete_note")
    run_tool_and_wait(qtbot, desk)  # no question this time
    assert desk.bottom.history_model.rowCount() == 2


def test_failed_server_reason_while_others_work(qtbot: Any, desk: Any, config_dir: Any) -> None:
    from app.config.model import ServerEntry

    store = desk.controller.store
    store.add(ServerEntry(name="broken", command=sys.executable, args=["-c", "import sys; sys.exit(3)"]))
    desk.controller.save()
    qtbot.waitUntil(lambda: "broken" in desk.server_model.names())
    desk.servers.select("broken")
    desk.servers.buttons["connect"].click()
    connect(qtbot, desk, "demo")
    wait_state(qtbot, desk, "broken", "failed")
    reason = desk.server_model.server("broken").reason
    assert reason
    desk.servers.select("broken")
    idx = desk.server_model.index(desk.server_model.row_of("broken"), 0)
    assert idx.data(desk.server_model.StatusTextRole).startswith("couldn't connect: ")
    assert reason in desk.catalog.empty.text()
    # the demo server still answers
    select_tool(qtbot, desk, "echo")
    fill_text_field(qtbot, desk.tool_panel.form, 0, "still fine")
    run_tool_and_wait(qtbot, desk)
    assert "still fine" in desk.tool_panel.result.json_text()


def test_untrusted_description_is_plain_text(qtbot: Any, desk: Any) -> None:
    from app.mcp.catalog import ToolInfo

    evil = ToolInfo.from_raw(
        {
            "name": "evil",
            "description": '<a href="javascript:alert(1)">click</a><img src="http://x/y.png"><b>bold</b>',
            "inputSchema": {"type": "object"},
        }
    )
    desk.tool_panel.show_tool("demo", evil)
    label = desk.tool_panel.description
    assert label.textFormat() == Qt.TextFormat.PlainText
    assert label.text().startswith('<a href="javascript:')
    assert not label.openExternalLinks()
    # the list's tooltip cannot turn into rich text either
    from app.ui.models.catalog import CatalogItem, CatalogModel

    m = CatalogModel("tools")
    m.set_items("demo", [CatalogItem("demo", "evil", "", evil.description or "", evil)])
    tip = m.data(m.index(0, 0), Qt.ItemDataRole.ToolTipRole)
    from PySide6.QtGui import QTextDocument

    doc = QTextDocument()
    doc.setHtml(tip)
    assert doc.toPlainText().startswith('<a href="javascript:')  # shown literally, not as a link
    assert "<a href" not in doc.toHtml()  # escaped: no live link in the rendered tooltip
