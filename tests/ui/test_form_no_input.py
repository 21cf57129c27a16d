"""Issue 11, item 7: a tool that takes no input says so, instead of "Other properties [Add entry]".

Rule (app/forms/registry.py `_object`): the arguments get a key/value editor only when the schema names
properties and invites more (`additionalProperties: true` or a schema), or when the extra keys have a
schema of their own (a typed map). `{"properties": {}}`, an absent `properties` and
`{"properties": {}, "additionalProperties": true}` (what SDKs write for "no arguments") need no input.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from PySide6.QtWidgets import QLabel, QPushButton
from pytestqt.qtbot import QtBot

from app.ui.forms import FormWidget
from tests.support.corpus import SCHEMAS_DIR

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")

NO_INPUT = "This tool needs no input."


def empty_tools() -> list[tuple[str, str, Any]]:
    out = []
    for path in sorted(SCHEMAS_DIR.glob("*.json")):
        for tool in json.loads(path.read_text(encoding="utf-8")).get("tools") or []:
            schema = tool.get("inputSchema")
            if isinstance(schema, dict) and not schema.get("properties"):
                out.append((path.stem, tool["name"], schema))
    return out


EMPTY = empty_tools()


def texts(form: FormWidget) -> list[str]:
    return [label.text() for label in form.findChildren(QLabel) if not label.isHidden() and label.text()]


def add_buttons(form: FormWidget) -> list[QPushButton]:
    return [b for b in form.findChildren(QPushButton) if b.text() == "Add an entry"]


def test_the_corpus_has_tools_without_input() -> None:
    names = {(server, tool) for server, tool, _s in EMPTY}
    assert ("mcp-server-everything", "trigger-elicitation-request") in names  # no additionalProperties
    assert ("airflow-mcp", "list_dags") in names  # additionalProperties: false
    assert len(EMPTY) > 100


def test_every_real_tool_without_properties_says_it_needs_no_input(qtbot: QtBot) -> None:
    for server, tool, schema in EMPTY:
        form = FormWidget(schema)
        qtbot.addWidget(form)
        form.show()
        assert NO_INPUT in texts(form), (server, tool)
        assert not add_buttons(form), (server, tool)
        assert "Other properties" not in texts(form), (server, tool)
        assert form.value() == {} and form.errors() == [], (server, tool)
        form.close()
        form.deleteLater()


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "object"},
        {"type": "object", "properties": {}, "additionalProperties": True},
        {"type": "object", "properties": {}, "additionalProperties": {}},
    ],
    ids=["no-properties", "open-object", "open-empty-schema"],
)
def test_schemas_that_ask_for_nothing(qtbot: QtBot, schema: Any) -> None:
    form = FormWidget(schema)
    qtbot.addWidget(form)
    form.show()
    assert NO_INPUT in texts(form)
    assert not add_buttons(form)
    assert form.value() == {}


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "object", "additionalProperties": {"type": "string"}},
        {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": True},
    ],
    ids=["typed-map", "named-and-open"],
)
def test_schemas_that_invite_extra_keys_keep_the_editor(qtbot: QtBot, schema: Any) -> None:
    form = FormWidget(schema)
    qtbot.addWidget(form)
    form.show()
    assert NO_INPUT not in texts(form)
    assert add_buttons(form)


def test_extra_keys_in_a_value_are_still_shown_and_kept(qtbot: QtBot) -> None:
    form = FormWidget({"type": "object", "properties": {}})
    qtbot.addWidget(form)
    form.set_value({"debug": True})  # a run from History, or typed in the JSON view
    assert form.value() == {"debug": True}
    assert add_buttons(form)


def test_a_nested_free_form_object_keeps_its_key_value_editor(qtbot: QtBot) -> None:
    form = FormWidget(
        {"type": "object", "properties": {"metadata": {"type": "object"}}, "required": ["metadata"]}
    )
    qtbot.addWidget(form)
    assert add_buttons(form)
    assert NO_INPUT not in texts(form)
