"""Editors for single values: text (plain, multi-line, secret, formats), numbers, yes/no, pick lists, JSON."""

from __future__ import annotations

import datetime as dt
import json
import re
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QCoreApplication,
    QDate,
    QPoint,
    QPointF,
    QSize,
    QStringListModel,
    Qt,
    Slot,
)
from PySide6.QtGui import QFontDatabase, QGuiApplication, QKeyEvent, QWheelEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QAbstractScrollArea,
    QCalendarWidget,
    QCheckBox,
    QComboBox,
    QCompleter,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QToolButton,
    QWidget,
    QWidgetAction,
)

from app.forms import Choice, ChoiceField, ConstField, Field, JsonField, NumberField, TextField
from app.forms.ids import asks_for_new_id
from app.forms.values import MISSING, dumps, dumps_for_editing
from app.ui.forms.base import QT_TRANSLATE_NOOP, fill, hbox
from app.ui.forms.editor import EditorMixin, FormEnv, register_editor
from app.ui.safe_text import plain_tooltip, visible_line

if TYPE_CHECKING:
    from app.ui.forms.completion import Suggestions

FORMAT_HINTS = {
    "date": QT_TRANSLATE_NOOP("TextEditor", "YYYY-MM-DD"),
    "datetime": QT_TRANSLATE_NOOP("TextEditor", "e.g. 2026-12-01 14:30"),  # also takes …T14:30:00Z
    "time": QT_TRANSLATE_NOOP("TextEditor", "HH:MM:SS"),
    "email": QT_TRANSLATE_NOOP("TextEditor", "name@example.com"),
    "uri": "https://…",
    "uuid": "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx",
}
"""Placeholders by field kind (translated where shown: `_hint`)."""


def _hint(kind: str) -> str:
    hint = FORMAT_HINTS.get(kind, "")
    return QCoreApplication.translate("TextEditor", hint) if hint else ""


_FORMAT_CHECKS = {
    "date": (
        re.compile(r"\d{4}-\d{2}-\d{2}"),
        QT_TRANSLATE_NOOP("TextEditor", "Enter a date as YYYY-MM-DD."),
    ),
    "datetime": (
        re.compile(r"\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?"),
        QT_TRANSLATE_NOOP("TextEditor", "Enter a date and time such as 2026-01-31T09:30:00Z."),
    ),
    "time": (
        re.compile(r"\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?"),
        QT_TRANSLATE_NOOP("TextEditor", "Enter a time as HH:MM:SS."),
    ),
    "email": (
        re.compile(r"[^@\s]+@[^@\s]+"),
        QT_TRANSLATE_NOOP("TextEditor", "Enter an e-mail address such as name@example.com."),
    ),
    "uri": (
        re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:\S*"),
        QT_TRANSLATE_NOOP("TextEditor", "Enter an address such as https://example.com."),
    ),
    "uuid": (
        re.compile(r"[0-9a-fA-F]{8}-?([0-9a-fA-F]{4}-?){3}[0-9a-fA-F]{12}"),
        QT_TRANSLATE_NOOP("TextEditor", "Enter an id such as 123e4567-e89b-12d3-a456-426614174000."),
    ),
}
"""Gentle hints while typing; the schema's own `format` check happens in validation."""


def _format_problem(kind: str, text: str) -> list[str]:
    check = _FORMAT_CHECKS.get(kind)
    if check is None or not text or check[0].fullmatch(text):
        return []
    return [QCoreApplication.translate("TextEditor", check[1])]


def _placeholder(field: Field, hint: str = "") -> str:
    # "Default: null" (pydantic's way of saying "optional") means nothing to a person: show a hint instead.
    if field.default is not MISSING and field.default is not None and not field.required:
        shown = field.default if isinstance(field.default, str) else dumps(field.default)
        text = fill(QCoreApplication.translate("TextEditor", "Default: %1"), shown)
        return visible_line(text[:120])  # the schema's words: invisible characters shown
    if field.placeholder:
        return visible_line(
            fill(QCoreApplication.translate("TextEditor", "e.g. %1"), field.placeholder)[:120]
        )
    return hint


