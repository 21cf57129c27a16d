"""Issue 11, section 4: the form in Simplified Chinese (and English plurals): every word the form itself
shows comes from the translations; the server's own words (titles, descriptions) are left as they are.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QTranslator
from PySide6.QtWidgets import QAbstractButton, QComboBox, QLabel
from pytestqt.qtbot import QtBot

from app.forms import FieldError
from app.ui.forms import FormWidget
from app.ui.forms.messages import error_text

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")

QM = Path(__file__).resolve().parents[2] / "resources" / "i18n"


def translator(lang: str) -> Iterator[None]:
    from tests.support.languages import ensure_built

    ensure_built()  # a .ts edited since the last build (run-tests.sh builds them too)
    path = QM / f"mcp-desk_{lang}.qm"
    if not path.exists():
        pytest.fail(f"{path} missing: run packaging/translations.py release (run-tests.sh does)")
    loaded = QTranslator()
    assert loaded.load(str(path))
    QCoreApplication.installTranslator(loaded)
    try:
        yield
    finally:
        QCoreApplication.removeTranslator(loaded)


@pytest.fixture
def zh_cn() -> Iterator[None]:
    yield from translator("zh_CN")


@pytest.fixture
def english() -> Iterator[None]:
    yield from translator("en")


SCHEMA = {
    "type": "object",
    "properties": {
        "city": {"type": "string", "title": "City"},
        "note": {"type": ["string", "null"], "title": "Note"},
        "level": {"enum": ["low", "high"]},
        "tags": {"type": "array", "items": {"type": "string"}, "minItems": 2},
        "extra": {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": True},
    },
    "required": ["city", "tags"],
}


def visible_words(form: FormWidget) -> set[str]:
    words = {label.text() for label in form.findChildren(QLabel) if label.isVisibleTo(form)}
    words |= {button.text() for button in form.findChildren(QAbstractButton) if button.isVisibleTo(form)}
    for combo in form.findChildren(QComboBox):
        words |= {combo.itemText(i) for i in range(combo.count())}
    return words


def test_the_form_speaks_simplified_chinese(qtbot: QtBot, zh_cn: None) -> None:
    form = FormWidget(SCHEMA)
    qtbot.addWidget(form)
    extra = form.root.child_row("extra")
    assert extra is not None
    extra.ensure_built()
    form.show()
    form.set_value({"tags": ["x"]})
    form.show_errors()
    words = visible_words(form)
    assert "未设置" in words  # "Not set"
    assert "添加一项" in words and "删除" not in words  # "Add item"; ✕ buttons say it in tooltips
    assert "更多条目" in words and "添加条目" in words  # "More entries", "Add an entry"
    assert any("此项为必填项" in w for w in words)  # "This field is required."
    assert any("请至少添加 2 项" in w for w in words), words  # a plural, in Chinese
    assert "City *" in words  # the server's title stays the server's
    empty = FormWidget({"type": "object"})
    qtbot.addWidget(empty)
    assert "此工具无需填写任何内容。" in visible_words(empty) | {
        label.text() for label in empty.findChildren(QLabel)
    }


def test_english_plurals(english: None) -> None:
    one = FieldError(("s",), "Enter at least 1 character(s).", "minLength", 1)
    two = FieldError(("s",), "Enter at least 2 character(s).", "minLength", 2)
    assert error_text(one) == "Enter at least 1 character."
    assert error_text(two) == "Enter at least 2 characters."


def test_messages_in_english_say_what_the_model_says() -> None:
    from app.forms import build_form

    form = build_form(
        {
            "type": "object",
            "properties": {
                "n": {"type": "integer", "minimum": 3},
                "d": {"type": "string", "format": "date-time"},
                "k": {"type": ["string", "integer"]},
            },
            "required": ["n", "z"],
        }
    )
    errors = form.validate({"n": 1, "d": "soon", "k": 1.5})
    shown = {e.path: error_text(e) for e in errors}
    assert shown[("n",)] == "Must be at least 3."
    assert shown[("z",)] == "This field is required."
    assert shown[("k",)] == "Must be text or a whole number."
    assert "date-time" not in shown.get(("d",), "")


VARIANTS = {
    "type": "object",
    "properties": {
        "x": {
            "anyOf": [
                {"type": "string", "format": "date-time"},
                {"type": "array", "items": {"type": "integer"}},
                {"type": "object", "properties": {"page_id": {"type": "string"}}, "required": ["page_id"]},
                {"title": "Their own words", "type": "boolean"},
            ]
        }
    },
    "required": ["x"],
}


def picker_items(qtbot: QtBot) -> list[str]:
    from app.ui.forms.container_editors import VariantEditor

    form = FormWidget(VARIANTS)
    qtbot.addWidget(form)
    row = form.root.child_row("x")
    assert row is not None
    row.ensure_built()
    (editor,) = form.findChildren(VariantEditor)
    return [editor.picker.itemText(i) for i in range(editor.picker.count())]


def test_made_up_titles_of_alternatives_are_words_for_people(qtbot: QtBot) -> None:
    assert picker_items(qtbot) == [
        "Text (date and time)",
        "List of whole numbers",
        "With page id",
        "Their own words",
    ]


def test_made_up_titles_of_alternatives_in_chinese(qtbot: QtBot, zh_cn: None) -> None:
    assert picker_items(qtbot) == ["文字（日期和时间）", "整数列表", "包含 page id", "Their own words"]
