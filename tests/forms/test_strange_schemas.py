"""Whatever a server sends as a schema, building the form and its widget never raises."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pytestqt.qtbot import QtBot

from app.forms import build_form, json_equal
from app.ui.forms import FormWidget

KEYWORDS = [
    "type",
    "properties",
    "items",
    "required",
    "enum",
    "const",
    "anyOf",
    "oneOf",
    "allOf",
    "not",
    "$ref",
    "$defs",
    "definitions",
    "additionalProperties",
    "default",
    "format",
    "minimum",
    "maximum",
    "multipleOf",
    "minItems",
    "maxItems",
    "title",
    "description",
    "examples",
    "if",
    "then",
    "nullable",
    "x-any",
]
TYPES = st.sampled_from(["string", "number", "integer", "boolean", "object", "array", "null", "bogus"])
REFS = st.sampled_from(["#", "#/$defs/a", "#/definitions/b", "#/properties/x", "#/nowhere", "http://x/y"])
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False),
    st.text(max_size=8),
    TYPES,
    REFS,
)


def schema_like() -> st.SearchStrategy[Any]:
    return st.recursive(
        SCALARS,
        lambda inner: st.one_of(
            st.lists(inner, max_size=3),
            st.dictionaries(st.sampled_from(KEYWORDS), inner, max_size=5),
            st.dictionaries(st.sampled_from(["x", "y", "a", "b"]), inner, max_size=3),
        ),
        max_leaves=25,
    )


@settings(
    max_examples=150, deadline=None, database=None, derandomize=True, suppress_health_check=list(HealthCheck)
)
@given(schema_like(), st.dictionaries(st.sampled_from(["x", "y", "a"]), SCALARS, max_size=3))
def test_strange_schemas_never_raise(schema: Any, value: dict[str, Any]) -> None:
    form = build_form(schema)
    form.default_value()
    form.validate(value)
    form.validate(form.default_value())


def test_strange_schemas_build_widgets(qtbot: QtBot) -> None:
    @settings(
        max_examples=80,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    @given(schema_like(), st.dictionaries(st.sampled_from(["x", "y", "a"]), SCALARS, max_size=3))
    def check(schema: Any, value: dict[str, Any]) -> None:
        widget = FormWidget(schema)
        try:
            widget.finish_building()
            widget.value()
            widget.errors()
            widget.set_value(value)
            assert json_equal(widget.value(), value)
            widget.show_errors()
        finally:
            widget.deleteLater()

    check()
