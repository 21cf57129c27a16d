"""Elicitation: the requested schema as a form, and exactly the content to send back (or decline/cancel)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from PySide6.QtWidgets import QDialog, QLabel, QLineEdit
from pytestqt.qtbot import QtBot

from app.forms import ChoiceField, MultiChoiceField, NumberField, TextField
from app.forms.elicitation import ElicitationForm, ElicitationOutcome, InvalidAnswer
from app.ui.forms import ElicitationDialog

# Showing a top-level window offscreen makes Qt say this platform cannot propagate size hints.
pytestmark = pytest.mark.qt_log_ignore("propagateSizeHints")

REQUESTED: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "title": "Your name", "minLength": 1},
        "email": {"type": "string", "format": "email"},
        "birthday": {"type": "string", "format": "date"},
        "site": {"type": "string", "format": "uri"},
        "age": {"type": "integer", "minimum": 0, "maximum": 150},
        "score": {"type": "number", "default": 0.5},
        "subscribe": {"type": "boolean", "default": True},
        "color": {"type": "string", "enum": ["red", "green"], "enumNames": ["Red", "Green"]},
        "size": {
            "type": "string",
            "oneOf": [{"const": "s", "title": "Small"}, {"const": "l", "title": "Large"}],
        },
        "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b", "c"]}, "maxItems": 2},
    },
    "required": ["name", "subscribe"],
}


def test_requested_schema_uses_the_same_fields() -> None:
    model = ElicitationForm(REQUESTED, "Tell us")
    root = model.form.root
    kinds = {f.name: (type(f), f.kind) for f in root.properties}  # type: ignore[attr-defined]
    assert kinds["email"] == (TextField, "email")
    assert kinds["birthday"] == (TextField, "date")
    assert kinds["age"] == (NumberField, "integer")
    assert kinds["color"][0] is ChoiceField and kinds["size"][0] is ChoiceField
    assert kinds["tags"][0] is MultiChoiceField
    assert model.default_value() == {"subscribe": True}


def test_accept_sends_exactly_the_content() -> None:
    model = ElicitationForm(REQUESTED)
    content = {"name": "Ann", "subscribe": False, "tags": ["a"], "age": 30}
    assert model.accept(content) == ElicitationOutcome("accept", content)
    with pytest.raises(InvalidAnswer) as raised:
        model.accept({"subscribe": True})
    assert [e.path for e in raised.value.errors] == [("name",)]
    assert model.decline() == ElicitationOutcome("decline", None)
    assert model.cancel() == ElicitationOutcome("cancel", None)
    assert ElicitationForm({"properties": {"a": {"type": "string"}}}).schema["type"] == "object"


def dialog(qtbot: QtBot) -> ElicitationDialog:
    d = ElicitationDialog("Please <b>confirm</b> <a href='x'>here</a>", REQUESTED)
    qtbot.addWidget(d)
    return d


def test_dialog_accept_with_exact_content(qtbot: QtBot) -> None:
    d = dialog(qtbot)
    assert d.message.text() == "Please <b>confirm</b> <a href='x'>here</a>"
    answers: list[ElicitationOutcome] = []
    d.answered.connect(answers.append)
    d.open()
    name = d.form.root.child_row("name").editor  # type: ignore[union-attr]
    assert isinstance(name, QLineEdit)
    qtbot.keyClicks(name, "Ann")
    d.accept_button.click()
    assert answers == [ElicitationOutcome("accept", {"name": "Ann", "subscribe": True})]
    assert d.result() == QDialog.DialogCode.Accepted
    assert d.response() == answers[0]


def test_dialog_will_not_send_invalid_content(qtbot: QtBot) -> None:
    d = dialog(qtbot)
    answers: list[ElicitationOutcome] = []
    d.answered.connect(answers.append)
    d.open()
    d.accept_button.click()
    assert answers == []
    assert d.isVisible()
    shown = [
        lab.text() for lab in d.findChildren(QLabel) if lab.objectName() == "formError" and lab.isVisibleTo(d)
    ]
    assert shown == ["This field is required."]


@pytest.mark.parametrize(
    ("how", "action"), [("decline", "decline"), ("cancel", "cancel"), ("close", "cancel")]
)
def test_dialog_decline_and_cancel(qtbot: QtBot, how: str, action: str) -> None:
    d = dialog(qtbot)
    answers: list[ElicitationOutcome] = []
    d.answered.connect(answers.append)
    d.open()
    if how == "decline":
        d.decline_button.click()
    elif how == "cancel":
        d.cancel_button.click()
    else:
        d.close()
    assert answers == [ElicitationOutcome(action)]  # type: ignore[arg-type]
    assert not d.isVisible()


def test_dialog_answer_can_be_awaited(qtbot: QtBot) -> None:
    d = dialog(qtbot)

    async def ask() -> ElicitationOutcome:
        d.open()
        future = d.future()
        loop = asyncio.get_running_loop()
        loop.call_soon(d.set_value, {"name": "Bo", "subscribe": False, "color": "green"})
        loop.call_soon(d.accept_button.click)
        return await asyncio.wait_for(future, timeout=5)

    outcome = asyncio.run(ask())
    assert outcome == ElicitationOutcome("accept", {"name": "Bo", "subscribe": False, "color": "green"})
