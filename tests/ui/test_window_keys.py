"""Keyboard and context menu of the window (issue 11 §1.10, §1.11): Tab walks server list →
search → the catalog's list → the tool's form → Run; Delete removes the selected server after the
usual question; the context menu renames and disables/enables; an information box has the
information icon and one button. Against the real demo server."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from tests.ui.conftest import DEMO, connect, open_desk, run, select_tool, wait_state, write_servers

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")

WAIT = 30000


def focus(qtbot: Any, widget: QWidget) -> None:
    widget.window().activateWindow()  # a closed message box may have taken the activation along
    qtbot.waitUntil(widget.window().isActiveWindow, timeout=5000)
    widget.setFocus(Qt.FocusReason.OtherFocusReason)
    qtbot.waitUntil(widget.hasFocus, timeout=5000)


def inside(child: QWidget | None, parent: QWidget) -> bool:
    while child is not None:
        if child is parent:
            return True
        child = child.parentWidget()
    return False


def open_box(title: str) -> QMessageBox | None:
    for w in QApplication.topLevelWidgets():
        if isinstance(w, QMessageBox) and w.isVisible() and w.windowTitle() == title:
            return w
    return None


def menu_of(window: Any, server: str) -> dict[str, Any]:
    view = window.servers.view
    rect = view.visualRect(window.server_model.index(window.server_model.row_of(server), 0))
    window.servers._menu(QPoint(rect.center()))
    menu = window.servers.menu
    assert menu is not None
    actions = {a.objectName(): a for a in menu.actions() if a.objectName()}
    menu.close()
    return actions


def test_tab_goes_from_the_server_list_to_search_to_the_list_to_the_form_and_run(
    qtbot: Any, aloop: Any, config_dir: Path
) -> None:
    with open_desk(qtbot) as window:
        window.activateWindow()
        qtbot.waitUntil(window.isActiveWindow, timeout=5000)
        connect(qtbot, window)
        select_tool(qtbot, window, "echo")
        focus(qtbot, window.servers.view)
        qtbot.keyClick(window.servers.view, Qt.Key.Key_Tab)
        assert window.catalog.search.hasFocus()
        tools = window.catalog.views["tools"]
        qtbot.keyClick(window.catalog.search, Qt.Key.Key_Tab)
        assert tools.hasFocus(), QApplication.focusWidget()
        qtbot.keyClick(tools, Qt.Key.Key_Tab)
        form = window.tool_panel.form
        assert form is not None
        focused = QApplication.focusWidget()
        # Into the form, not to the Log tab at the bottom.
        assert inside(focused, form), focused
        assert not inside(focused, window.dock)
        # From the form's last field, Tab goes to Run.
        from app.ui.window import _last_focusable

        last = _last_focusable(form)
        assert last is not None
        focus(qtbot, last)
        qtbot.keyClick(last, Qt.Key.Key_Tab)
        assert window.tool_panel.run_button.hasFocus(), QApplication.focusWidget()


def test_delete_on_the_server_list_removes_the_server_after_the_question(
    qtbot: Any, aloop: Any, config_dir: Path
) -> None:
    write_servers(config_dir, {"demo": DEMO, "other": DEMO})
    with open_desk(qtbot) as window:
        assert window.servers.select("other")
        window.activateWindow()
        focus(qtbot, window.servers.view)
        qtbot.keyClick(window.servers.view, Qt.Key.Key_Delete)
        qtbot.waitUntil(lambda: open_box("Remove server") is not None, timeout=WAIT)
        box = open_box("Remove server")
        assert box is not None and "other" in box.text()
        keep = next(b for b in box.buttons() if b.text() == "Keep")
        keep.click()
        qtbot.waitUntil(lambda: open_box("Remove server") is None, timeout=WAIT)
        assert window.server_model.names() == ["demo", "other"]
        focus(qtbot, window.servers.view)
        qtbot.keyClick(window.servers.view, Qt.Key.Key_Delete)
        qtbot.waitUntil(lambda: open_box("Remove server") is not None, timeout=WAIT)
        box = open_box("Remove server")
        assert box is not None
        next(b for b in box.buttons() if b.text() == "Remove").click()
        qtbot.waitUntil(lambda: window.server_model.names() == ["demo"], timeout=WAIT)
        assert window.controller.entry("other") is None


def test_context_menu_renames_and_disables_and_enables(qtbot: Any, aloop: Any, config_dir: Path) -> None:
    write_servers(config_dir, {"demo": DEMO})
    with open_desk(qtbot) as window:
        c = window.controller
        connect(qtbot, window)
        actions = menu_of(window, "demo")
        assert {"menu_rename", "menu_disable"} <= actions.keys()
        assert "menu_enable" not in actions
        assert actions["menu_rename"].text() == "Rename…"

        # Rename…: asks for the name, renames in the store and the list, connects it as before.
        actions["menu_rename"].trigger()
        qtbot.waitUntil(
            lambda: window.rename_dialog is not None and window.rename_dialog.isVisible(), timeout=WAIT
        )
        dialog = window.rename_dialog
        assert dialog.textValue() == "demo"
        dialog.setTextValue("tryout")
        dialog.accept()
        qtbot.waitUntil(lambda: window.server_model.names() == ["tryout"], timeout=WAIT)
        assert c.entry("demo") is None and c.entry("tryout") is not None
        assert window.current_server() == "tryout"
        wait_state(qtbot, window, "tryout", "ready")
        assert c.connection("demo") is None

        # A name that is taken or unusable: nothing changes, the status bar says why.
        c.store.add(type(c.entry("tryout")).from_json("taken", DEMO))
        c.save()
        assert run(qtbot, _rename_to(qtbot, window, "tryout", "taken")) is None
        assert "already exists" in window.statusBar().currentMessage()
        assert c.entry("tryout") is not None

        # Disable: saved, disconnected, the row says disabled; the menu then offers Enable.
        menu_of(window, "tryout")["menu_disable"].trigger()
        wait_state(qtbot, window, "tryout", "closed")
        assert c.entry("tryout").disabled
        row = window.server_model.server("tryout")
        assert row is not None and row.status_text() == "disabled"
        actions = menu_of(window, "tryout")
        assert "menu_enable" in actions and "menu_disable" not in actions
        actions["menu_enable"].trigger()
        wait_state(qtbot, window, "tryout", "ready")
        assert not c.entry("tryout").disabled


async def _rename_to(qtbot: Any, window: Any, old: str, new: str) -> str | None:
    task = asyncio.ensure_future(window.rename_server(old))
    while window.rename_dialog is None or not window.rename_dialog.isVisible():
        await asyncio.sleep(0.01)
    window.rename_dialog.setTextValue(new)
    window.rename_dialog.accept()
    result: str | None = await task
    return result


def test_information_box_has_the_information_icon_and_one_button(qtbot: Any, aloop: Any) -> None:
    from app.ui.async_dialogs import inform

    parent = QWidget()
    qtbot.addWidget(parent)
    task = asyncio.ensure_future(inform(parent, "Imported", "2 servers were added."))
    qtbot.waitUntil(lambda: open_box("Imported") is not None, timeout=WAIT)
    box = open_box("Imported")
    assert box is not None
    assert box.icon() == QMessageBox.Icon.Information
    assert [b.text().replace("&", "") for b in box.buttons()] == ["OK"]
    box.buttons()[0].click()
    qtbot.waitUntil(task.done, timeout=WAIT)
    assert task.result() is None
