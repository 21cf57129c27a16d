"""Validators built from a server's schema never fetch a `$ref` and never let a pattern hang.

Every validator of the app (tool forms, the widget's error check, elicitation, output schemas)
is checked against a local listener that counts requests: it must stay at zero. Patterns that
backtrack without end must come back as an error at their field, not freeze the caller.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from app.forms import build_form
from app.forms.elicitation import ElicitationForm
from app.forms.fields import JsonField
from app.forms.validation import (
    PATTERN_TOO_SLOW,
    PATTERN_TOO_SLOW_MESSAGE,
    forget_pattern_results,
    make_validator,
)
from app.mcp.results import check_structured, compile_validator

# Exponential in `regex` too (the issue's `^(a+)+$` is not: `regex` answers it at once).
RUNAWAY = "^(a|a)*$"
RUNAWAY_TEXT = "a" * 34 + "!"
STRING_ONLY = {"type": "string"}
"""What the outside definitions say: a value of 1 would fail them if they were ever read."""


@pytest.fixture
def listener() -> Iterator[tuple[str, list[str]]]:
    """A schema server on 127.0.0.1 that records every request it gets."""
    hits: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            hits.append(self.path)
            body = json.dumps(STRING_ONLY).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", hits
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def remote_schemas(base: str, tmp_path: Path) -> list[dict[str, Any]]:
    outside = tmp_path / "outside.json"
    outside.write_text(json.dumps(STRING_ONLY), encoding="utf-8")
    return [
        {"type": "object", "properties": {"x": {"$ref": f"{base}/defs.json"}}},
        {"type": "object", "properties": {"x": {"$ref": f"{base}/defs.json#/$defs/a"}}},
        {"type": "object", "properties": {"x": {"$ref": outside.as_uri()}}},
        # Relative to the schema's own base: another server address, a file next to it.
        {"$id": f"{base}/root.json", "type": "object", "properties": {"x": {"$ref": "other.json"}}},
        {
            "$id": (tmp_path / "root.json").as_uri(),
            "type": "object",
            "properties": {"x": {"$ref": "outside.json"}},
        },
        {"type": "object", "properties": {"x": {"$ref": "outside.json"}}},
        {"type": "object", "properties": {"x": {"$dynamicRef": f"{base}/dyn.json"}}},
    ]


def test_forms_never_fetch_a_ref(listener: tuple[str, list[str]], tmp_path: Path) -> None:
    base, hits = listener
    for schema in remote_schemas(base, tmp_path):
        form = build_form(schema)
        field = form.root.property_field("x")  # type: ignore[attr-defined]
        if "$ref" in schema["properties"]["x"]:
            assert isinstance(field, JsonField), schema
            assert "refers to an outside definition that is not fetched" in field.reason
        form.default_value()
        # The outside part is left to the server; the rest of the form is still checked.
        assert form.validate({"x": 1}) == [], schema
        assert [e.keyword for e in form.validate([])] == ["type"]
        assert form.validate_at(schema["properties"]["x"], 1) in (True, None)
    assert hits == []


def test_elicitation_and_output_schemas_never_fetch_a_ref(
    listener: tuple[str, list[str]], tmp_path: Path
) -> None:
    base, hits = listener
    for schema in remote_schemas(base, tmp_path):
        assert ElicitationForm(schema, "?").errors({"x": 1}) == []
        assert check_structured(compile_validator(schema), {"x": 1}) is None
        assert list(make_validator(schema).iter_errors({"x": 1})) == []
    assert hits == []


def test_widget_error_check_never_fetches_a_ref(
    qtbot: QtBot, listener: tuple[str, list[str]], tmp_path: Path
) -> None:
    from app.ui.forms import FormWidget

    base, hits = listener
    for schema in remote_schemas(base, tmp_path):
        widget = FormWidget(schema)
        qtbot.addWidget(widget)
        widget.set_value({"x": 1})
        assert widget.errors() == []
        widget.show_errors()
    assert hits == []


# --- patterns ---------------------------------------------------------------------------------------


def pattern_form(pattern: str) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"code": {"type": "string", "pattern": pattern}, "n": {"type": "integer"}},
    }


def test_runaway_pattern_is_reported_at_its_field() -> None:
    form = build_form(pattern_form(RUNAWAY))
    errors = form.validate({"code": RUNAWAY_TEXT, "n": "x"})
    assert [(e.path, e.keyword) for e in errors] == [(("code",), PATTERN_TOO_SLOW), (("n",), "type")]
    assert errors[0].message == PATTERN_TOO_SLOW_MESSAGE
    # Asked again (each change, then Run): the same answer.
    assert [e.path for e in form.validate({"code": RUNAWAY_TEXT})] == [("code",)]


def test_many_runaway_patterns_are_each_reported_at_their_field(monkeypatch: pytest.MonkeyPatch) -> None:
    """One validation shares one time budget: the fields past it are reported without being tried."""
    import regex

    from app.forms import validation

    tried: list[str] = []

    def search(pattern: str, text: str, *args: Any, **kw: Any) -> Any:
        tried.append(text)
        return regex.search(pattern, text, *args, **kw)

    monkeypatch.setattr(validation, "regex", type("R", (), {"search": staticmethod(search)}))
    forget_pattern_results()
    names = [f"f{i}" for i in range(8)]
    schema = {"type": "object", "properties": {n: {"type": "string", "pattern": RUNAWAY} for n in names}}
    value = {n: RUNAWAY_TEXT + n for n in names}  # different texts: nothing is remembered across fields
    errors = build_form(schema).validate(value)
    assert sorted((e.path, e.keyword) for e in errors) == [((n,), PATTERN_TOO_SLOW) for n in names]
    # Each try runs out its own limit (half the budget) at least: two at most fit in one budget.
    assert 1 <= len(tried) <= validation.VALIDATION_BUDGET / validation.PATTERN_TIMEOUT


def test_the_issues_pattern_gets_a_real_answer() -> None:
    form = build_form(pattern_form("^(a+)+$"))
    assert [(e.path, e.keyword) for e in form.validate({"code": "a" * 34 + "!"})] == [(("code",), "pattern")]
    assert form.validate({"code": "a" * 34}) == []


def test_property_name_patterns_are_bounded_too() -> None:
    """patternProperties, additionalProperties and unevaluatedProperties match names against the
    patterns (the last two inside jsonschema's own helpers: this is the canary for that)."""
    for extra in ({}, {"additionalProperties": False}, {"unevaluatedProperties": False}):
        schema = {"type": "object", "patternProperties": {RUNAWAY: {"type": "integer"}}, **extra}
        errors = build_form(schema).validate({RUNAWAY_TEXT: 1})
        assert PATTERN_TOO_SLOW in {e.keyword for e in errors}, extra
        assert all(e.path == () for e in errors)


def test_runaway_pattern_in_widget_elicitation_and_output(qtbot: QtBot) -> None:
    from app.ui.forms import FormWidget

    schema = pattern_form(RUNAWAY)
    widget = FormWidget(schema)
    qtbot.addWidget(widget)
    widget.set_value({"code": RUNAWAY_TEXT})
    assert [(e.path, e.message) for e in widget.errors()] == [(("code",), PATTERN_TOO_SLOW_MESSAGE)]
    widget.show_errors()

    assert [e.path for e in ElicitationForm(schema).errors({"code": RUNAWAY_TEXT})] == [("code",)]
    text = check_structured(compile_validator(schema), {"code": RUNAWAY_TEXT})
    assert text is not None and text.startswith("code: ") and "took too long" in text


def test_ordinary_patterns_still_work() -> None:
    form = build_form(pattern_form(r"^[A-Z]{2}-\d{3}$"))
    assert form.validate({"code": "AB-123"}) == []
    assert [e.keyword for e in form.validate({"code": "ab-123"})] == ["pattern"]
    bad = build_form({"type": "object", "properties": {"a": {"type": "string", "pattern": "("}}})
    assert isinstance(bad.validate({"a": "z"}), list)
