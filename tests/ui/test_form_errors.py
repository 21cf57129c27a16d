"""Issue 11, item 4: an error under a field goes as soon as that field is valid.

Errors used to stay until the next Run, also after the person fixed them and the run succeeded.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QLineEdit
from pytestqt.qtbot import QtBot

from app.ui.forms import FormWidget

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")

SCHEMA = {
    "type": "object",
    "properties": {
        "city": {"type": "string", "minLength": 2},
        "count": {"type": "integer", "minimum": 1},
        "note": {"type": "string"},
    },
    "required": ["city", "count"],
}


def error_text(form: FormWidget, name: str) -> str:
    row = form.root.child_row(name)
    assert row is not None
    labels = [w for w in row.findChildren(QLabel) if w.objectName() == "formError" and not w.isHidden()]
    return "\n".join(label.text() for label in labels)


def test_an_error_clears_as_soon_as_its_field_is_valid(qtbot: QtBot) -> None:
    form = FormWidget(SCHEMA)
    qtbot.addWidget(form)
    form.show()
    form.show_errors()  # what Run does with an empty form
    assert error_text(form, "city") and error_text(form, "count")

    city = form.root.child_row("city").editor  # type: ignore[union-attr]
    assert isinstance(city, QLineEdit)
    city.setFocus()
    qtbot.keyClicks(city, "P")
    assert "at least" in error_text(form, "city").lower() or error_text(form, "city")
    assert error_text(form, "count"), "the other field is still wrong: its error stays"
    qtbot.keyClicks(city, "aris")
    assert error_text(form, "city") == ""
    assert error_text(form, "count")

    count = form.root.child_row("count").editor  # type: ignore[union-attr]
    count.setFocus()
    qtbot.keyClicks(count, "0")
    assert error_text(form, "count")  # still below the minimum
    qtbot.keyClick(count, Qt.Key.Key_Backspace)
    qtbot.keyClicks(count, "3")
    assert error_text(form, "count") == ""
    assert form.errors() == []
    assert form.value() == {"city": "Paris", "count": 3}


def test_fixing_does_not_mark_fields_not_reached_yet(qtbot: QtBot) -> None:
    form = FormWidget(SCHEMA)
    qtbot.addWidget(form)
    form.show()
    city = form.root.child_row("city").editor  # type: ignore[union-attr]
    qtbot.keyClicks(city, "P")
    # No Run yet: typing shows nothing, the person is still filling the form in.
    assert error_text(form, "city") == "" and error_text(form, "count") == ""


def test_set_value_that_fixes_the_errors_clears_them(qtbot: QtBot) -> None:
    form = FormWidget(SCHEMA)
    qtbot.addWidget(form)
    form.show_errors()
    assert error_text(form, "count")
    form.set_value({"city": "Oslo", "count": 2})  # a run from History put back in the form
    assert error_text(form, "city") == "" and error_text(form, "count") == ""
