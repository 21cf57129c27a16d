"""Adding a directory entry: the shared install dialog, or a small stand-in until it exists.

`install(window, plan)` calls `app.ui.install_dialog.install_plan` (the one dialog every source
uses: name, questions, keys to the keychain, trust prompt, connect). While that module is not in
this build, `PlanDialog` does the same in a plain form: a name, one field per question (masked for
a key, a list for choices, a tick box for yes/no; required ones marked), and Add, which checks the
answers (`app.install.plan.apply`), puts each key in the keychain off the GUI thread, adds the entry
and saves. Saving makes the controller connect the new server, and a program on this computer goes
through "allow this program to run?" first. The dialog stays open on an error and says what is
wrong.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from app.ui.async_dialogs import run_dialog
from app.ui.safe_text import plain_label, visible_line

if TYPE_CHECKING:
    from app.install.plan import Answer, InstallPlan, Question
    from app.ui.window import MainWindow

logger = logging.getLogger(__name__)

CONTEXT = "RegistryAdd"


def _tr(text: str) -> str:
    return QCoreApplication.translate(CONTEXT, text)


async def install(window: MainWindow, plan: InstallPlan) -> str | None:
    """Add `plan` as a new server through the install dialog; its name, or None if cancelled."""
    try:
        from app.ui.install_dialog import install_plan  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return await install_with_form(window, plan)
    name: str | None = await install_plan(window, plan)
    return name


class PlanDialog(QDialog):
    def __init__(self, plan: InstallPlan, name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.plan = plan
        self.setObjectName("registryAddDialog")
        self.setWindowTitle(_tr("Add {0}").format(visible_line(plan.title or plan.name)))
        v = QVBoxLayout(self)
        if plan.description:
            v.addWidget(plain_label(plan.description))
        for note in plan.notes:
            v.addWidget(plain_label(note))
        form = QFormLayout()
        self.name_edit = QLineEdit(name)
        form.addRow(_tr("Name in your list:"), self.name_edit)
        self.fields: dict[str, QWidget] = {}
        for q in plan.questions:
            widget = self._field(q)
            self.fields[q.key] = widget
            label = visible_line(q.label) + (" " + _tr("(required)") if q.required else "")
            form.addRow(label + ":", widget)
            if q.description:
                widget.setToolTip(q.description)
        v.addLayout(form)
        self.error = plain_label()
        self.error.setObjectName("registryAddError")
        self.error.hide()
        v.addWidget(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.add_button = buttons.addButton(_tr("Add"), QDialogButtonBox.ButtonRole.AcceptRole)
        self.add_button.setDefault(True)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        v.addWidget(buttons)

    def _field(self, q: Question) -> QWidget:
        if q.kind == "boolean":
            box = QCheckBox()
            box.setChecked((q.default or "").lower() == "true")
            return box
        if q.kind == "choice" and q.choices:
            combo = QComboBox()
            if not q.required:
                combo.addItem(_tr("(not set)"), None)
            for choice in q.choices:
                combo.addItem(visible_line(choice), choice)
            if q.default in q.choices:
                combo.setCurrentIndex(combo.findData(q.default))
            return combo
        edit = QLineEdit(q.default or "")
        if q.secret:
            edit.setEchoMode(QLineEdit.EchoMode.Password)
            edit.setPlaceholderText(_tr("kept in your computer's keychain"))
        elif q.placeholder:
            edit.setPlaceholderText(visible_line(q.placeholder))
        if q.kind == "directory":
            edit.setPlaceholderText(_tr("a folder on this computer"))
        elif q.kind == "file":
            edit.setPlaceholderText(_tr("a file on this computer"))
        return edit

    def set_answer(self, key: str, value: str | bool) -> None:
        widget = self.fields[key]
        if isinstance(widget, QCheckBox):
            widget.setChecked(bool(value))
        elif isinstance(widget, QComboBox):
            widget.setCurrentIndex(widget.findData(value))
        elif isinstance(widget, QLineEdit):
            widget.setText(str(value))

    def answers(self) -> dict[str, Answer]:
        out: dict[str, Answer] = {}
        for q in self.plan.questions:
            widget = self.fields[q.key]
            if isinstance(widget, QCheckBox):
                out[q.key] = widget.isChecked()
            elif isinstance(widget, QComboBox):
                out[q.key] = widget.currentData()
            elif isinstance(widget, QLineEdit):
                text = widget.text().strip()
                out[q.key] = ([t for t in text.split(",") if t.strip()] if q.multiple else text) or None
        return out

    def show_error(self, text: str) -> None:
        self.error.setText(text)
        self.error.show()


async def install_with_form(window: MainWindow, plan: InstallPlan) -> str | None:
    from app.install.plan import MissingAnswer, apply
    from app.secrets.errors import SecretStoreError

    controller = window.controller
    store = controller.store
    dialog = PlanDialog(plan, store.unique_name(plan.name), window)
    window.registry_add_dialog = dialog  # type: ignore[attr-defined]  # tests and screenshots find it
    try:
        while True:
            if await run_dialog(dialog) != QDialog.DialogCode.Accepted:
                return None
            name = dialog.name_edit.text().strip()
            from app.config.store import name_problem

            problem = name_problem(name) or (
                _tr("a server with this name exists already") if name in store else None
            )
            if problem:
                dialog.show_error(_tr("Choose another name: {0}").format(problem))
                continue
            try:
                done = apply(plan, dialog.answers())
            except MissingAnswer as exc:
                dialog.show_error(
                    _tr("Fill in “{0}”: it is required.").format(visible_line(exc.question.label))
                )
                continue
            try:
                for key, value in done.secrets.items():
                    await controller.secrets.aset(name, key, value)
            except SecretStoreError as exc:
                dialog.show_error(
                    _tr("The key could not be kept in your computer's keychain: {0}").format(str(exc))
                )
                continue
            entry = done.entry
            entry.name = name
            store.add(entry)
            settings = store.settings(name)
            settings.extra.update(plan.settings)
            controller.save()  # the controller connects it (asking first for a local program)
            select: Any = getattr(window.servers, "select", None)
            if callable(select):
                select(name)
            return name
    finally:
        window.registry_add_dialog = None  # type: ignore[attr-defined]
        dialog.setParent(None)
        dialog.deleteLater()
