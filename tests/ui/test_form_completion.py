"""Issue 11, section 2: text fields offer suggestions as you type, through `FormWidget.set_completer(fn)`
(h11-results feeds it the server's `completion/complete` for prompt arguments).

Contract: `fn(field_name, typed) -> Awaitable[list[str]]`, awaited after a pause in typing (debounced),
never blocking the field; only the newest answer is shown; choosing one fills the field.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.ui.forms import FormWidget
from app.ui.forms.scalar_editors import TextEditor

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")

SCHEMA = {
    "type": "object",
    "properties": {
        "city": {"type": "string"},
        "key": {"type": "string", "format": "password"},
        "more": {"type": "object", "properties": {"street": {"type": "string"}}},
    },
    "required": ["city"],
}


class Answers:
    """A completer whose answers the test releases one by one, in any order."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []
        self.gates: list[asyncio.Event] = []
        self.tasks: list[asyncio.Task[Any]] = []

    def all_done(self) -> bool:
        return all(t.done() for t in self.tasks)

    async def __call__(self, field_name: str, typed: str) -> list[str]:
        self.calls.append((field_name, typed))
        task = asyncio.current_task()
        assert task is not None
        self.tasks.append(task)
        gate = asyncio.Event()
        self.gates.append(gate)
        await gate.wait()
        return [f"{typed}lin", f"{typed}gen", typed]


def editor(form: FormWidget, name: str) -> TextEditor:
    row = form.root.child_row(name)
    assert row is not None
    row.ensure_built()
    assert isinstance(row.editor, TextEditor)
    return row.editor


def make(qtbot: QtBot, answers: Any) -> FormWidget:
    form = FormWidget(SCHEMA)
    qtbot.addWidget(form)
    form.set_completer(answers)
    form.show()
    qtbot.waitExposed(form)
    return form


def test_typing_asks_once_per_pause_and_the_newest_answer_wins(qtbot: QtBot, aloop: Any) -> None:
    answers = Answers()
    form = make(qtbot, answers)
    city = editor(form, "city")
    city.setFocus()
    qtbot.keyClicks(city, "Be")  # two keys, one pause: one question
    qtbot.waitUntil(lambda: len(answers.calls) == 1, timeout=5000)
    assert answers.calls == [("city", "Be")]
    qtbot.keyClicks(city, "r")
    qtbot.waitUntil(lambda: len(answers.calls) == 2, timeout=5000)
    assert answers.calls[1] == ("city", "Ber")
    # The field never waited for the answers: it took every key.
    assert city.text() == "Ber"
    suggestions = city.suggestions
    assert suggestions is not None
    answers.gates[1].set()  # the newest answers first
    qtbot.waitUntil(lambda: suggestions.suggestions() == ["Berlin", "Bergen"], timeout=5000)
    answers.gates[0].set()  # then the older question's answer: dropped
    qtbot.waitUntil(answers.all_done, timeout=5000)
    assert suggestions.suggestions() == ["Berlin", "Bergen"]
    popup = suggestions.popup.popup()
    assert popup is not None and popup.isVisible()
    # Choosing a suggestion fills the field and counts as the person's edit.
    changed: list[bool] = []
    form.value_changed.connect(lambda: changed.append(True))
    qtbot.keyClick(popup, Qt.Key.Key_Down)  # the first suggestion, picked with the keyboard
    qtbot.keyClick(popup, Qt.Key.Key_Return)
    assert city.text() == "Berlin"
    assert form.value()["city"] == "Berlin"
    assert changed


def test_an_answer_for_text_that_changed_meanwhile_is_not_shown(qtbot: QtBot, aloop: Any) -> None:
    answers = Answers()
    form = make(qtbot, answers)
    city = editor(form, "city")
    city.setFocus()
    qtbot.keyClicks(city, "Pa")
    qtbot.waitUntil(lambda: len(answers.calls) == 1, timeout=5000)
    city.setText("Rome")  # changed by the program (History, a draft): no new question
    answers.gates[0].set()
    qtbot.waitUntil(answers.all_done, timeout=5000)
    assert city.suggestions is not None and city.suggestions.suggestions() == []
    assert len(answers.calls) == 1


def test_a_failing_completer_leaves_the_field_working(qtbot: QtBot, aloop: Any) -> None:
    calls: list[str] = []

    async def broken(field_name: str, typed: str) -> list[str]:
        calls.append(typed)
        raise RuntimeError("the server went away")

    form = make(qtbot, broken)
    city = editor(form, "city")
    city.setFocus()
    qtbot.keyClicks(city, "Os")
    qtbot.waitUntil(lambda: calls == ["Os"], timeout=5000)
    qtbot.keyClicks(city, "lo")
    qtbot.waitUntil(lambda: calls == ["Os", "Oslo"], timeout=5000)
    assert form.value() == {"city": "Oslo"}


def test_fields_built_later_ask_too_and_secrets_never_do(qtbot: QtBot, aloop: Any) -> None:
    answers = Answers()
    form = make(qtbot, answers)
    assert editor(form, "key").suggestions is None  # a key typed in is not sent anywhere before Run
    more = form.root.child_row("more")
    assert more is not None
    more.ensure_built()
    street = more.child_row("street")
    assert street is not None and isinstance(street.editor, TextEditor)
    street.editor.setFocus()
    qtbot.keyClicks(street.editor, "Ma")
    qtbot.waitUntil(lambda: answers.calls == [("street", "Ma")], timeout=5000)
    answers.gates[0].set()
    qtbot.waitUntil(
        lambda: (
            street.editor.suggestions is not None
            and street.editor.suggestions.suggestions() == ["Malin", "Magen"]
        ),
        timeout=5000,
    )


def test_no_completer_no_questions(qtbot: QtBot, aloop: Any) -> None:
    answers = Answers()
    form = make(qtbot, answers)
    form.set_completer(None)
    city = editor(form, "city")
    assert city.suggestions is None
    city.setFocus()
    qtbot.keyClicks(city, "Li", Qt.KeyboardModifier.NoModifier)
    assert city.suggestions is None  # nothing left that could ask
    assert form.value() == {"city": "Li"}
