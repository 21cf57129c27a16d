"""FormWidget and its editors, offscreen: values, plain text, JSON view, keyboard, accessibility, errors."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QCheckBox,
    QComboBox,
    QDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)
from pytestqt.qtbot import QtBot

from app.forms import MISSING
from app.forms.masking import SECRET_MASK
from app.ui.forms import FormWidget
from app.ui.forms.container_editors import ArrayEditor, MapEditor, ObjectEditor, VariantEditor
from app.ui.forms.row import FieldRow
from app.ui.forms.scalar_editors import ChoiceEditor, NumberEditor

from .test_model import NOTION_PARENT, RECURSIVE, obj


def make(qtbot: QtBot, schema: Any) -> FormWidget:
    widget = FormWidget(schema)
    qtbot.addWidget(widget)
    return widget


def row(widget: FormWidget, *path: str | int) -> FieldRow:
    found = widget.root
    for key in path:
        child = found.child_row(key)
        assert child is not None, path
        found = child
    return found


def line(widget: FormWidget, *path: str | int) -> QLineEdit:
    editor = row(widget, *path).editor
    assert isinstance(editor, QLineEdit)
    return editor


# --- values ---


def test_untouched_form_sends_required_defaults_only(qtbot: QtBot) -> None:
    w = make(
        qtbot,
        obj(
            {
                "q": {"type": "string"},
                "n": {"type": "number", "default": 3},
                "limit": {"type": "integer", "default": 10},
                "name": {"type": "string"},
            },
            ["limit", "name"],
        ),
    )
    assert w.value() == {"limit": 10}
    assert line(w, "n").placeholderText() == "Default: 3"
    assert [(e.path, e.keyword) for e in w.errors()] == [(("name",), "required")]


def test_typing_sets_and_clearing_unsets(qtbot: QtBot) -> None:
    w = make(qtbot, obj({"q": {"type": "string"}, "n": {"type": "number"}}))
    with qtbot.waitSignal(w.value_changed, timeout=1000):
        qtbot.keyClicks(line(w, "q"), "hi")
    qtbot.keyClicks(line(w, "n"), "2.5")
    assert w.value() == {"q": "hi", "n": 2.5}
    line(w, "q").selectAll()
    qtbot.keyClick(line(w, "q"), Qt.Key.Key_Delete)
    assert w.value() == {"n": 2.5}  # an optional field emptied by the user is left out, not sent as ""
    line(w, "n").clear()
    qtbot.keyClicks(line(w, "n"), "abc")
    assert w.value() == {}
    assert [(e.path, e.message) for e in w.errors()] == [(("n",), "Enter a number.")]


def test_clear_button_leaves_field_out(qtbot: QtBot) -> None:
    w = make(qtbot, obj({"flag": {"type": "boolean"}}))
    box = row(w, "flag").editor
    assert isinstance(box, QCheckBox)
    box.click()
    assert w.value() == {"flag": True}
    box.click()
    assert w.value() == {"flag": False}  # explicitly false is sent
    clear = [b for b in w.findChildren(QAbstractButton) if b.accessibleName() == "Clear Flag"]
    assert len(clear) == 1 and clear[0].isVisibleTo(w)
    clear[0].click()
    assert w.value() == {}


def test_big_integer_and_number_steps(qtbot: QtBot) -> None:
    w = make(
        qtbot,
        obj(
            {
                "big": {"type": "integer"},
                "step": {"type": "number", "minimum": 0, "maximum": 1, "multipleOf": 0.25},
            }
        ),
    )
    w.set_value({"big": 2**63})
    assert line(w, "big").text() == "9223372036854775808"
    assert w.value() == {"big": 2**63}
    step = line(w, "step")
    assert isinstance(step, NumberEditor)
    qtbot.keyClick(step, Qt.Key.Key_Up)
    qtbot.keyClick(step, Qt.Key.Key_Up)
    assert w.value()["step"] == 0.25
    for _ in range(6):
        qtbot.keyClick(step, Qt.Key.Key_Up)
    assert w.value()["step"] == 1
    assert "≤ 1" in step.placeholderText()


def test_nullable_null_is_distinct_from_omitted(qtbot: QtBot) -> None:
    w = make(qtbot, obj({"s": {"anyOf": [{"type": "string"}, {"type": "null"}]}}))
    assert w.value() == {}
    null = next(b for b in w.findChildren(QAbstractButton) if b.accessibleName() == "S is not set")
    assert null.text() == "Not set"
    null.click()
    assert w.value() == {"s": None}
    assert not line(w, "s").isEnabled()
    null.click()
    assert w.value() == {}
    w.set_value({"s": None})
    assert null.isChecked() and w.value() == {"s": None}


def test_enum_choice_with_null_and_const(qtbot: QtBot) -> None:
    w = make(qtbot, obj({"e": {"enum": ["a", None, 1]}, "k": {"const": "fixed"}}, ["k"]))
    combo = row(w, "e").editor
    assert isinstance(combo, QComboBox)
    assert [combo.itemText(i) for i in range(combo.count())] == ["Not set", "a", "Empty", "1"]
    combo.setCurrentIndex(2)
    combo.activated.emit(2)
    assert w.value() == {"e": None, "k": "fixed"}


def test_ten_thousand_value_enum_uses_one_combo(qtbot: QtBot) -> None:
    values = [f"item {i:05}" for i in range(10_000)]
    started = time.perf_counter()
    w = make(qtbot, obj({"pick": {"type": "string", "enum": values}}, ["pick"]))
    assert time.perf_counter() - started < 2.0
    combo = row(w, "pick").editor
    assert isinstance(combo, ChoiceEditor) and combo.count() == 10_000
    assert combo.isEditable() and combo.completer() is not None
    assert len(w.findChildren(QWidget)) < 60  # a model behind one combo box, not a widget per value
    w.set_value({"pick": "item 09999"})
    assert w.value() == {"pick": "item 09999"}
    combo.setEditText("item 00042")
    assert w.value() == {"pick": "item 00042"}


def test_multi_select(qtbot: QtBot) -> None:
    w = make(qtbot, obj({"m": {"type": "array", "items": {"enum": ["x", "y", "z"]}, "maxItems": 2}}))
    listing = row(w, "m").editor
    assert isinstance(listing, QListWidget)
    listing.item(2).setCheckState(Qt.CheckState.Checked)
    listing.item(0).setCheckState(Qt.CheckState.Checked)
    assert w.value() == {"m": ["x", "z"]}
    listing.item(1).setCheckState(Qt.CheckState.Checked)
    assert [e.keyword for e in w.errors()] == ["maxItems"]


def test_array_add_move_remove(qtbot: QtBot) -> None:
    w = make(qtbot, obj({"tags": {"type": "array", "items": {"type": "string"}}}))
    editor = row(w, "tags").editor
    assert isinstance(editor, ArrayEditor)
    for text in ("a", "b", "c"):
        editor.entries.add_button.click()
        item = row(w, "tags", len(editor.entries.entries) - 1).editor
        qtbot.keyClicks(item, text)
    assert w.value() == {"tags": ["a", "b", "c"]}
    buttons = {b.accessibleName(): b for b in w.findChildren(QAbstractButton)}
    buttons["Move Tags item 3 up"].click()
    assert w.value() == {"tags": ["a", "c", "b"]}
    buttons = {b.accessibleName(): b for b in w.findChildren(QAbstractButton)}
    buttons["Remove Tags item 1"].click()
    assert w.value() == {"tags": ["c", "b"]}
    assert {b.accessibleName() for b in w.findChildren(QAbstractButton) if b.isVisibleTo(w)} >= {
        "Move Tags item 2 up",
        "Remove Tags item 2",
    }


def test_arrays_of_objects_and_of_arrays(qtbot: QtBot) -> None:
    schema = obj(
        {
            "rows": {"type": "array", "items": obj({"a": {"type": "integer"}}, ["a"])},
            "grid": {"type": "array", "items": {"type": "array", "items": {"type": "number"}}},
        }
    )
    w = make(qtbot, schema)
    value = {"rows": [{"a": 1}, {"a": 2}], "grid": [[1.5], [], [2, 3]]}
    w.set_value(value)
    assert w.value() == value
    assert row(w, "rows", 1, "a").editor.text() == "2"


def test_nested_object_is_lazy_until_opened(qtbot: QtBot) -> None:
    w = make(qtbot, obj({"opt": obj({"deep": {"type": "string"}})}))
    group = w.root.editor.rows["opt"]  # row() would open it
    assert group.editor is None  # collapsed optional group: not built yet
    assert group.toggle is not None
    group.toggle.click()
    assert group.editor is not None
    qtbot.keyClicks(row(w, "opt", "deep").editor, "v")
    assert w.value() == {"opt": {"deep": "v"}}


def test_map_editor_for_additional_properties(qtbot: QtBot) -> None:
    w = make(
        qtbot,
        obj(
            {
                "env": {"type": "object", "additionalProperties": {"type": "integer"}},
                "mixed": {
                    "type": "object",
                    "properties": {"a": {"type": "string"}},
                    "additionalProperties": True,
                },
            },
            ["env", "mixed"],
        ),
    )
    value = {"env": {"A": 1, "B": 2}, "mixed": {"a": "x", "other": [1, {"k": None}]}}
    w.set_value(value)
    assert w.value() == value
    env_map = row(w, "env").editor.map
    assert isinstance(env_map, MapEditor)
    env_map.entries.add_button.click()
    assert w.value()["env"] == {"A": 1, "B": 2, "": None} or w.value()["env"] == {"A": 1, "B": 2}


def test_unknown_keys_are_kept(qtbot: QtBot) -> None:
    w = make(qtbot, obj({"a": {"type": "string"}}))
    w.set_value({"a": "x", "surprise": {"deep": [1, 2]}})
    assert w.value() == {"a": "x", "surprise": {"deep": [1, 2]}}


def test_variants_auto_pick_by_discriminator(qtbot: QtBot) -> None:
    w = make(qtbot, obj({"parent": NOTION_PARENT}, ["parent"]))
    picker = row(w, "parent").editor
    assert isinstance(picker, VariantEditor)
    assert w.value() == {"parent": {"type": "page_id"}}
    w.set_value({"parent": {"type": "workspace"}})
    assert picker.picker.currentText() == "workspace"
    w.set_value({"parent": {"type": "database_id", "database_id": "d"}})
    assert picker.picker.currentText() == "database_id"
    assert w.value() == {"parent": {"type": "database_id", "database_id": "d"}}
    picker.picker.setCurrentIndex(0)
    picker.picker.activated.emit(0)
    assert w.value() == {"parent": {"type": "page_id"}}
    assert [(e.path, e.keyword) for e in w.errors()] == [(("parent", "page_id"), "required")]


def test_value_the_form_cannot_show_goes_to_json_not_lost(qtbot: QtBot) -> None:
    w = make(qtbot, obj({"n": {"type": "integer"}, "s": {"type": "string"}}))
    odd = {"n": "not a number", "s": {"an": "object"}}
    w.set_value(odd)
    assert w.value() == odd
    notes = [lab.text() for lab in w.findChildren(QLabel) if lab.objectName() == "formRawNote"]
    assert len(notes) == 2


def test_recursive_schema_widget(qtbot: QtBot) -> None:
    w = make(qtbot, RECURSIVE)
    value: dict[str, Any] = {"name": "a"}
    for i in range(30):
        value = {"name": f"n{i}", "parent": value, "children": [{"name": "leaf"}]}
    w.set_value({"root": value})
    assert w.value() == {"root": value}


def test_json_fallback_field(qtbot: QtBot) -> None:
    w = make(qtbot, obj({"cond": {"if": {"type": "string"}, "then": {"minLength": 2}}}))
    editor = row(w, "cond").editor
    assert isinstance(editor, QPlainTextEdit)
    editor.setPlainText('{"a": [1, 2')
    assert [e.path for e in w.errors()] == [("cond",)]
    assert "Line 1, column" in w.errors()[0].message
    editor.setPlainText('{"a": [1, 2]}')
    assert w.value() == {"cond": {"a": [1, 2]}}
    editor.setPlainText("hello")  # a person typing text where JSON is expected is told what to do
    assert "double quotes" in w.errors()[0].message


def test_secret_is_masked(qtbot: QtBot) -> None:
    w = make(qtbot, obj({"api_key": {"type": "string"}}))
    assert line(w, "api_key").echoMode() == QLineEdit.EchoMode.Password
    w.set_value({"api_key": "s3cr3t"})
    w.tabs.setCurrentIndex(1)
    assert w.json_view is not None
    text = w.json_view.editor.toPlainText()
    assert "s3cr3t" not in text and SECRET_MASK in text
    w.json_view.editor.setPlainText(text.replace("{", '{"extra": 1, ', 1))
    assert w.value() == {"extra": 1, "api_key": "s3cr3t"}


# --- plain text and help ---


def test_server_text_is_plain_text(qtbot: QtBot) -> None:
    evil = 'Click <a href="https://evil.example">here</a> <img src="file:///etc/passwd"> <b>now</b>'
    w = make(qtbot, obj({"x": {"type": "string", "title": "<i>T</i>", "description": evil}}))
    labels = w.findChildren(QLabel)
    texts = {lab.text() for lab in labels}
    assert evil in texts and "<i>T</i>" in texts
    for lab in labels:
        assert lab.textFormat() == Qt.TextFormat.PlainText
        assert not lab.openExternalLinks()
    broken = make(qtbot, obj({"r": {"$ref": '#/<img src="x">'}, "e": {"enum": ["<b>x</b>"]}}))
    assert all("<" not in child.toolTip() for child in broken.findChildren(QWidget))
    help_label = next(lab for lab in labels if lab.text() == evil)
    help_label.resize(400, 100)
    assert help_label.hasSelectedText() is False


def test_long_description_wraps_and_expands(qtbot: QtBot) -> None:
    long = "word " * 200
    w = make(qtbot, obj({"x": {"type": "string", "description": long}}))
    help_widget = row(w, "x").help
    assert help_widget is not None
    label = help_widget.label  # type: ignore[attr-defined]
    more = help_widget.more  # type: ignore[attr-defined]
    assert label.wordWrap() and len(label.text()) < 200
    more.click()
    assert label.text() == long.strip()
    assert more.accessibleName() == "Show all help for X"


# --- JSON view ---


def test_json_view_in_step_both_ways(qtbot: QtBot) -> None:
    w = make(qtbot, obj({"q": {"type": "string"}, "n": {"type": "integer"}}))
    qtbot.keyClicks(line(w, "q"), "hello")
    w.tabs.setCurrentIndex(1)
    view = w.json_view
    assert view is not None
    assert json.loads(view.editor.toPlainText()) == {"q": "hello"}
    with qtbot.waitSignal(w.value_changed, timeout=1000):
        view.editor.setPlainText('{"q": "bye", "n": 7}')
    assert line(w, "q").text() == "bye" and line(w, "n").text() == "7"
    assert w.value() == {"q": "bye", "n": 7}
    # Invalid JSON: the place is shown, and the fields keep their state.
    view.editor.setPlainText('{"q": "bye",\n  "n": }')
    assert view.status.text().startswith("Line 2, column 8")
    assert view.error_position() == (2, 8)
    assert w.value() == {"q": "bye", "n": 7}
    assert line(w, "q").text() == "bye"
    assert any(e.keyword == "json" for e in w.errors())
    # Editing a field rewrites the view again.
    w.tabs.setCurrentIndex(0)
    qtbot.keyClicks(line(w, "q"), "!")
    w.tabs.setCurrentIndex(1)
    assert json.loads(view.editor.toPlainText()) == {"q": "bye!", "n": 7}


# --- keyboard and accessibility ---


@pytest.mark.qt_log_ignore("propagateSizeHints")
def test_enter_in_a_field_does_not_press_the_default_button(qtbot: QtBot) -> None:
    dialog = QDialog()
    qtbot.addWidget(dialog)
    layout = QVBoxLayout(dialog)
    form = FormWidget(obj({"q": {"type": "string"}, "e": {"enum": ["a", "b"]}}), dialog)
    run = QPushButton("Run", dialog)
    run.setDefault(True)
    layout.addWidget(form)
    layout.addWidget(run)
    dialog.show()
    qtbot.waitExposed(dialog)
    pressed: list[bool] = []
    run.clicked.connect(lambda: pressed.append(True))
    field = line(form, "q")
    field.setFocus()
    qtbot.keyClicks(field, "x")
    qtbot.keyClick(field, Qt.Key.Key_Return)
    qtbot.keyClick(field, Qt.Key.Key_Enter)
    combo = row(form, "e").editor
    combo.setFocus()
    qtbot.keyClick(combo, Qt.Key.Key_Return)
    assert pressed == []
    assert dialog.isVisible()
    # The check can fail: without the form in between, Enter does press the default button.
    other = QLineEdit(dialog)
    layout.addWidget(other)
    other.setFocus()
    qtbot.keyClick(other, Qt.Key.Key_Return)
    assert pressed == [True]


@pytest.mark.qt_log_ignore("propagateSizeHints")
def test_tab_order_follows_the_form(qtbot: QtBot) -> None:
    w = make(
        qtbot,
        obj({"a": {"type": "string"}, "opt": obj({"inner": {"type": "string"}}), "b": {"type": "string"}}),
    )
    w.show()
    qtbot.waitExposed(w)
    group = w.root.editor.rows["opt"]
    group.toggle.click()  # built now, after "b": the tab order must still go a -> opt -> inner -> b
    first = line(w, "a")
    first.setFocus()
    order = []
    current: QWidget | None = first
    for _ in range(4):
        assert current is not None
        current = current.nextInFocusChain()
        while current is not None and not (
            current.focusPolicy() & Qt.FocusPolicy.TabFocus and current.isVisible()
        ):
            current = current.nextInFocusChain()
        order.append(current)
    assert order[:3] == [group.toggle, line(w, "opt", "inner"), line(w, "b")]


def test_every_control_has_an_accessible_name(qtbot: QtBot) -> None:
    schema = obj(
        {
            "text": {"type": "string"},
            "body": {"type": "string"},
            "when": {"type": "string", "format": "date"},
            "at": {"type": "string", "format": "date-time"},
            "id": {"type": "string", "format": "uuid"},
            "n": {"type": "integer"},
            "b": {"type": "boolean"},
            "e": {"enum": ["a", "b"]},
            "m": {"type": "array", "items": {"enum": ["x", "y"]}},
            "list": {"type": "array", "items": {"type": "string"}},
            "map": {"type": "object", "additionalProperties": {"type": "string"}},
            "v": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
            "nul": {"type": ["string", "null"]},
            "j": {"not": {}},
            "pw": {"type": "string", "writeOnly": True},
            "c": {"const": 1},
            "inner": obj({"x": {"type": "string"}}, ["x"]),
        },
        ["inner"],
    )
    w = make(qtbot, schema)
    w.set_value({"list": ["a"], "map": {"k": "v"}, "text": "t"})
    controls = [
        c
        for c in w.findChildren(QWidget)
        if isinstance(c, QAbstractButton | QLineEdit | QPlainTextEdit | QComboBox | QListWidget)
        and c.focusPolicy() != Qt.FocusPolicy.NoFocus
        and c.isVisibleTo(w)
    ]
    assert len(controls) > 20
    unnamed = [
        f"{type(c).__name__}:{getattr(c, 'text', lambda: '')()}"
        for c in controls
        if not c.accessibleName() and not (isinstance(c, QAbstractButton) and c.text())
    ]
    assert unnamed == []


# --- errors ---


@pytest.mark.qt_log_ignore("propagateSizeHints")
def test_show_errors_at_the_field_and_focus_first(qtbot: QtBot) -> None:
    w = make(
        qtbot,
        obj(
            {
                "a": {"type": "string"},
                "inner": obj({"n": {"type": "integer", "minimum": 3}}),
                "z": {"type": "string"},
            },
            ["a", "z"],
        ),
    )
    w.show()
    qtbot.waitExposed(w)
    w.set_value({"inner": {"n": 1}})
    errors = w.errors()
    assert {e.path for e in errors} == {("a",), ("z",), ("inner", "n")}
    w.show_errors(errors)
    shown = {
        lab.text() for lab in w.findChildren(QLabel) if lab.objectName() == "formError" and lab.isVisibleTo(w)
    }
    assert shown == {"This field is required.", "Must be at least 3."}
    assert w.focus_first_error()
    assert w.focusWidget() is line(w, "a")
    qtbot.keyClicks(line(w, "a"), "ok")
    qtbot.keyClicks(line(w, "z"), "ok")
    w.show_errors()
    assert w.focus_first_error()
    assert w.focusWidget() is line(w, "inner", "n")


def test_missing_marker_not_leaking(qtbot: QtBot) -> None:
    w = make(qtbot, obj({"a": {"type": "array", "items": {"type": "integer"}}}, ["a"]))
    w.set_value({"a": [1]})
    editor = row(w, "a").editor
    editor.entries.add_button.click()
    assert MISSING not in w.value()["a"]
    assert w.value() == {"a": [1, None]}
    assert [e.path for e in w.errors()] == [("a", 1)]


@pytest.mark.parametrize("schema", [None, [], "x", {"type": "string"}, {"anyOf": []}, {"properties": 5}])
def test_strange_root_schemas_build(qtbot: QtBot, schema: Any) -> None:
    w = make(qtbot, schema)
    w.value()
    w.errors()


def test_wide_form_builds_first_rows_then_the_rest(qtbot: QtBot) -> None:
    from app.ui.forms.container_editors import FIRST_ROWS

    props = {f"f{i:02}": {"type": "string"} for i in range(60)}
    props["req"] = {"type": "integer", "default": 7}
    w = make(qtbot, obj(props, ["req"]))
    editor = w.root.editor
    assert len(editor.rows) == FIRST_ROWS  # the first screen only
    assert w.value() == {"req": 7}
    w.set_value({"f01": "a", "f59": "z", "req": 8})
    assert w.value() == {"f01": "a", "f59": "z", "req": 8}
    qtbot.waitUntil(lambda: len(editor.rows) == 61, timeout=5000)  # the rest arrive on later loop turns
    assert line(w, "f59").text() == "z"
    assert w.value() == {"f01": "a", "f59": "z", "req": 8}
    # Tab order includes the late rows, in form order.
    chain = [c for c in w.root.focus_chain() if isinstance(c, QLineEdit)]
    assert chain.index(line(w, "f58")) + 1 == chain.index(line(w, "f59"))


def test_error_in_a_row_not_built_yet_is_shown(qtbot: QtBot) -> None:
    props = {f"f{i:02}": {"type": "string"} for i in range(40)}
    w = make(qtbot, obj(props, ["f39"]))
    assert "f39" not in w.root.editor.rows
    w.show_errors()
    assert "f39" in w.root.editor.rows
    assert row(w, "f39")._error_label is not None


# The calendar pops up in a menu; the offscreen platform says it cannot raise it or grab the keyboard.
@pytest.mark.qt_log_ignore("propagateSizeHints", "does not support raise", "grabbing the keyboard")
def test_format_helpers_fill_the_field(qtbot: QtBot) -> None:
    import re
    import uuid

    from PySide6.QtCore import QDate
    from PySide6.QtWidgets import QCalendarWidget, QMenu

    w = make(
        qtbot,
        obj(
            {
                "day": {"type": "string", "format": "date"},
                "at": {"type": "string", "format": "date-time"},
                "id": {"type": "string", "format": "uuid"},
            }
        ),
    )
    day = row(w, "day").editor
    day.button.click()
    menu = day.findChild(QMenu)
    calendar = menu.findChild(QCalendarWidget)
    calendar.clicked.emit(QDate(2026, 12, 24))
    row(w, "at").editor.button.click()
    row(w, "id").editor.button.click()
    value = w.value()
    assert value["day"] == "2026-12-24"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", value["at"])
    assert uuid.UUID(value["id"])
    assert w.errors() == []
    row(w, "day").editor.line.setText("24/12/2026")
    assert [e.message for e in w.errors()] == ["Enter a date as YYYY-MM-DD."]


def test_default_null_is_not_shown_as_a_default(qtbot: QtBot) -> None:
    w = make(
        qtbot,
        obj(
            {
                "s": {"anyOf": [{"type": "string", "format": "date"}, {"type": "null"}], "default": None},
                "n": {"type": ["integer", "null"], "default": None},
                "e": {"anyOf": [{"enum": ["a", "b"]}, {"type": "null"}], "default": None},
            }
        ),
    )
    assert row(w, "s").editor.line.placeholderText() == "YYYY-MM-DD"
    assert "null" not in line(w, "n").placeholderText()
    assert row(w, "e").editor.itemText(0) == "Not set"
    assert w.value() == {}


def test_very_deep_values_end_in_a_json_editor(qtbot: QtBot) -> None:
    from app.ui.forms.row import MAX_NESTING

    w = make(qtbot, RECURSIVE)
    value: dict[str, Any] = {"name": "leaf"}
    for i in range(60):
        value = {"name": f"n{i}", "parent": value}
    w.set_value({"root": value})
    assert w.value() == {"root": value}
    deepest = row(w, "root")
    depth = 1
    deepest.ensure_built()
    while isinstance(deepest.editor, ObjectEditor) and depth < 100:
        deepest = row(w, "root", *["parent"] * depth)
        deepest.ensure_built()  # groups this deep start closed
        depth += 1
    assert depth <= MAX_NESTING + 1
    assert isinstance(deepest.editor, QPlainTextEdit)
