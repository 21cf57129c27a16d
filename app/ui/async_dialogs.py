"""Awaiting dialogs from async code without nested event loops.

`QDialog.exec()` starts a nested event loop; called from a coroutine running on qasync it lets
other asyncio callbacks run re-entrantly inside that coroutine's step ("Cannot enter into task
...") and blocks the caller's task machinery. So every dialog an async path needs is opened with
`open()` and its result awaited through a future resolved by the `finished` signal.
"""

from __future__ import annotations

import asyncio
import contextlib

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QDialog, QMessageBox, QWidget


async def run_dialog(dialog: QDialog, *, modal: bool = True) -> int:
    """Open `dialog` and wait until it finishes; returns its result code.

    modal=True uses `open()` (window-modal); modal=False uses `show()`, for requests from servers
    that must not block the rest of the window while the person thinks.
    """
    loop = asyncio.get_running_loop()
    fut: asyncio.Future[int] = loop.create_future()

    def finished(code: int) -> None:
        if not fut.done():
            fut.set_result(int(code))

    dialog.finished.connect(finished)
    if modal:
        dialog.open()
    else:
        dialog.setWindowModality(Qt.WindowModality.NonModal)
        dialog.show()
        dialog.raise_()
    try:
        return await fut
    except asyncio.CancelledError:
        dialog.reject()
        raise
    finally:
        with contextlib.suppress(RuntimeError, TypeError):
            dialog.finished.disconnect(finished)


async def ask(
    parent: QWidget | None,
    title: str,
    text: str,
    *,
    informative: str = "",
    yes: str = "OK",
    no: str = "Cancel",
    checkbox: str | None = None,
    icon: QMessageBox.Icon = QMessageBox.Icon.Question,
) -> tuple[bool, bool]:
    """A yes/no question; returns (accepted, checkbox checked). Text is shown as plain text."""
    from PySide6.QtWidgets import QCheckBox

    box = _message_box(parent, title, text, informative, icon)
    yes_btn = box.addButton(yes, QMessageBox.ButtonRole.AcceptRole)
    box.addButton(no, QMessageBox.ButtonRole.RejectRole)
    box.setDefaultButton(yes_btn)
    cb = None
    if checkbox:
        cb = QCheckBox(checkbox)
        box.setCheckBox(cb)
    await run_dialog(box)
    accepted = box.clickedButton() is yes_btn
    checked = cb.isChecked() if cb is not None else False
    box.deleteLater()
    return accepted, checked


def _message_box(
    parent: QWidget | None, title: str, text: str, informative: str, icon: QMessageBox.Icon
) -> QMessageBox:
    from app.ui.safe_text import plain_box

    box = QMessageBox(parent)
    box.setIcon(icon)
    box.setWindowTitle(title)
    box.setText(text)
    if informative:
        box.setInformativeText(informative)
    plain_box(box)  # server names and messages: never rendered as HTML, invisible characters shown
    return box


async def inform(
    parent: QWidget | None,
    title: str,
    text: str,
    *,
    informative: str = "",
    icon: QMessageBox.Icon = QMessageBox.Icon.Information,
) -> None:
    """Tell the person something (a result, a problem): the information icon (or `icon`: a
    warning, a critical problem) and one OK button — not a question, so no "?" and no second
    button that means the same. Text is shown as plain text."""
    box = _message_box(parent, title, text, informative, icon)
    box.setStandardButtons(QMessageBox.StandardButton.Ok)
    box.setDefaultButton(QMessageBox.StandardButton.Ok)
    box.setEscapeButton(QMessageBox.StandardButton.Ok)
    await run_dialog(box)
    box.deleteLater()


def accept_on_ctrl_enter(dialog: QDialog) -> None:
    """The app's one rule: Ctrl+Enter accepts every dialog; Enter accepts a single-line dialog
    only (Qt's default button does that), never one with several fields or a text box."""
    for key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
        shortcut = QShortcut(QKeySequence(Qt.KeyboardModifier.ControlModifier | key), dialog)
        shortcut.setContext(Qt.ShortcutContext.WindowShortcut)
        shortcut.activated.connect(dialog.accept)
