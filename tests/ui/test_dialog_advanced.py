"""The Add dialog is simple by default (issue 11, section 2).

The protocol version, the time limit, the folders a server may use and the working directory sit
under a folded "Advanced" section: one click away, unfolded in developer mode (also when it is
switched on while the dialog is open), and unfolded for a server that already uses one of them.
Connection types are named in words; their protocol names only in developer mode.
"""

from __future__ import annotations

import shutil
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from app.ui.developer_mode import developer_mode

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")

PROTOCOL_WORDS = ("stdio", "HTTP", "SSE")


def open_dialog(qtbot: Any, desk: Any, edit: str | None = None) -> Any:
    if edit is None:
        desk.add_server()
    else:
        desk.edit_server(edit)
    qtbot.waitUntil(
        lambda: getattr(desk, "server_dialog", None) is not None and desk.server_dialog.isVisible()
    )
    return desk.server_dialog


def advanced_fields(d: Any) -> list[Any]:
    return [d.cwd, d.timeout, d.mode, d.roots]


def transport_texts(d: Any) -> list[str]:
    return [d.transport.itemText(i) for i in range(d.transport.count())]


def test_the_add_dialog_opens_simple_and_advanced_is_one_click_away(qtbot: Any, desk: Any) -> None:
    d = open_dialog(qtbot, desk)
    assert d.advanced.isVisible() and not d.advanced.expanded()
    assert not any(w.isVisible() for w in advanced_fields(d)), "developer fields shown by default"
    assert d.name.isVisible() and d.command.isVisible() and d.enabled.isVisible()
    assert not any(word in text for text in transport_texts(d) for word in PROTOCOL_WORDS)

    qtbot.mouseClick(d.advanced, Qt.MouseButton.LeftButton)
    QApplication.processEvents()
    assert d.advanced.expanded()
    assert all(w.isVisible() for w in advanced_fields(d))
    # The working directory is a local program's: a URL server's Advanced has none.
    d.transport.setCurrentIndex(d.transport.findData("http"))
    QApplication.processEvents()
    assert not d.cwd.isVisible() and d.timeout.isVisible() and d.mode.isVisible()
    qtbot.mouseClick(d.advanced, Qt.MouseButton.LeftButton)
    QApplication.processEvents()
    assert not any(w.isVisible() for w in advanced_fields(d))
    d.reject()
    qtbot.waitUntil(lambda: desk.server_dialog is None)


@pytest.mark.skipif(shutil.which("python3") is None, reason="no python3 on PATH")
def test_folded_advanced_values_are_saved(qtbot: Any, desk: Any) -> None:
    d = open_dialog(qtbot, desk)
    qtbot.keyClicks(d.name, "local")
    qtbot.keyClicks(d.command, "python3")
    d.advanced.set_expanded(True)
    d.timeout.setValue(12)
    d.mode.setCurrentIndex(d.mode.findData("legacy"))
    d.advanced.set_expanded(False)  # folded again: what was set there still counts
    d.buttons.button(d.buttons.StandardButton.Save).click()
    qtbot.waitUntil(lambda: desk.server_dialog is None, timeout=10000)
    settings = desk.controller.settings("local")
    assert settings.timeout == 12 and settings.protocol_mode == "legacy"


def test_developer_mode_unfolds_advanced_and_names_the_protocols(qtbot: Any, desk: Any) -> None:
    d = open_dialog(qtbot, desk)
    assert not d.advanced.expanded()
    developer_mode().set_enabled(True)  # switched on while the dialog is open
    QApplication.processEvents()
    assert d.advanced.expanded() and d.timeout.isVisible() and d.mode.isVisible()
    assert any("stdio" in t for t in transport_texts(d))
    developer_mode().set_enabled(False)
    QApplication.processEvents()
    assert not any(word in text for text in transport_texts(d) for word in PROTOCOL_WORDS)
    d.reject()
    qtbot.waitUntil(lambda: desk.server_dialog is None)

    developer_mode().set_enabled(True)  # on before the dialog opens
    d = open_dialog(qtbot, desk)
    assert d.advanced.expanded() and d.mode.isVisible()
    d.reject()
    qtbot.waitUntil(lambda: desk.server_dialog is None)


def test_a_server_using_an_advanced_field_opens_with_it_shown(qtbot: Any, desk: Any) -> None:
    d = open_dialog(qtbot, desk, "demo")
    assert not d.advanced.expanded(), "the demo server uses no advanced field"
    d.advanced.set_expanded(True)
    d.timeout.setValue(25)
    d.buttons.button(d.buttons.StandardButton.Save).click()
    qtbot.waitUntil(lambda: desk.server_dialog is None, timeout=10000)
    d = open_dialog(qtbot, desk, "demo")
    assert d.advanced.expanded() and d.timeout.isVisible() and d.timeout.value() == 25
    d.reject()
    qtbot.waitUntil(lambda: desk.server_dialog is None)