def _scroll_area_of(widget: QWidget) -> QAbstractScrollArea | None:
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QAbstractScrollArea) and not isinstance(
            parent, QAbstractItemView | QPlainTextEdit
        ):
            return parent
        parent = parent.parentWidget()
    return None


def pass_wheel_on(widget: QWidget, event: QWheelEvent) -> None:
    """Give a wheel event over `widget` to the nearest scroll area above it (the form scrolls)."""
    event.accept()
    area = _scroll_area_of(widget)
    if area is None:
        return
    viewport = area.viewport()
    # Re-sent to the viewport in its own coordinates: the form scrolls as if the pointer were over
    # empty space.
    local = viewport.mapFromGlobal(event.globalPosition().toPoint())
    forwarded = QWheelEvent(
        QPointF(local),
        event.globalPosition(),
        event.pixelDelta(),
        event.angleDelta(),
        event.buttons(),
        event.modifiers(),
        event.phase(),
        event.inverted(),
    )
    QCoreApplication.sendEvent(viewport, forwarded)


class WheelWhenFocused:
    """Mixed into a value widget (pick list, spin box, slider, date editor) before its Qt class: the
    wheel changes the value only once the widget has the keyboard focus; before, it scrolls the form.

    A person scrolling a long form passes the pointer over pick lists; Qt's combo box takes focus from
    the wheel (`Qt.WheelFocus`) and then turns: a phone kind went from "mobile" to "work" and was sent.
    So these widgets take focus by click or Tab only (`Qt.StrongFocus`). An override, not a shared
    event filter: a Python event filter is called for every event of every guarded widget.
    """

    def _guard_wheel(self) -> None:
        assert isinstance(self, QWidget)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)

    def wheelEvent(self, event: QWheelEvent) -> None:
        assert isinstance(self, QWidget)
        if self.hasFocus():
            super().wheelEvent(event)  # type: ignore[misc]
        else:
            pass_wheel_on(self, event)


