"""Every tool of every real server in the schema corpus gets a form (2,266 tools from 71 servers)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.forms import Field, ObjectField, VariantField, build_form, json_equal
from app.ui.forms import FormWidget
from tests.conftest import skip_or_fail
from tests.support.corpus import SCHEMAS_DIR

SCHEMAS = SCHEMAS_DIR
FILES = sorted(SCHEMAS.glob("*.json")) if SCHEMAS.is_dir() else []


def tools_of(path: Path) -> list[dict[str, Any]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return [t for t in data.get("tools") or [] if isinstance(t, dict)]


def corpus_file(request: pytest.FixtureRequest) -> Path:
    if not FILES:
        skip_or_fail(f"schema corpus not found at {SCHEMAS}")
    path: Path = request.param
    return path


def missing_required(
    field: Field, value: Any, path: tuple[str | int, ...] = (), *, into_variants: bool = True
) -> set[tuple[str | int, ...]]:
    """Paths of required fields without a default (or fixed value) in `value`, the untouched form's value.

    Inside alternatives (`anyOf`) another alternative may accept the value, so those are "may be missing".
    """
    if isinstance(field, VariantField):
        return missing_required(field.option(0), value, path) if into_variants else set()
    if not (isinstance(field, ObjectField) and isinstance(value, dict)):
        return set()
    out: set[tuple[str | int, ...]] = set()
    for prop in field.properties:
        name = prop.name or ""
        if name in value:
            out |= missing_required(prop, value[name], (*path, name), into_variants=into_variants)
        elif prop.required:
            out.add((*path, name))
    return out


@pytest.fixture(params=FILES or [None], ids=[p.stem for p in FILES] or ["missing"])
def server_file(request: pytest.FixtureRequest) -> Path:
    return corpus_file(request)


def test_corpus_is_there() -> None:
    if not FILES:
        skip_or_fail(f"schema corpus not found at {SCHEMAS}")
    assert sum(len(tools_of(p)) for p in FILES) >= 2266


def test_every_tool_gets_a_form_and_sensible_defaults(server_file: Path) -> None:
    for tool in tools_of(server_file):
        form = build_form(tool.get("inputSchema"))
        default = form.default_value()
        errors = form.validate(default)
        # The untouched form either validates, or the only problems are required fields without a default.
        assert {e.keyword for e in errors} <= {"required"}, (tool["name"], errors)
        paths = {e.path for e in errors}
        surely = missing_required(form.root, default, into_variants=False)
        assert surely <= paths <= missing_required(form.root, default), tool["name"]


def test_every_tool_gets_a_widget(qtbot: QtBot, server_file: Path) -> None:
    # pytest-qt fails the test on any Qt warning printed while these are built.
    for tool in tools_of(server_file):
        form = build_form(tool.get("inputSchema"))
        widget = FormWidget(tool.get("inputSchema"), form=form)
        widget.finish_building()  # the rows a wide form would build on later event-loop turns, too
        assert json_equal(widget.value(), form.default_value()), tool["name"]
        widget.deleteLater()
    # Delete them now (deleteLater alone waits for an event loop that a test does not run).
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
