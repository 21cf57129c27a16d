"""Awaiting dialogs from async code without nested event loops.

`QDialog.exec()` starts a nested event loop; called from a coroutine running on qasync it lets
other asyncio callbacks run re-entrantly inside that coroutine's step ("Cannot enter into task
...") and blocks the caller's task machinery. So every dialog an async path needs is opened with
`open()` and its result awaited through a future resolved by the `finished` signal.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QDialog,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QTextEdit,
    QWidget,
)


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
        # At quit the window may have deleted the dialog before its task is cancelled: a dialog
        # that is gone needs no closing.
        with contextlib.suppress(RuntimeError):
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
    yes: str = "",
    no: str = "",
    checkbox: str | None = None,
    icon: QMessageBox.Icon = QMessageBox.Icon.Question,
) -> tuple[bool, bool]:
    """A yes/no question; returns (accepted, checkbox checked). Text is shown as plain text."""
    from PySide6.QtWidgets import QCheckBox

    box = _message_box(parent, title, text, informative, icon)
    yes_btn = box.addButton(
        yes or QCoreApplication.translate("AsyncDialogs", "OK"), QMessageBox.ButtonRole.AcceptRole
    )
    box.addButton(
        no or QCoreApplication.translate("AsyncDialogs", "Cancel"), QMessageBox.ButtonRole.RejectRole
    )
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


async def choose_path(
    parent: QWidget,
    title: str,
    start: str,
    *,
    folder: bool = False,
    save: bool = False,
    filters: str = "",
) -> tuple[str, str] | None:
    """A folder or file chosen in a file dialog opened and awaited (the static getOpenFileName &
    co. run exec(), a nested loop): (path, chosen filter), or None when cancelled. The dialog is
    `file_dialog` on the top window while it is open (tests and screenshots reach it there)."""
    from pathlib import Path

    from PySide6.QtWidgets import QFileDialog

    chooser = QFileDialog(parent, title, start or str(Path.home()), filters)
    if save:
        chooser.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        chooser.setFileMode(QFileDialog.FileMode.AnyFile)
    elif folder:
        chooser.setFileMode(QFileDialog.FileMode.Directory)
        chooser.setOption(QFileDialog.Option.ShowDirsOnly, True)
    else:
        chooser.setFileMode(QFileDialog.FileMode.ExistingFile)
    top = parent.window()
    setattr(top, "file_dialog", chooser)  # noqa: B010  # any window: no attribute declared for it
    try:
        accepted = await run_dialog(chooser) == QDialog.DialogCode.Accepted.value
        files = chooser.selectedFiles()
        chosen_filter = chooser.selectedNameFilter()
    finally:
        setattr(top, "file_dialog", None)  # noqa: B010
        chooser.deleteLater()
    return (files[0], chosen_filter) if accepted and files else None


# --- the keyboard rule every dialog of the app follows ----------------------------------------
# Ctrl+Enter presses a dialog's main button (accepts it) from anywhere in it, a text box too.
# Enter accepts only from a single-line field (Qt's default button does that); from a multi-line
# box, editable or read-only, or a list, it never does (a half-typed server was saved and started,
# a command shown read-only was allowed by a stray Enter). A dialog opens with the focus in its
# first field one can type in, never in a read-only box.

MULTI_LINE = (QPlainTextEdit, QTextEdit, QAbstractItemView)


def accept_on_ctrl_enter(dialog: QDialog, main: Callable[[], object] | None = None) -> None:
    """Ctrl+Enter (and Ctrl+Return) runs `main` — by default the dialog's `accept`."""
    action = main if main is not None else dialog.accept
    for key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
        shortcut = QShortcut(QKeySequence(Qt.KeyboardModifier.ControlModifier | key), dialog)
        shortcut.setContext(Qt.ShortcutContext.WindowShortcut)
        shortcut.activated.connect(action)


def is_typing_field(widget: QWidget) -> bool:
    """A field one can type in or choose in: not a read-only box, not a button or a label."""
    if isinstance(widget, QLineEdit | QAbstractSpinBox):
        return not widget.isReadOnly()
    if isinstance(widget, QPlainTextEdit | QTextEdit):
        return not widget.isReadOnly()
    return isinstance(widget, QComboBox)


def is_read_only_box(widget: QWidget) -> bool:
    """A text box that shows something and takes no typing: never where a dialog opens."""
    return isinstance(widget, QLineEdit | QPlainTextEdit | QTextEdit) and widget.isReadOnly()


def first_typing_field(dialog: QWidget) -> QWidget | None:
    """The first field in `dialog`'s tab order that can take typing now (shown, enabled)."""
    widget = dialog.nextInFocusChain()
    seen: set[int] = set()
    while widget is not None and widget is not dialog and id(widget) not in seen:
        seen.add(id(widget))
        if (
            dialog.isAncestorOf(widget)
            and widget.isVisibleTo(dialog)
            and widget.isEnabled()
            and widget.focusPolicy() & Qt.FocusPolicy.TabFocus
            and is_typing_field(widget)
        ):
            return widget
        widget = widget.nextInFocusChain()
    return None


class _KeyboardRule(QObject):
    """The event filter behind `keyboard_rule`: the opening focus and Enter in multi-line boxes.
    It keeps no state of its own (a filter may be called while its dialog is torn down): the
    dialog it watches is `watched`, and "focused once" is a property of that dialog."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if not isinstance(watched, QDialog):
            return False
        if event.type() == QEvent.Type.Show and not watched.property("openingFocusDone"):
            watched.setProperty("openingFocusDone", True)
            focus_first_field(watched)
        elif (
            event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
            and not event.modifiers() & Qt.KeyboardModifier.ControlModifier
            # A key a multi-line box did not take (a read-only one, a list) reaches the dialog,
            # whose default button would accept it: stop it here.
            and isinstance(QApplication.focusWidget(), MULTI_LINE)
        ):
            event.accept()
            return True
        return False


def focus_first_field(dialog: QDialog) -> None:
    """Keep a focus the dialog chose in a typing field; else the first such field; else keep the
    default button's, never a read-only box's."""
    current = dialog.focusWidget()
    if current is not None and is_typing_field(current) and current.isVisibleTo(dialog):
        return
    field = first_typing_field(dialog)
    if field is not None:
        field.setFocus(Qt.FocusReason.ActiveWindowFocusReason)
        return
    if current is not None and is_read_only_box(current):
        default = next((b for b in dialog.findChildren(QPushButton) if b.isDefault()), None)
        if default is not None:
            default.setFocus(Qt.FocusReason.ActiveWindowFocusReason)


def keyboard_rule(
    dialog: QDialog, main: Callable[[], object] | None = None, *, ctrl_enter: bool = True
) -> None:
    """Make `dialog` follow the app's keyboard rule (above). `main` is what Ctrl+Enter does when
    that is not `accept` (the trust prompt: its default button, "Don't run" for a risky command);
    ctrl_enter=False for a dialog with nothing to accept (a manager closed with Close)."""
    if ctrl_enter:
        accept_on_ctrl_enter(dialog, main)
    dialog.installEventFilter(_KeyboardRule(dialog))
