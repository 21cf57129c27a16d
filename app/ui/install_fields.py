"""One input per install question, looked up by kind (a table, as app/forms does for tools).

Each field shows a `Question` of an install plan and gives back its answer in the form `apply()`
takes: text, a number, a bool, or a list for `multiple`. A question's label, description, default,
choices and placeholder come from a registry, a bundle or a link: plain text everywhere.
Folder and file pickers are opened with `open()` and awaited, never `exec()`.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject, Signal, Slot
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.install.answers import default_answer, parse_answer
from app.install.plan import Answer, Question
from app.mcp.visible import visible_line
from app.ui.async_dialogs import run_dialog


def _tr(text: str) -> str:
    return QCoreApplication.translate("InstallDialog", text)


class Field(QObject):
    """The input of one question. Signals: changed() — the answer may differ now."""

    changed = Signal()

    def __init__(self, question: Question, parent: QWidget) -> None:
        super().__init__(parent)
        self.question = question
        self.widget = QWidget(parent)

    def answer(self) -> Answer:
        raise NotImplementedError

    def set_answer(self, value: Answer) -> None:
        raise NotImplementedError

    def focus(self) -> None:
        self.widget.setFocus()


class TextField(Field):
    def __init__(self, question: Question, parent: QWidget) -> None:
        super().__init__(question, parent)
        self.edit = QLineEdit(self.widget)
        self.edit.setObjectName(f"answer:{question.key}")
        self.row = QHBoxLayout(self.widget)
        self.row.setContentsMargins(0, 0, 0, 0)
        self.row.addWidget(self.edit, 1)
        if question.placeholder:
            self.edit.setPlaceholderText(visible_line(question.placeholder))
        self.edit.textChanged.connect(self.changed)
        self.widget.setFocusProxy(self.edit)

    def answer(self) -> Answer:
        return self.edit.text().strip()

    def set_answer(self, value: Answer) -> None:
        self.edit.setText("" if value is None else str(value))


class SecretField(TextField):
    """Masked, with Show/Hide; a placeholder is not shown inside (it would look like a value)."""

    def __init__(self, question: Question, parent: QWidget) -> None:
        super().__init__(question, parent)
        self.edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.edit.setPlaceholderText("")
        self.show_button = QPushButton(QCoreApplication.translate("InstallDialog", "Show"), self.widget)
        self.show_button.setCheckable(True)
        self.show_button.setAutoDefault(False)
        self.show_button.toggled.connect(self._toggle)
        self.row.addWidget(self.show_button)

    @Slot(bool)
    def _toggle(self, shown: bool) -> None:
        mode = QLineEdit.EchoMode.Normal if shown else QLineEdit.EchoMode.Password
        self.edit.setEchoMode(mode)
        self.show_button.setText(
            QCoreApplication.translate("InstallDialog", "Hide")
            if shown
            else QCoreApplication.translate("InstallDialog", "Show")
        )

    def answer(self) -> Answer:
        return self.edit.text()  # a key is kept exactly as typed (a space may be part of it)


class NumberField(TextField):
    """Text that must read as a number (a spin box cannot be left empty: "not set" must be possible)."""

    def __init__(self, question: Question, parent: QWidget) -> None:
        super().__init__(question, parent)
        lo, hi = question.minimum, question.maximum
        if lo is not None and hi is not None:
            hint = (
                QCoreApplication.translate("InstallDialog", "a number from %1 to %2")
                .replace("%1", _num(lo))
                .replace("%2", _num(hi))
            )
        elif lo is not None:
            hint = QCoreApplication.translate("InstallDialog", "a number, at least %1").replace(
                "%1", _num(lo)
            )
        elif hi is not None:
            hint = QCoreApplication.translate("InstallDialog", "a number, at most %1").replace("%1", _num(hi))
        else:
            hint = QCoreApplication.translate("InstallDialog", "a number")
        if not question.placeholder:
            self.edit.setPlaceholderText(hint)
        self.edit.setToolTip(hint)

    def set_answer(self, value: Answer) -> None:
        if isinstance(value, int | float) and not isinstance(value, bool):
            self.edit.setText(_num(value))
        else:
            super().set_answer(value)

    def answer(self) -> Answer:
        try:
            return parse_answer(self.question, self.edit.text())
        except ValueError:
            return self.edit.text().strip()  # answer_problem names it: "must be a number"


class BoolField(Field):
    def __init__(self, question: Question, parent: QWidget) -> None:
        super().__init__(question, parent)
        self.box = QCheckBox(visible_line(question.label), self.widget)
        self.box.setObjectName(f"answer:{question.key}")
        lay = QHBoxLayout(self.widget)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.box)
        self.box.toggled.connect(self.changed)
        self.widget.setFocusProxy(self.box)

    def answer(self) -> Answer:
        return self.box.isChecked()

    def set_answer(self, value: Answer) -> None:
        self.box.setChecked(bool(value))


class ChoiceField(Field):
    def __init__(self, question: Question, parent: QWidget) -> None:
        super().__init__(question, parent)
        self.combo = QComboBox(self.widget)
        self.combo.setObjectName(f"answer:{question.key}")
        if not question.required or question.default is None:
            self.combo.addItem(QCoreApplication.translate("InstallDialog", "not set"), None)
        for choice in question.choices:
            self.combo.addItem(visible_line(choice), choice)
        lay = QHBoxLayout(self.widget)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.combo, 1)
        self.combo.currentIndexChanged.connect(self.changed)
        self.widget.setFocusProxy(self.combo)

    def answer(self) -> Answer:
        data = self.combo.currentData()
        return data if isinstance(data, str) else None

    def set_answer(self, value: Answer) -> None:
        index = self.combo.findData(value) if isinstance(value, str) else 0
        self.combo.setCurrentIndex(max(index, 0))


async def pick_path(parent: QWidget, question: Question, start: str) -> str | None:
    """A folder or file chosen in the platform's picker (opened, not exec'd), or None."""
    folder = question.kind == "directory"
    title = (
        QCoreApplication.translate("InstallDialog", "Choose a folder")
        if folder
        else QCoreApplication.translate("InstallDialog", "Choose a file")
    )
    chooser = QFileDialog(parent, title, start or str(Path.home()))
    chooser.setFileMode(QFileDialog.FileMode.Directory if folder else QFileDialog.FileMode.ExistingFile)
    if folder:
        chooser.setOption(QFileDialog.Option.ShowDirsOnly, True)
    top = parent.window()
    setattr(top, "file_dialog", chooser)  # tests reach it here  # noqa: B010
    try:
        accepted = await run_dialog(chooser) == QDialog.DialogCode.Accepted.value
        files = chooser.selectedFiles()
    finally:
        setattr(top, "file_dialog", None)  # noqa: B010
        chooser.deleteLater()
    return files[0] if accepted and files else None


class PathField(TextField):
    """A path typed or chosen with "Choose…"."""

    def __init__(self, question: Question, parent: QWidget) -> None:
        super().__init__(question, parent)
        self.choose_button = QPushButton(QCoreApplication.translate("InstallDialog", "Choose…"), self.widget)
        self.choose_button.setAutoDefault(False)
        self.choose_button.clicked.connect(self._choose)
        self.row.addWidget(self.choose_button)
        self._picking: asyncio.Future[None] | None = None

    @Slot()
    def _choose(self) -> None:
        if self._picking is None or self._picking.done():
            self._picking = asyncio.ensure_future(self._pick())

    async def _pick(self) -> None:
        path = await pick_path(self.widget, self.question, self.edit.text())
        if path is not None:
            self.edit.setText(path)


class ListField(Field):
    """Several values (`multiple`): a list with Add… (a picker for folders and files, a new line
    to type otherwise) and Remove."""

    def __init__(self, question: Question, parent: QWidget) -> None:
        super().__init__(question, parent)
        self.list = QListWidget(self.widget)
        self.list.setObjectName(f"answer:{question.key}")
        self.list.setMaximumHeight(90)
        self.add_button = QPushButton(QCoreApplication.translate("InstallDialog", "Add…"), self.widget)
        self.remove_button = QPushButton(QCoreApplication.translate("InstallDialog", "Remove"), self.widget)
        for b in (self.add_button, self.remove_button):
            b.setAutoDefault(False)
        self.add_button.clicked.connect(self._add)
        self.remove_button.clicked.connect(self._remove)
        buttons = QVBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        lay = QHBoxLayout(self.widget)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.list, 1)
        lay.addLayout(buttons)
        self.list.itemChanged.connect(self.changed)
        self.list.model().rowsRemoved.connect(self.changed)
        self.widget.setFocusProxy(self.list)
        self._picking: asyncio.Future[None] | None = None

    def add_value(self, text: str, *, edit: bool = False) -> None:
        item = QListWidgetItem(text)
        if self.question.kind not in ("directory", "file"):
            item.setFlags(item.flags() | item.flags().ItemIsEditable)
        self.list.addItem(item)
        self.changed.emit()
        if edit:
            self.list.setCurrentItem(item)
            self.list.editItem(item)

    @Slot()
    def _add(self) -> None:
        if self.question.kind in ("directory", "file"):
            if self._picking is None or self._picking.done():
                self._picking = asyncio.ensure_future(self._pick())
        else:
            self.add_value("", edit=True)

    async def _pick(self) -> None:
        path = await pick_path(self.widget, self.question, "")
        if path is not None:
            self.add_value(path)

    @Slot()
    def _remove(self) -> None:
        for item in self.list.selectedItems():
            self.list.takeItem(self.list.row(item))

    def answer(self) -> Answer:
        values = [self.list.item(i).text().strip() for i in range(self.list.count())]
        return [v for v in values if v]

    def set_answer(self, value: Answer) -> None:
        self.list.clear()
        for v in value if isinstance(value, list) else ([] if value in (None, "") else [str(value)]):
            self.add_value(v)


FIELDS: dict[str, Callable[[Question, QWidget], Field]] = {
    "string": TextField,
    "number": NumberField,
    "boolean": BoolField,
    "choice": ChoiceField,
    "directory": PathField,
    "file": PathField,
}


def make_field(question: Question, parent: QWidget) -> Field:
    """The input for `question`, its default filled in."""
    if question.multiple and question.kind != "boolean" and not question.secret:
        field: Field = ListField(question, parent)
    elif question.secret:
        field = SecretField(question, parent)
    else:
        field = FIELDS.get(question.kind, TextField)(question, parent)
    default = default_answer(question)
    if default is not None:
        field.set_answer(default)
    return field


def _num(value: float) -> str:
    value = float(value)
    return str(int(value)) if math.isfinite(value) and value.is_integer() else str(value)
