"""The Add dialog as a person types into it (issue 11, section 1, items 1, 10 and 11).

- A command line typed as READMEs print it (`python3 -m http.server`) is judged by its program,
  never refused as a whole line "not found on PATH".
- Enter never saves this many-field dialog: in the Arguments list it edits an argument and goes
  on to the next; only Save and Ctrl+Enter save (Ctrl+Enter accepts every dialog, the Paste box
  too; Enter accepts single-line dialogs only).
- An error line coming and going does not move the fields under the mouse.
- It opens with the cursor in Name; the labels of every field share one column; a URL server
  shows no empty space where the local program's fields were.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QLineEdit, QPlainTextEdit

from app.ui.server_dialog import validate_command

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")

PYTHON3 = shutil.which("python3")
needs_python3 = pytest.mark.skipif(PYTHON3 is None, reason="no python3 on PATH")


def open_dialog(qtbot: Any, desk: Any) -> Any:
    desk.add_server()
    qtbot.waitUntil(
        lambda: getattr(desk, "server_dialog", None) is not None and desk.server_dialog.isVisible()
    )
    d = desk.server_dialog
    d.activateWindow()
    qtbot.waitUntil(d.isActiveWindow)
    return d


def saved(config_dir: Path, name: str) -> dict[str, Any]:
    servers = json.loads((config_dir / "servers.json").read_text(encoding="utf-8"))["mcpServers"]
    entry: dict[str, Any] = servers[name]
    return entry


def ctrl_enter(qtbot: Any, widget: Any) -> None:
    qtbot.keyClick(widget, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)


@needs_python3
def test_a_typed_command_line_is_judged_by_its_program(qtbot: Any, desk: Any, config_dir: Path) -> None:
    assert validate_command("python3 -m http.server") is None
    assert "not found on PATH" in (validate_command("surely-no-such-xyz -m x") or "")
    d = open_dialog(qtbot, desk)
    qtbot.keyClicks(d.name, "web")
    qtbot.keyClicks(d.command, "python3 -m http.server")
    assert "command" not in d.errors()  # before the line was split (no editingFinished yet)
    ctrl_enter(qtbot, d.command)
    qtbot.waitUntil(lambda: desk.server_dialog is None, timeout=10000)
    entry = saved(config_dir, "web")
    assert entry["command"] == "python3" and entry["args"] == ["-m", "http.server"]


@needs_python3
def test_enter_in_the_arguments_goes_to_the_next_one_and_never_saves(
    qtbot: Any, desk: Any, config_dir: Path
) -> None:
    d = open_dialog(qtbot, desk)
    qtbot.keyClicks(d.name, "web")
    qtbot.keyClicks(d.command, "python3")
    qtbot.keyClick(d.command, Qt.Key.Key_Return)  # Enter in a field: the next field, no save
    assert d.isVisible() and d.focusWidget() is not d.command
    d.args.setFocus()
    qtbot.keyClick(d.args, Qt.Key.Key_Return)  # an empty list: Enter adds an argument
    for text in ("-m", "http.server"):
        qtbot.waitUntil(lambda: isinstance(QApplication.focusWidget(), QLineEdit))
        editor = QApplication.focusWidget()
        assert editor.parentWidget() is d.args.viewport()
        qtbot.keyClicks(editor, text)
        qtbot.keyClick(editor, Qt.Key.Key_Return)
        assert d.isVisible() and desk.server_dialog is d  # not saved with half the arguments
    # After the last one Enter opened a new, empty argument; Enter on it ends the list.
    qtbot.waitUntil(lambda: isinstance(QApplication.focusWidget(), QLineEdit))
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: d.args_value() == ["-m", "http.server"])
    assert d.isVisible() and "web" not in desk.server_model.names()
    ctrl_enter(qtbot, d.args)
    qtbot.waitUntil(lambda: desk.server_dialog is None, timeout=10000)
    assert saved(config_dir, "web")["args"] == ["-m", "http.server"]


def test_ctrl_enter_in_an_arguments_editor_keeps_what_was_typed(
    qtbot: Any, desk: Any, config_dir: Path
) -> None:
    d = open_dialog(qtbot, desk)
    qtbot.keyClicks(d.name, "typed")
    qtbot.keyClicks(d.command, shutil.which("sh") or "/bin/sh")
    d._add_arg()
    qtbot.waitUntil(lambda: isinstance(QApplication.focusWidget(), QLineEdit))
    editor = QApplication.focusWidget()
    qtbot.keyClicks(editor, "--last")
    ctrl_enter(qtbot, editor)
    qtbot.waitUntil(lambda: desk.server_dialog is None, timeout=10000)
    assert saved(config_dir, "typed")["args"] == ["--last"]


def test_an_error_line_does_not_move_the_fields(qtbot: Any, desk: Any) -> None:
    d = open_dialog(qtbot, desk)
    d.resize(700, 640)
    qtbot.wait(0)

    def args_top() -> int:
        return int(d.args.mapTo(d, QPoint(0, 0)).y())

    before = args_top()
    qtbot.keyClicks(d.command, "surely-no-such-command-xyz")
    d.save_button().click()
    assert d.command_error.isVisible() and "not found on PATH" in d.command_error.text()
    QApplication.processEvents()
    assert args_top() == before
    d.command.clear()
    qtbot.keyClicks(d.command, shutil.which("sh") or "/bin/sh")
    d._check_command()
    assert not d.command_error.isVisible()
    QApplication.processEvents()
    assert args_top() == before
    d.reject()


def test_it_opens_in_the_name_field(qtbot: Any, desk: Any) -> None:
    d = open_dialog(qtbot, desk)
    assert d.focusWidget() is d.name
    d.reject()


def test_the_paste_box_takes_ctrl_enter(qtbot: Any, desk: Any) -> None:
    d = open_dialog(qtbot, desk)
    d.paste_button.click()
    qtbot.waitUntil(lambda: d.paste_box is not None and d.paste_box.isVisible())
    box = d.paste_box
    box.activateWindow()
    qtbot.waitUntil(box.isActiveWindow)
    text_box = box.findChild(QPlainTextEdit)
    assert text_box is not None and box.focusWidget() is text_box  # the text box, ready to paste into
    text_box.setPlainText("npx -y @modelcontextprotocol/server-everything")
    qtbot.keyClick(text_box, Qt.Key.Key_Return)  # a new line in the text, not a paste
    assert box.isVisible()
    ctrl_enter(qtbot, text_box)
    qtbot.waitUntil(lambda: d.paste_box is None)
    assert d.command.text() == "npx" and d.args_value() == ["-y", "@modelcontextprotocol/server-everything"]
    d.reject()


def test_one_column_of_labels_and_no_gap_for_a_url(qtbot: Any, desk: Any) -> None:
    d = open_dialog(qtbot, desk)
    d.resize(700, 640)

    def left(widget: Any) -> int:
        return int(widget.mapTo(d, QPoint(0, 0)).x())

    d.advanced.set_expanded(True)  # the advanced fields share the column too
    QApplication.processEvents()
    assert left(d.name) == left(d.command) == left(d.timeout) == left(d.mode)
    d.transport.setCurrentIndex(d.transport.findData("http"))
    QApplication.processEvents()
    assert left(d.name) == left(d.url) == left(d.timeout)
    assert not d.command.isVisible() and d.url.isVisible()
    # "Enabled" follows the sign-in part directly: nothing of the local program's height is left.
    oauth = d.oauth.parentWidget()
    oauth_bottom = oauth.mapTo(d, QPoint(0, oauth.height())).y()
    gap = d.enabled.mapTo(d, QPoint(0, 0)).y() - oauth_bottom
    assert 0 <= gap <= 3 * max(d.form.verticalSpacing(), 6), gap
    d.reject()