class _NoWheelCombo(WheelWhenFocused, QComboBox):
    """A pick list that scrolling the form does not change (see `WheelWhenFocused`)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._guard_wheel()


@register_editor("text", "email", "uri", "secret")
class TextEditor(QLineEdit, EditorMixin):
    """Reports user edits through `notify()`."""

    def __init__(self, field: Field, env: FormEnv, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.field, self.env = field, env
        self.setMaxLength(2**31 - 1)  # QLineEdit cuts text at 32,767 characters by default
        assert isinstance(field, TextField)
        if field.secret:
            self.setEchoMode(QLineEdit.EchoMode.Password)
        self.setPlaceholderText(_placeholder(field, _hint(field.kind)))
        self.textEdited.connect(self._edited)
        self.suggestions: Suggestions | None = None
        if env.completer is not None:
            self.offer_suggestions()

    def offer_suggestions(self) -> None:
        """Show the env's completer's suggestions as the person types (never for a secret: what is
        typed in a key field is not sent anywhere before Run)."""
        completer = self.env.completer
        if completer is None or self.echoMode() != QLineEdit.EchoMode.Normal:
            return
        if self.suggestions is None:
            from app.ui.forms.completion import Suggestions

            self.suggestions = Suggestions(self, self.field.name or "", completer, self.notify)
        else:
            self.suggestions.set_completer(completer)

    def value(self) -> Any:
        return self.text()

    def is_empty(self) -> bool:
        return self.text() == ""

    def set_value(self, value: Any) -> None:
        self.setText(value)

    def reset(self) -> None:
        self.clear()

    def local_errors(self) -> list[str]:
        return _format_problem(self.field.kind, self.text())


class _ButtonedText(QWidget, EditorMixin):
    """A line edit with one helper button (pick a date, insert now, new UUID)."""

    button_text = ""
    button_tip = ""

    def __init__(self, field: Field, env: FormEnv, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.field, self.env = field, env
        layout = hbox(self, 2)
        self.line = QLineEdit(self)
        self.line.setMaxLength(2**31 - 1)
        self.line.setPlaceholderText(_placeholder(field, _hint(field.kind)))
        self.line.textEdited.connect(self._edited)
        self.button = QToolButton(self)
        self.button.setText(QCoreApplication.translate("TextEditor", self.button_text))
        self.button.setToolTip(QCoreApplication.translate("TextEditor", self.button_tip))
        self.button.clicked.connect(self._on_button)
        layout.addWidget(self.line, 1)
        layout.addWidget(self.button)
        self.setFocusProxy(self.line)

    def _fill(self, text: str) -> None:
        self.line.setText(text)
        self.notify()

    @Slot()
    def _on_button(self) -> None:
        raise NotImplementedError

    def value(self) -> Any:
        return self.line.text()

    def is_empty(self) -> bool:
        return self.line.text() == ""

    def set_value(self, value: Any) -> None:
        self.line.setText(value)

    def reset(self) -> None:
        self.line.clear()

    def focus_chain(self) -> list[QWidget]:
        return [self.line, self.button]

    def set_access_name(self, name: str) -> None:
        self.setAccessibleName(name)
        self.line.setAccessibleName(name)
        self.button.setAccessibleName(
            fill(QCoreApplication.translate("TextEditor", "%1 for %2"), self.button.toolTip(), name)
        )

    def local_errors(self) -> list[str]:
        return _format_problem(self.field.kind, self.line.text())


@register_editor("date")
class DateEditor(_ButtonedText):
    button_text = QT_TRANSLATE_NOOP("TextEditor", "Pick…")
    button_tip = QT_TRANSLATE_NOOP("TextEditor", "Pick a date")
    popup: QMenu | None = None

    @Slot()
    def _on_button(self) -> None:
        menu = QMenu(self)
        calendar = QCalendarWidget(menu)
        calendar.setAccessibleName(fill(self.tr("Calendar for %1"), self.accessibleName()))
        current = QDate.fromString(self.line.text(), "yyyy-MM-dd")
        if current.isValid():
            calendar.setSelectedDate(current)
        action = QWidgetAction(menu)
        action.setDefaultWidget(calendar)
        menu.addAction(action)

        def picked(date: QDate) -> None:
            self._fill(date.toString("yyyy-MM-dd"))
            menu.close()

        calendar.clicked.connect(picked)
        self.popup = menu
        menu.popup(popup_position(self.button, menu.sizeHint()))


def popup_position(anchor: QWidget, size: QSize) -> QPoint:
    """Where a popup of `size` opens for `anchor`: below it, or above when there is no room below, and
    moved left or up as needed to stay whole on the screen the anchor is on (not the primary screen,
    nor off its edge: the calendar opened half off-screen near the bottom of a window)."""
    below = anchor.mapToGlobal(anchor.rect().bottomLeft())
    above = anchor.mapToGlobal(anchor.rect().topLeft())
    screen = anchor.screen() or QGuiApplication.screenAt(below) or QGuiApplication.primaryScreen()
    if screen is None:
        return below
    area = screen.availableGeometry()
    x, y = below.x(), below.y()
    if y + size.height() > area.bottom() + 1 and above.y() - size.height() >= area.top():
        y = above.y() - size.height()
    x = max(area.left(), min(x, area.right() + 1 - size.width()))
    y = max(area.top(), min(y, area.bottom() + 1 - size.height()))
    return QPoint(x, y)


@register_editor("datetime")
class DateTimeEditor(_ButtonedText):
    button_text = QT_TRANSLATE_NOOP("TextEditor", "Now")
    button_tip = QT_TRANSLATE_NOOP("TextEditor", "Insert the current time")

    @Slot()
    def _on_button(self) -> None:
        self._fill(dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z"))


@register_editor("time")
class TimeEditor(_ButtonedText):
    button_text = QT_TRANSLATE_NOOP("TextEditor", "Now")
    button_tip = QT_TRANSLATE_NOOP("TextEditor", "Insert the current time")

    @Slot()
    def _on_button(self) -> None:
        self._fill(dt.datetime.now().time().replace(microsecond=0).isoformat())


@register_editor("uuid")
class UuidEditor(_ButtonedText):
    """A UUID; "New" generates one only when the field asks for a new id (`app.forms.ids`)."""

    button_text = QT_TRANSLATE_NOOP("TextEditor", "New")
    button_tip = QT_TRANSLATE_NOOP("TextEditor", "Make up a new random id")

    def __init__(self, field: Field, env: FormEnv, parent: QWidget | None = None) -> None:
        super().__init__(field, env, parent)
        self.offers_new = asks_for_new_id(field)
        if not self.offers_new:
            self.button.hide()

    def focus_chain(self) -> list[QWidget]:
        return [self.line, self.button] if self.offers_new else [self.line]

    @Slot()
    def _on_button(self) -> None:
        self._fill(str(uuid.uuid4()))


class _PlainTextEditor(QPlainTextEdit, EditorMixin):
    """A multi-line editor that reports user edits through `notify()`, and not the text it is given."""

    def __init__(
        self, field: Field, env: FormEnv, parent: QWidget | None = None, *, fixed_font: bool = False
    ) -> None:
        super().__init__(parent)
        self.field, self.env = field, env
        self._quiet = False
        self.setTabChangesFocus(True)  # Tab moves on through the form; it never inserts a tab
        if fixed_font:
            self.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.textChanged.connect(self._on_changed)

    def _show_lines(self, lines: int) -> None:
        """Be as tall as `lines` lines of the current font."""
        self.setFixedHeight(self.fontMetrics().lineSpacing() * lines + 12)

    @contextmanager
    def _quietly(self) -> Iterator[None]:
        """Changes made inside are the program's, not the user's: no `notify()`."""
        self._quiet = True
        try:
            yield
        finally:
            self._quiet = False

    @Slot()
    def _on_changed(self) -> None:
        if not self._quiet:
            self.notify()


@register_editor("multiline")
class MultilineEditor(_PlainTextEditor):
    def __init__(self, field: Field, env: FormEnv, parent: QWidget | None = None) -> None:
        super().__init__(field, env, parent)
        self.setPlaceholderText(_placeholder(field))
        self._show_lines(4)

    def value(self) -> Any:
        return self.toPlainText()

    def is_empty(self) -> bool:
        return self.document().isEmpty()

    def set_value(self, value: Any) -> None:
        with self._quietly():
            self.setPlainText(value)

    def reset(self) -> None:
        self.set_value("")


@register_editor("integer", "number")
class NumberEditor(QLineEdit, EditorMixin):
    """Text in, exact number out (integers beyond 2**53 stay exact); Up/Down step by `multipleOf`."""

    def __init__(self, field: Field, env: FormEnv, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        assert isinstance(field, NumberField)
        self.field: NumberField = field
        self.env = env
        hint = self._bounds(field)
        kind = self.tr("whole number") if field.integer else self.tr("number")
        self.setPlaceholderText(_placeholder(field, hint or kind))
        if hint:
            self.setToolTip(hint)
        self.textEdited.connect(self._edited)

    def _bounds(self, field: NumberField) -> str:
        """ "≥ 1, ≤ 10, step 2": the model's `bounds_text()`, with the word in the person's language."""
        parts = []
        for sign, bound in (
            ("≥", field.minimum),
            (">", field.exclusive_minimum),
            ("≤", field.maximum),
            ("<", field.exclusive_maximum),
        ):
            if bound is not None:
                parts.append(f"{sign} {dumps(bound)}")
        if field.step is not None:
            parts.append(fill(self.tr("step %1"), dumps(field.step)))
        return ", ".join(parts)

    def value(self) -> Any:
        text = self.text().strip()
        if not text:
            return MISSING
        try:
            return self.field.parse(text)
        except ValueError:
            return MISSING

    def is_empty(self) -> bool:
        return self.text().strip() == ""

    def set_value(self, value: Any) -> None:
        self.setText(NumberField.format_value(value))

    def reset(self) -> None:
        self.clear()

    def local_errors(self) -> list[str]:
        text = self.text().strip()
        if not text:
            return []
        try:
            self.field.parse(text)
        except ValueError as exc:
            known = _NUMBER_PROBLEMS.get(str(exc))
            if known is not None:
                return [QCoreApplication.translate("NumberEditor", known)]
            return [str(exc)[:1].upper() + str(exc)[1:] + "."]
        return []

    def keyPressEvent(self, event: QKeyEvent) -> None:
        step = {Qt.Key.Key_Up: 1, Qt.Key.Key_Down: -1}.get(Qt.Key(event.key()))
        if step is None:
            super().keyPressEvent(event)
            return
        current = self.value()
        if self.text().strip() and current is MISSING:
            return
        self.setText(
            NumberField.format_value(self.field.stepped(None if current is MISSING else current, step))
        )
        self.notify()


@register_editor("boolean")
class BooleanEditor(QCheckBox, EditorMixin):
    """Reports user edits through `notify()`."""

    inline_label = True

    def __init__(self, field: Field, env: FormEnv, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.field, self.env = field, env
        self.clicked.connect(self._edited)

    def value(self) -> Any:
        return self.isChecked()

    def is_empty(self) -> bool:
        return False

    def set_value(self, value: Any) -> None:
        self.setChecked(bool(value))

    def reset(self) -> None:
        self.setChecked(self.field.default is True)


@register_editor("const", "null")
class ConstEditor(QCheckBox, EditorMixin):
    """A fixed value: a required one is always sent; an optional one is sent when ticked."""

    inline_label = True

    def __init__(self, field: Field, env: FormEnv, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.field, self.env = field, env
        self.fixed = field.value if isinstance(field, ConstField) else None
        self.setEnabled(not field.required)
        self.clicked.connect(self._edited)

    def setText(self, text: str) -> None:
        shown = self.fixed if isinstance(self.fixed, str) else dumps(self.fixed)
        if self.field.required:
            text = text.removesuffix(" *")  # nothing to fill in: the value is fixed and always sent
        if self.fixed is None:
            shown = self.tr("empty")  # a fixed null: never the word "null" on screen
        super().setText(visible_line(f"{text}: {shown}"[:200]))

    def value(self) -> Any:
        return self.fixed if self.isChecked() else MISSING

    def set_value(self, value: Any) -> None:
        self.setChecked(True)

    def reset(self) -> None:
        self.setChecked(False)

    def set_enabled_for_value(self, enabled: bool) -> None:
        self.setEnabled(enabled and not self.field.required)


_NUMBER_PROBLEMS = {
    "enter a whole number": QT_TRANSLATE_NOOP("NumberEditor", "Enter a whole number."),
    "enter a number": QT_TRANSLATE_NOOP("NumberEditor", "Enter a number."),
    "number is too large": QT_TRANSLATE_NOOP("NumberEditor", "The number is too large."),
}
"""The number model's (English, Qt-free) reasons, as shown."""


