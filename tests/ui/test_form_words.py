"""Issue 11, section 2: a form speaks to people. No "null" buttons (a "Not set" choice), no "Other
properties" (named fields, then "More entries" / "Add an entry"), no schema words (`$ref`, `oneOf`,
format names) on screen; developer mode shows the schema behind a field in its label's tooltip and
brings back the Form/JSON tabs.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtWidgets import QAbstractButton, QComboBox, QLabel, QLineEdit, QListWidget, QWidget
from pytestqt.qtbot import QtBot

from app.ui.developer_mode import developer_mode
from app.ui.forms import FormWidget
from app.ui.forms.row import FieldRow

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")

# What pydantic writes for a model with optional, nullable, formatted and enumerated fields, plus the
# other ways schemas say "may be null" and "more keys allowed".
SCHEMA: dict[str, Any] = {
    "type": "object",
    "$defs": {
        "Kind": {"type": "string", "enum": ["mobile", "work"]},
        "Phone": {
            "type": "object",
            "properties": {
                "number": {"type": "string"},
                "kind": {"anyOf": [{"$ref": "#/$defs/Kind"}, {"type": "null"}], "default": None},
            },
            "required": ["number"],
        },
    },
    "properties": {
        "name": {"type": "string"},
        "birthday": {"anyOf": [{"type": "string", "format": "date"}, {"type": "null"}], "default": None},
        "nickname": {"type": ["string", "null"]},
        "level": {"enum": ["low", None, "high"]},
        "nothing": {"type": "null"},
        "when": {"oneOf": [{"type": "string", "format": "date-time"}, {"type": "integer"}]},
        "phone": {"$ref": "#/$defs/Phone"},
        "tags": {"type": "array", "items": {"type": ["string", "null"]}},
        "labels": {
            "type": "object",
            "properties": {"colour": {"type": "string"}},
            "additionalProperties": True,
        },
        "extra": {"type": "object", "additionalProperties": {"type": ["integer", "null"]}},
    },
    "required": ["name", "nickname", "when", "phone"],
}

SCHEMA_WORDS = re.compile(r"\bnull\b|\$ref|\$defs|oneOf|anyOf|allOf|date-time|additional|propert", re.I)


def opened(qtbot: QtBot, schema: Any = SCHEMA) -> FormWidget:
    form = FormWidget(schema)
    qtbot.addWidget(form)
    form.set_value(
        {
            "name": "Ada",
            "nickname": None,
            "when": "2026-01-31T09:30:00Z",
            "phone": {"number": "1", "kind": None},
            "tags": ["a", None],
            "labels": {"colour": "red", "shape": "round"},
            "extra": {"x": 1},
        }
    )
    form.finish_building()
    for row in form.findChildren(FieldRow):
        row.ensure_built()
    form.show()
    return form


def shown_texts(form: QWidget) -> Iterator[str]:
    """Every word the form itself puts on screen: labels, buttons, pick list entries, placeholders."""
    for label in form.findChildren(QLabel):
        if label.isVisibleTo(form):
            yield label.text()
    for button in form.findChildren(QAbstractButton):
        if button.isVisibleTo(form):
            yield button.text()
    for combo in form.findChildren(QComboBox):
        yield from (combo.itemText(i) for i in range(combo.count()))
        yield combo.placeholderText()
    for line in form.findChildren(QLineEdit):
        yield line.placeholderText()
    for listing in form.findChildren(QListWidget):
        yield from (listing.item(i).text() for i in range(listing.count()))


def test_no_null_no_other_properties_no_schema_words_on_screen(qtbot: QtBot) -> None:
    form = opened(qtbot)
    words = [t for t in shown_texts(form) if t]
    offending = [t for t in words if SCHEMA_WORDS.search(t)]
    assert not offending
    assert "Other properties" not in words
    # A nullable field offers "Not set"; the explicit null given is shown as "Not set" ticked.
    not_set = [b for b in form.findChildren(QAbstractButton) if b.text() == "Not set"]
    assert not_set and any(b.isChecked() for b in not_set)
    assert "More entries" in words and "Add an entry" in words
    # The pick list with null among its values says "Empty" for it, "Not set" for leaving it out.
    level = form.root.child_row("level")
    assert level is not None and isinstance(level.editor, QComboBox)
    assert [level.editor.itemText(i) for i in range(level.editor.count())] == [
        "Not set",
        "low",
        "Empty",
        "high",
    ]
    # Nothing lost on the way: the values read back exactly.
    assert form.value()["nickname"] is None
    assert form.value()["phone"] == {"number": "1", "kind": None}
    assert form.value()["labels"] == {"colour": "red", "shape": "round"}


def test_not_set_sends_an_explicit_empty_value(qtbot: QtBot) -> None:
    form = FormWidget({"type": "object", "properties": {"note": {"type": ["string", "null"]}}})
    qtbot.addWidget(form)
    button = next(b for b in form.findChildren(QAbstractButton) if b.text() == "Not set")
    assert "null" in button.toolTip()  # the protocol word lives in the tooltip only
    assert form.value() == {}
    button.click()
    assert form.value() == {"note": None}
    button.click()
    assert form.value() == {}


def test_developer_mode_shows_the_schema_in_tooltips_and_the_json_tab(qtbot: QtBot) -> None:
    form = opened(qtbot)
    when = form.root.child_row("when")
    assert when is not None and when.toggle is not None  # alternatives: a group with a toggle
    assert not form.tabs.tabBar().isVisibleTo(form)  # people see the form only
    assert when.toggle.toolTip() == ""
    developer_mode().set_enabled(True)
    assert form.tabs.tabBar().isVisibleTo(form)
    assert "oneOf" in when.toggle.toolTip()
    birthday = form.root.child_row("birthday")
    assert birthday is not None and birthday.title is not None
    assert "format: date" in birthday.title.toolTip()
    # A form built while developer mode is on starts with the tooltips.
    later = FormWidget({"type": "object", "properties": {"at": {"type": "string", "format": "date-time"}}})
    qtbot.addWidget(later)
    at = later.root.child_row("at")
    assert at is not None and at.title is not None and "format: date-time" in at.title.toolTip()
    form.tabs.setCurrentIndex(1)
    developer_mode().set_enabled(False)
    assert form.tabs.currentIndex() == 0 and not form.tabs.tabBar().isVisibleTo(form)
    assert when.toggle.toolTip() == ""


def test_error_and_help_colours_follow_the_scheme(qtbot: QtBot) -> None:
    from PySide6.QtGui import QColor, QGuiApplication, QPalette
    from PySide6.QtWidgets import QApplication

    from app.ui import theme

    form = FormWidget(
        {
            "type": "object",
            "properties": {"n": {"type": "integer", "description": "How many."}},
            "required": ["n"],
        }
    )
    qtbot.addWidget(form)
    form.show()
    form.show_errors()
    error = next(label for label in form.findChildren(QLabel) if label.objectName() == "formError")
    light = QGuiApplication.palette()
    assert error.palette().color(QPalette.ColorRole.WindowText) == QColor(theme.colours("error", light)[1])
    dark = QPalette(light)
    for role, colour in (
        (QPalette.ColorRole.Window, "#202124"),
        (QPalette.ColorRole.WindowText, "#e8eaed"),
        (QPalette.ColorRole.Base, "#2b2d30"),
        (QPalette.ColorRole.Text, "#e8eaed"),
        (QPalette.ColorRole.PlaceholderText, "#9aa0a6"),
    ):
        dark.setColor(role, QColor(colour))
    QApplication.setPalette(dark)
    try:
        qtbot.waitUntil(
            lambda: (
                error.palette().color(QPalette.ColorRole.WindowText)
                == QColor(theme.colours("error", dark)[1])
            ),
            timeout=3000,
        )
        help_label = next(label for label in form.findChildren(QLabel) if label.objectName() == "formHelp")
        assert help_label.palette().color(QPalette.ColorRole.WindowText) == QColor("#9aa0a6")
    finally:
        QApplication.setPalette(light)


def test_a_part_typed_as_json_names_the_schema_keyword_only_in_developer_mode(qtbot: QtBot) -> None:
    from app.ui.forms.scalar_editors import JsonEditor

    schema = {"type": "object", "properties": {"rule": {"if": {"type": "string"}, "then": {"minLength": 2}}}}

    def tooltip() -> str:
        form = FormWidget(schema)
        qtbot.addWidget(form)
        (editor,) = form.findChildren(JsonEditor)
        return editor.toolTip()

    assert "Typed as JSON" in tooltip() and "if/then/else" not in tooltip()
    developer_mode().set_enabled(True)
    assert "if/then/else" in tooltip()


def test_the_elicitation_dialog_names_the_server(qtbot: QtBot) -> None:
    from app.ui.forms.elicitation_dialog import ElicitationDialog

    named = ElicitationDialog("Which table?", {"type": "object"}, server="demo")
    qtbot.addWidget(named)
    assert named.windowTitle() == "demo asks for information"
    anonymous = ElicitationDialog("Which table?", {"type": "object"})
    qtbot.addWidget(anonymous)
    assert anonymous.windowTitle() == "A server asks for information"
