"""Prompt arguments and resource-template fields offer the server's completions as you type."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from PySide6.QtWidgets import QLineEdit

from tests.ui.conftest import connect

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")


def type_into(qtbot: Any, edit: QLineEdit, text: str) -> None:
    edit.setFocus()
    qtbot.keyClicks(edit, text)


def test_template_field_and_prompt_argument_complete_from_the_demo(qtbot: Any, desk: Any) -> None:
    connect(qtbot, desk)
    assert desk.catalog.select("resource_templates", "demo", "demo://notes/{name}")
    panel = desk.resource_panel
    completer = panel.completers["name"]
    with qtbot.waitSignal(completer.shown, timeout=10000) as got:
        type_into(qtbot, panel.fields["name"], "w")
    assert got.args[0] == ["welcome"]  # the demo's notes that start with "w"
    assert completer.popup.popup().isVisible()

    assert desk.catalog.select("prompts", "demo", "write_email")
    prompt = desk.prompt_panel
    tone = prompt.completers["tone"]
    with qtbot.waitSignal(tone.shown, timeout=10000) as got:
        type_into(qtbot, prompt.fields["tone"][0], "f")
    assert got.args[0] == ["friendly", "formal"]


def test_only_the_newest_answer_is_shown(qtbot: Any, aloop: Any) -> None:
    """An answer to what was typed before (slow to come) never replaces the newer one."""
    from app.ui.completion import ServerCompleter

    edit = QLineEdit()
    qtbot.addWidget(edit)
    edit.show()
    gates: dict[str, asyncio.Event] = {}
    asked: list[str] = []

    async def fetch(typed: str) -> list[str]:
        asked.append(typed)
        gate = gates.setdefault(typed, asyncio.Event())
        await gate.wait()
        return [typed + "-answer"]

    completer = ServerCompleter(edit, fetch)
    completer.timer.setInterval(1)
    seen: list[list[str]] = []
    completer.shown.connect(seen.append)
    type_into(qtbot, edit, "a")
    qtbot.waitUntil(lambda: asked == ["a"], timeout=5000)
    first = completer._task
    assert first is not None
    type_into(qtbot, edit, "b")  # "ab" now; the answer for "a" is still on its way
    qtbot.waitUntil(lambda: asked == ["a", "ab"], timeout=5000)
    gates["ab"].set()
    qtbot.waitUntil(lambda: seen == [["ab-answer"]], timeout=5000)
    gates["a"].set()  # too late: dropped (its task was cancelled, or its answer is stale)
    qtbot.waitUntil(first.done, timeout=5000)
    assert seen == [["ab-answer"]] and completer.suggestions() == ["ab-answer"]


def test_no_connection_gives_no_suggestions(qtbot: Any, aloop: Any) -> None:
    from app.ui.resource_panel import ResourcePanel

    panel = ResourcePanel()
    qtbot.addWidget(panel)
    panel.show()
    panel.connection_of = lambda server: None  # the server is not connected (any more)
    tpl = type("Tpl", (), {"uri_template": "demo://x/{id}", "title": "X", "name": "x", "description": ""})
    panel.show_template("demo", tpl())
    c = panel.completers["id"]
    c.timer.setInterval(1)
    with qtbot.waitSignal(c.shown, timeout=5000) as got:
        type_into(qtbot, panel.fields["id"], "1")
    assert got.args[0] == [] and panel.fields["id"].text() == "1"  # typing goes on