LARGE_CHOICE_LIST = 40
"""Longer pick lists get a type-to-search box (a completer over a model; never one widget per value)."""


@register_editor("choice")
class ChoiceEditor(_NoWheelCombo, EditorMixin):
    """One value from a list of any JSON values (null included), shown by title when there is one."""

    def __init__(self, field: Field, env: FormEnv, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        assert isinstance(field, ChoiceField)
        self.field: ChoiceField = field
        self.env = env
        labels = [choice_label(c) for c in field.choices]
        if len(set(labels)) != len(
            labels
        ):  # "1" and 1, or two equal titles: show the JSON to tell them apart
            labels = [
                dumps(c.value) if labels.count(t) > 1 else t
                for c, t in zip(field.choices, labels, strict=True)
            ]
        self._offset = 0 if field.required else 1
        if not field.required:
            # The first entry leaves the field out: "Not set", or the default the server then uses.
            unset = field.default is MISSING or field.default is None
            first = self.tr("Not set") if unset else fill(self.tr("Default: %1"), _choice_text(field))
            labels.insert(0, first)
        labels = [visible_line(label) for label in labels]  # titles and values come from the server
        self._index = {label: i for i, label in reversed(list(enumerate(labels)))}
        self.setModel(QStringListModel(labels, self))
        self.setMaxVisibleItems(15)
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.setMinimumContentsLength(12)
        self.setPlaceholderText(self.tr("Choose…"))
        if len(field.choices) > LARGE_CHOICE_LIST:
            self.setEditable(True)
            self.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
            completer = QCompleter(self.model(), self)
            completer.setFilterMode(Qt.MatchFlag.MatchContains)
            completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
            completer.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
            self.setCompleter(completer)
            editor = self.lineEdit()
            assert editor is not None
            editor.setPlaceholderText(self.tr("Type to search…"))
            editor.textEdited.connect(self._edited)
            completer.activated.connect(self._edited)
        view = self.view()
        if hasattr(view, "setUniformItemSizes"):
            view.setUniformItemSizes(True)  # a 10,000-entry list must not measure every row
        self.activated.connect(self._edited)

    def _choice_index(self) -> int | None:
        if self.isEditable():
            position = self._index.get(self.currentText())
            if position is None:
                return None
        else:
            position = self.currentIndex()
        index = position - self._offset
        return index if 0 <= index < len(self.field.choices) else None

    def value(self) -> Any:
        index = self._choice_index()
        return MISSING if index is None else self.field.choices[index].value

    def set_value(self, value: Any) -> None:
        index = self.field.index_of(value)
        if index is not None:
            self.setCurrentIndex(index + self._offset)

    def reset(self) -> None:
        default = self.field.index_of(self.field.default) if self.field.default is not MISSING else None
        if self.field.required and default is not None:
            self.setCurrentIndex(default)
        elif self.field.required:
            self.setCurrentIndex(-1)
            if self.isEditable():
                self.setEditText("")
        else:
            self.setCurrentIndex(0)

    def is_empty(self) -> bool:
        return self._choice_index() is None

    def local_errors(self) -> list[str]:
        if (
            self.isEditable()
            and self.currentText()
            and self._choice_index() is None
            and (self.currentText() not in self._index)
        ):
            return [self.tr("Pick one of the listed values.")]
        return []

    def focus_chain(self) -> list[QWidget]:
        return [self]


def choice_label(choice: Choice) -> str:
    """A choice's title; the value null without a title of its own reads "Empty" (never "null")."""
    if choice.value is None and choice.label == "null":
        return QCoreApplication.translate("ChoiceEditor", "Empty")
    return choice.label


def _choice_text(field: ChoiceField) -> str:
    index = field.index_of(field.default)
    return choice_label(field.choices[index]) if index is not None else dumps(field.default)


_JSON_STARTS = set('{["-0123456789tfn')


@register_editor("json")
class JsonEditor(_PlainTextEditor):
    """Any JSON value as text; a parse error names the line and column."""

    def __init__(self, field: Field, env: FormEnv, parent: QWidget | None = None) -> None:
        super().__init__(field, env, parent, fixed_font=True)
        hint = self.tr('JSON value, e.g. "text", 42, true, ["a", "b"] or {"name": "value"}')
        reason = field.reason if isinstance(field, JsonField) else ""
        if reason:
            tip = self.tr("Typed as JSON: the form has no fields for this part of the tool's input.")
            if env.developer:
                # The schema's words (`$ref`, keywords): developer mode only. The reason may quote
                # the server's schema, so the tooltip is made plain text.
                tip = plain_tooltip(tip + "\n" + reason)
            self.setToolTip(tip)
        self.setPlaceholderText(_placeholder(field, hint))
        self._show_lines(4)

    def parse(self) -> tuple[Any, str]:
        text = self.toPlainText()
        if not text.strip():
            return MISSING, ""
        try:
            return json.loads(text), ""
        except json.JSONDecodeError as exc:
            where = fill(self.tr("Line %1, column %2: %3."), str(exc.lineno), str(exc.colno), exc.msg)
            if text.lstrip()[:1] not in _JSON_STARTS:
                where += " " + self.tr('For plain text, put it in double quotes: "like this".')
            return MISSING, where
        except RecursionError:
            return MISSING, self.tr("The JSON nests too deeply.")

    def value(self) -> Any:
        return self.parse()[0]

    def is_empty(self) -> bool:
        return not self.toPlainText().strip()

    def set_value(self, value: Any) -> None:
        text = dumps_for_editing(value, indent=2 if isinstance(value, dict | list) and value else None)
        with self._quietly():
            self.setPlainText(text)
        self._show_lines(min(max(text.count("\n") + 1, 3 if isinstance(value, dict | list) else 1), 12))

    def reset(self) -> None:
        with self._quietly():
            self.clear()

    def local_errors(self) -> list[str]:
        error = self.parse()[1]
        return [error] if error else []
