"""The raw JSON view of a whole form: editable, and a parse error is shown where it is (line, column)."""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QColor, QFontDatabase, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QTextEdit, QWidget

from app.forms.values import MISSING, dumps_for_editing
from app.ui import theme
from app.ui.forms.base import fill, mark_as_error, mark_as_hint, plain_label, vbox


class JsonView(QWidget):
    """Signals:
    value_edited(object): the user typed JSON that parses; carries the parsed value.
    """

    value_edited = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = vbox(self, 4)
        self.editor = QPlainTextEdit(self)
        self.editor.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.editor.setTabChangesFocus(True)
        self.editor.setAccessibleName(self.tr("Arguments as JSON"))
        self.editor.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.status: QLabel = plain_label("", self)
        self.status.setObjectName("jsonStatus")
        self.status.setAccessibleName(self.tr("JSON status"))
        layout.addWidget(self.editor, 1)
        layout.addWidget(self.status)
        self.error: str = ""
        self._quiet = False
        self.editor.textChanged.connect(self._on_text_changed)

    def show_value(self, value: Any) -> None:
        """Replace the text with `value` (the user's unparsed text, if any, is replaced too)."""
        text = dumps_for_editing(value, indent=2)
        if text == self.editor.toPlainText():
            return
        self._quiet = True
        try:
            self.editor.setPlainText(text)
        finally:
            self._quiet = False
        self._set_error("", None)

    def parse(self) -> Any:
        text = self.editor.toPlainText()
        if not text.strip():
            return {}
        try:
            return json.loads(text)
        except (json.JSONDecodeError, RecursionError):
            return MISSING

    @Slot()
    def _on_text_changed(self) -> None:
        if self._quiet:
            return
        text = self.editor.toPlainText()
        try:
            value = json.loads(text) if text.strip() else {}
        except json.JSONDecodeError as exc:
            message = fill(self.tr("Line %1, column %2: %3."), str(exc.lineno), str(exc.colno), exc.msg)
            self._set_error(message, exc.pos)
            return
        except RecursionError:
            self._set_error(self.tr("The JSON nests too deeply."), None)
            return
        self._set_error("", None)
        self.value_edited.emit(value)

    def _set_error(self, message: str, position: int | None) -> None:
        self.error = message
        self.status.setText(message or self.tr("Edit the arguments here or in the form; both stay in step."))
        if message:
            mark_as_error(self.status)
        else:
            mark_as_hint(self.status)
        selections = []
        if position is not None:
            mark = QTextEdit.ExtraSelection()
            fmt = QTextCharFormat()
            fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.WaveUnderline)
            background, text, _border = theme.colours("error", self.palette())
            fmt.setUnderlineColor(QColor(text))
            fmt.setBackground(QColor(background))
            mark.format = fmt
            cursor = QTextCursor(self.editor.document())
            cursor.setPosition(min(position, max(len(self.editor.toPlainText()) - 1, 0)))
            cursor.movePosition(QTextCursor.MoveOperation.NextCharacter, QTextCursor.MoveMode.KeepAnchor)
            mark.cursor = cursor
            selections.append(mark)
        self.editor.setExtraSelections(selections)

    def refresh_colours(self) -> None:
        """The scheme changed: the error mark takes the new scheme's colours."""
        if self.error:
            self._on_text_changed()

    def error_position(self) -> tuple[int, int] | None:
        """(line, column) of the parse error, 1-based, or None when the text parses."""
        try:
            json.loads(self.editor.toPlainText() or "{}")
        except json.JSONDecodeError as exc:
            return exc.lineno, exc.colno
        return None

    def focus(self) -> None:
        self.editor.setFocus(Qt.FocusReason.OtherFocusReason)
