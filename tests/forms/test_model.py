"""The form model, one test (or a few) per bullet of issue 4 §1: schema in, fields/defaults/errors out."""

from __future__ import annotations

import time
from typing import Any

import pytest

from app.forms import (
    MISSING,
    ArrayField,
    BooleanField,
    ChoiceField,
    ConstField,
    JsonField,
    MultiChoiceField,
    NumberField,
    ObjectField,
    TextField,
    VariantField,
    build_form,
)
from app.forms.fields import Field
from app.forms.masking import SECRET_MASK, mask_secrets, unmask_secrets
from app.forms.registry import KIND_TABLE, VARIANT_RULES, classify

DRAFT7 = "http://json-schema.org/draft-07/schema#"
D2020 = "https://json-schema.org/draft/2020-12/schema"


def obj(props: dict[str, Any], required: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": required or [], **extra}


def prop(schema: dict[str, Any], name: str = "x", **kw: Any) -> Field:
    form = build_form(obj({name: schema}, **kw))
    assert isinstance(form.root, ObjectField)
    field = form.root.property_field(name)
    assert field is not None
    return field


# --- registry ---


def test_kind_comes_from_tables_not_code() -> None:
    assert classify({"type": "string", "format": "date"}) == ("date", "")
    KIND_TABLE[("string", "format:color")] = "text"
    try:
        assert classify({"type": "string", "format": "color"}) == ("text", "")
    finally:
        del KIND_TABLE[("string", "format:color")]
    assert [name for name, _ in VARIANT_RULES][:3] == ["const", "single", "enum"]


# --- strings ---


@pytest.mark.parametrize(
    ("schema", "name", "kind"),
    [
        ({"type": "string"}, "city", "text"),
        ({"type": "string", "maxLength": 5000}, "x", "multiline"),
        ({"type": "string"}, "body", "multiline"),
        ({"type": "string"}, "sql_query", "multiline"),
        ({"type": "string", "maxLength": 20}, "body", "text"),
        ({"type": "string", "format": "date"}, "x", "date"),
        ({"type": "string", "format": "date-time"}, "x", "datetime"),
        ({"type": "string", "format": "time"}, "x", "time"),
        ({"type": "string", "format": "email"}, "x", "email"),
        ({"type": "string", "format": "uri"}, "x", "uri"),
        ({"type": "string", "format": "uuid"}, "x", "uuid"),
        ({"type": "string", "format": "int32"}, "x", "text"),
        ({"type": "string", "writeOnly": True}, "x", "secret"),
        ({"type": "string", "format": "password"}, "x", "secret"),
        ({"type": "string"}, "password", "secret"),
        ({"type": "string"}, "api_key", "secret"),
        ({"type": "string"}, "githubToken", "secret"),
        ({"type": "string"}, "client_secret", "secret"),
        ({"type": "string"}, "page_token_count", "text"),
    ],
)
def test_string_kinds(schema: dict[str, Any], name: str, kind: str) -> None:
    field = prop(schema, name)
    assert isinstance(field, TextField)
    assert field.kind == kind
    assert field.secret == (kind == "secret")


def test_string_constraints_and_annotations() -> None:
    field = prop(
        {
            "type": "string",
            "minLength": 2,
            "maxLength": 9,
            "pattern": "^a",
            "title": "City name",
            "description": "Where <b>you</b> live",
            "examples": ["Paris"],
            "default": "Lyon",
        },
        "city",
        required=["city"],
    )
    assert isinstance(field, TextField)
    assert (field.min_length, field.max_length, field.pattern) == (2, 9, "^a")
    assert field.label == "City name"
    assert field.help == "Where <b>you</b> live"
    assert field.placeholder == "Paris"
    assert field.default == "Lyon"
    assert field.required


def test_label_humanised_from_name() -> None:
    assert prop({"type": "string"}, "maxResults").label == "Max results"
    assert prop({"type": "string"}, "max_results").label == "Max results"
    assert prop({"type": "string"}, "repoURL").label == "Repo URL"


# --- numbers ---


def test_number_bounds_step_and_exclusive() -> None:
    field = prop({"type": "number", "minimum": 1, "maximum": 10, "multipleOf": 0.5})
    assert isinstance(field, NumberField) and not field.integer
    assert (field.minimum, field.maximum, field.step) == (1, 10, 0.5)
    assert field.stepped(2, 1) == 2.5
    assert field.stepped(10, 1) == 10
    ex = prop({"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 5})
    assert isinstance(ex, NumberField) and ex.integer
    assert (ex.exclusive_minimum, ex.exclusive_maximum) == (0, 5)
    old = prop({"type": "integer", "minimum": 0, "exclusiveMinimum": True})  # draft-04 spelling
    assert isinstance(old, NumberField) and old.exclusive_minimum == 0 and old.minimum is None


def test_big_integers_stay_exact() -> None:
    field = prop({"type": "integer"})
    assert isinstance(field, NumberField)
    assert field.parse(str(2**63)) == 2**63
    assert field.parse(str(2**53 + 1)) == 2**53 + 1
    assert NumberField.format_value(2**63) == "9223372036854775808"
    with pytest.raises(ValueError):
        field.parse("1.5")
    form = build_form(obj({"n": {"type": "integer", "maximum": 2**63}}))
    assert form.validate({"n": 2**63}) == []
    assert [e.keyword for e in form.validate({"n": 2**63 + 1})] == ["maximum"]


def test_empty_optional_number_is_not_sent() -> None:
    form = build_form(obj({"n": {"type": "number"}, "m": {"type": "integer", "default": 3}}))
    assert form.default_value() == {}


# --- boolean, enum, const ---


def test_boolean() -> None:
    assert isinstance(prop({"type": "boolean"}), BooleanField)
    form = build_form(obj({"b": {"type": "boolean", "default": False}}, ["b"]))
    assert form.default_value() == {"b": False}


def test_enum_of_any_json_type_with_null() -> None:
    field = prop({"enum": ["a", 1, 2.5, True, None, {"k": 1}, [1]]})
    assert isinstance(field, ChoiceField)
    assert [c.value for c in field.choices] == ["a", 1, 2.5, True, None, {"k": 1}, [1]]
    assert field.index_of(None) == 4
    assert field.index_of(1) == 1 and field.index_of(True) == 3  # 1 and True are different choices
    typed = prop({"type": ["string", "null"], "enum": ["jira", None]})
    assert isinstance(typed, ChoiceField) and not typed.nullable
    assert [c.value for c in typed.choices] == ["jira", None]


def test_const_and_single_value_enum() -> None:
    form = build_form(
        obj({"kind": {"const": "page"}, "other": {"enum": ["only"]}, "opt": {"const": 1}}, ["kind", "other"])
    )
    assert isinstance(form.root, ObjectField)
    assert isinstance(form.root.property_field("kind"), ConstField)
    assert form.default_value() == {"kind": "page", "other": "only"}


def test_titled_choices() -> None:
    one_of = prop(
        {"type": "string", "oneOf": [{"const": "r", "title": "Red"}, {"const": "g", "title": "Green"}]}
    )
    assert isinstance(one_of, ChoiceField)
    assert [(c.value, c.label) for c in one_of.choices] == [("r", "Red"), ("g", "Green")]
    any_of = prop({"anyOf": [{"const": 1, "title": "One"}, {"const": 2}]})
    assert isinstance(any_of, ChoiceField) and [c.label for c in any_of.choices] == ["One", "2"]
    legacy = prop({"type": "string", "enum": ["a", "b"], "enumNames": ["Alpha", "Beta"]})
    assert isinstance(legacy, ChoiceField) and [c.label for c in legacy.choices] == ["Alpha", "Beta"]


def test_multi_select() -> None:
    field = prop(
        {"type": "array", "items": {"type": "string", "enum": ["a", "b", "c"]}, "minItems": 1, "maxItems": 2}
    )
    assert isinstance(field, MultiChoiceField)
    assert (field.min_items, field.max_items) == (1, 2)
    titled = prop(
        {"type": "array", "items": {"anyOf": [{"const": "x", "title": "Ex"}, {"const": "y", "title": "Why"}]}}
    )
    assert isinstance(titled, MultiChoiceField) and [c.label for c in titled.choices] == ["Ex", "Why"]
    assert titled.accepts(["x", "y"]) and not titled.accepts(["y", "x"]) and not titled.accepts(["z"])


def test_ten_thousand_value_enum_builds_fast() -> None:
    values = [f"value-{i}" for i in range(10_000)]
    started = time.perf_counter()
    field = prop({"type": "string", "enum": values})
    assert time.perf_counter() - started < 1.0
    assert isinstance(field, ChoiceField) and len(field.choices) == 10_000
    assert field.index_of("value-9999") == 9999


# --- arrays and objects ---


def test_arrays_of_primitives_objects_and_arrays() -> None:
    prim = prop({"type": "array", "items": {"type": "integer"}, "minItems": 1, "maxItems": 3})
    assert isinstance(prim, ArrayField) and (prim.min_items, prim.max_items) == (1, 3)
    assert isinstance(prim.item_field, NumberField)
    objs = prop({"type": "array", "items": obj({"a": {"type": "string"}})})
    assert isinstance(objs, ArrayField) and isinstance(objs.item_field, ObjectField)
    nested = prop({"type": "array", "items": {"type": "array", "items": {"type": "string"}}})
    assert isinstance(nested, ArrayField) and isinstance(nested.item_field, ArrayField)
    assert isinstance(nested.item_field.item_field, TextField)


def test_nested_objects_and_maps() -> None:
    form = build_form(
        obj(
            {
                "inner": obj({"a": {"type": "string", "default": "d"}}, ["a"]),
                "labels": {"type": "object", "additionalProperties": {"type": "integer"}},
                "mixed": {
                    "type": "object",
                    "properties": {"fixed": {"type": "string"}},
                    "additionalProperties": True,
                },
                "closed": {
                    "type": "object",
                    "properties": {"p": {"type": "string"}},
                    "additionalProperties": False,
                },
            },
            ["inner"],
        )
    )
    root = form.root
    assert isinstance(root, ObjectField)
    inner, labels, mixed, closed = root.properties
    assert isinstance(inner, ObjectField) and inner.required
    assert isinstance(labels, ObjectField) and isinstance(labels.additional_field, NumberField)
    assert isinstance(mixed, ObjectField) and mixed.property_field("fixed") is not None
    assert isinstance(mixed.additional_field, JsonField)
    assert isinstance(closed, ObjectField) and closed.additional_field is None
    assert form.default_value() == {"inner": {"a": "d"}}


# --- nullable ---


@pytest.mark.parametrize(
    "schema",
    [
        {"type": ["string", "null"]},
        {"anyOf": [{"type": "string"}, {"type": "null"}]},
        {"oneOf": [{"type": "null"}, {"type": "string"}]},
    ],
)
def test_nullable(schema: dict[str, Any]) -> None:
    form = build_form(obj({"x": schema}, ["x"]))
    field = form.root.property_field("x")  # type: ignore[attr-defined]
    assert isinstance(field, TextField) and field.nullable
    assert form.validate({"x": None}) == []
    assert [e.path for e in form.validate({})] == [("x",)]  # leaving it out is not the same as null


def test_nullable_default_and_ref_branch() -> None:
    form = build_form(
        {
            "type": "object",
            "$defs": {"Status": {"type": "string", "enum": ["ok", "bad"]}},
            "properties": {"s": {"anyOf": [{"$ref": "#/$defs/Status"}, {"type": "null"}], "default": None}},
        }
    )
    field = form.root.property_field("s")  # type: ignore[attr-defined]
    assert isinstance(field, ChoiceField) and field.nullable and field.default is None
    assert form.default_value() == {}


# --- unions ---


NOTION_PARENT = {
    "oneOf": [
        {
            "type": "object",
            "properties": {"type": {"const": "page_id"}, "page_id": {"type": "string"}},
            "required": ["type", "page_id"],
        },
        {
            "type": "object",
            "properties": {"type": {"const": "database_id"}, "database_id": {"type": "string"}},
            "required": ["type", "database_id"],
        },
        {"type": "object", "properties": {"type": {"const": "workspace"}}, "required": ["type"]},
    ]
}


def test_object_variants_with_discriminator() -> None:
    form = build_form(obj({"parent": NOTION_PARENT}, ["parent"]))
    field = form.root.property_field("parent")  # type: ignore[attr-defined]
    assert isinstance(field, VariantField)
    assert field.discriminator == "type"
    assert [v.title for v in field.variants] == ["page_id", "database_id", "workspace"]
    assert field.discriminator_value(2) == "workspace"
    assert form.default_value() == {"parent": {"type": "page_id"}}
    errors = form.validate({"parent": {"type": "page_id"}})
    assert [(e.path, e.keyword) for e in errors] == [(("parent", "page_id"), "required")]


def test_mixed_unions_and_type_lists() -> None:
    mixed = prop({"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]})
    assert isinstance(mixed, VariantField)
    assert [v.title for v in mixed.variants] == ["Text", "List of text"]
    types = prop({"type": ["string", "number"]})
    assert isinstance(types, VariantField) and [v.title for v in types.variants] == ["Text", "Number"]
    partial = prop(
        {
            "type": "object",
            "properties": {"c": {"type": "string"}},
            "required": ["c"],
            "anyOf": [
                {"required": ["a"], "properties": {"a": {"type": "string"}}},
                {"required": ["b"], "properties": {"b": {"type": "string"}}},
            ],
        }
    )
    assert isinstance(partial, VariantField)
    first = partial.option(0)
    assert isinstance(first, ObjectField) and [p.name for p in first.properties] == ["c", "a"]
    constraint_only = prop(
        {
            "type": "object",
            "properties": {"a": {"type": "string"}},
            "anyOf": [{"required": ["a"]}, {"required": ["b"]}],
        }
    )
    assert isinstance(constraint_only, ObjectField)


def test_variants_are_built_only_when_used() -> None:
    branches = [obj({"kind": {"const": f"k{i}"}, "v": {"type": "string"}}, ["kind"]) for i in range(150)]
    field = prop({"anyOf": branches})
    assert isinstance(field, VariantField)
    assert field.built_options() == []
    field.option(7)
    assert len(field.built_options()) == 1


# --- allOf, $ref, recursion ---


def test_all_of_merged() -> None:
    field = prop({"allOf": [{"type": "integer", "minimum": 0}, {"type": "number", "maximum": 50}]})
    assert isinstance(field, NumberField) and field.integer
    assert (field.minimum, field.maximum) == (0, 50)
    merged = prop({"allOf": [obj({"a": {"type": "string"}}, ["a"]), obj({"b": {"type": "integer"}}, ["b"])]})
    assert isinstance(merged, ObjectField)
    assert [p.name for p in merged.properties] == ["a", "b"] and list(merged.required_names) == ["a", "b"]


@pytest.mark.parametrize("dialect", [DRAFT7, D2020])
def test_local_refs_defs_and_definitions(dialect: str) -> None:
    form = build_form(
        {
            "$schema": dialect,
            "type": "object",
            "definitions": {"Name": {"type": "string", "title": "Name"}},
            "$defs": {"Age": {"type": "integer", "minimum": 0}},
            "properties": {
                "n": {"$ref": "#/definitions/Name"},
                "a": {"$ref": "#/$defs/Age", "description": "years"},
            },
            "required": ["n"],
        }
    )
    n, a = form.root.properties  # type: ignore[attr-defined]
    assert isinstance(n, TextField) and n.label == "Name"
    assert isinstance(a, NumberField) and a.integer and a.minimum == 0 and a.help == "years"
    assert [e.path for e in form.validate({"a": -1})] == [("n",), ("a",)] or {
        e.path for e in form.validate({"a": -1})
    } == {("n",), ("a",)}


RECURSIVE = {
    "$schema": D2020,
    "type": "object",
    "$defs": {
        "Node": {
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
                "parent": {"$ref": "#/$defs/Node"},
            },
            "required": ["name"],
        }
    },
    "properties": {"root": {"$ref": "#/$defs/Node"}},
    "required": ["root"],
}


def test_recursive_schema_expands_lazily() -> None:
    started = time.perf_counter()
    form = build_form(RECURSIVE)
    field: Any = form.root.property_field("root")  # type: ignore[attr-defined]
    for _ in range(200):  # walking 200 levels down builds 200 levels, no more
        assert isinstance(field, ObjectField)
        field = field.property_field("parent")
    assert time.perf_counter() - started < 2.0
    assert form.default_value() == {"root": {}}
    assert [e.path for e in form.validate({"root": {"name": "a", "children": [{"children": []}]}})] == [
        ("root", "children", 0, "name")
    ]


def test_self_requiring_recursion_and_ref_cycles_do_not_hang() -> None:
    form = build_form({"type": "object", "properties": {"me": {"$ref": "#"}}, "required": ["me"]})
    value = form.default_value()
    depth = 0
    while isinstance(value, dict) and "me" in value:
        value, depth = value["me"], depth + 1
    assert 10 < depth < 100
    cycle = build_form(
        {
            "type": "object",
            "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}},
            "properties": {"x": {"$ref": "#/$defs/a"}},
        }
    )
    assert isinstance(cycle.root.property_field("x"), JsonField)  # type: ignore[attr-defined]
    loop = build_form({"allOf": [{"$ref": "#"}]})
    assert isinstance(loop.root, JsonField)


# --- everything else -> JSON ---


@pytest.mark.parametrize(
    "schema",
    [
        {"if": {"type": "string"}, "then": {"minLength": 1}},
        {"not": {"type": "string"}},
        {},
        {"description": "no type at all"},
        {"x-unknown": 1},
        {"type": "frobnicate"},
        {"type": 7},
        {"$ref": "https://example.com/remote.json"},
        {"$ref": "#/nowhere"},
        {"type": "array", "items": [{"type": "string"}, {"type": "integer"}]},
        {"type": "array", "prefixItems": [{"type": "string"}]},
        {"patternProperties": {"^a": {"type": "string"}}},
        {"allOf": [{"type": "string"}, {"type": "integer"}]},
        {"anyOf": "not a list"},
        {"enum": "not a list"},
        {"properties": "nope", "type": "object"},
        False,
        "just a string",
        None,
    ],
)
def test_anything_else_is_a_json_field_never_an_exception(schema: Any) -> None:
    form = build_form(obj({"x": schema}))
    field = form.root.property_field("x")  # type: ignore[attr-defined]
    assert field is not None
    if not isinstance(schema, dict) or not isinstance(schema.get("properties", {}), str):
        assert isinstance(field, JsonField | ObjectField)
    form.default_value()
    form.validate({"x": 1})


def test_invalid_root_schemas() -> None:
    for schema in (None, [], "x", 3, {"type": "object", "properties": {"a": {"pattern": "("}}}):
        form = build_form(schema)
        form.default_value()
        assert isinstance(form.validate({"a": "z"}), list)


# --- value rules and validation ---


def test_untouched_optional_fields_are_omitted_and_required_block() -> None:
    form = build_form(
        obj(
            {
                "q": {"type": "string"},
                "n": {"type": "integer"},
                "flag": {"type": "boolean"},
                "name": {"type": "string"},
                "limit": {"type": "integer", "default": 10},
            },
            ["name", "limit"],
        )
    )
    assert form.default_value() == {"limit": 10}
    errors = form.validate(form.default_value())
    assert [(e.path, e.message, e.keyword) for e in errors] == [
        (("name",), "This field is required.", "required")
    ]


def test_validator_chosen_from_schema_dialect() -> None:
    # exclusiveMinimum as a boolean is draft-04 only: under 2020-12 (the default) it is not a number bound.
    draft7 = build_form(
        {"$schema": DRAFT7, "type": "object", "properties": {"d": {"type": "string", "format": "date"}}}
    )
    assert [e.keyword for e in draft7.validate({"d": "2026-13-45"})] == ["format"]
    default = build_form({"type": "object", "properties": {"e": {"type": "string", "format": "email"}}})
    assert [e.keyword for e in default.validate({"e": "nope"})] == ["format"]
    assert default.validate({"e": "a@b.c"}) == []


def test_unknown_or_broken_dialect_falls_back_to_2020_12() -> None:
    for dialect in ("https://example.com/my-dialect", 5):
        form = build_form({"$schema": dialect, "type": "object", "required": ["a"]})
        assert [e.path for e in form.validate({})] == [("a",)]


def test_validation_is_lazy() -> None:
    form = build_form(obj({"a": {"type": "string"}}))
    assert "_validator" not in form.__dict__
    form.validate({})
    assert "_validator" in form.__dict__


def test_errors_map_to_the_owning_field() -> None:
    form = build_form(
        obj(
            {
                "tags": {"type": "array", "items": {"type": "string", "minLength": 2}},
                "inner": obj({"n": {"type": "integer", "minimum": 5}}),
                "labels": {"type": "object", "additionalProperties": {"type": "integer"}},
            }
        )
    )
    errors = form.validate({"tags": ["ok", "x"], "inner": {"n": 1}, "labels": {"a": "b"}})
    by_path = {e.path: e for e in errors}
    assert set(by_path) == {("tags", 1), ("inner", "n"), ("labels", "a")}
    assert by_path[("inner", "n")].message == "Must be at least 5."
    for path in by_path:
        owner = form.field_at(path)
        assert owner is not None and owner.kind in ("text", "integer")


def test_union_errors_come_from_the_closest_alternative() -> None:
    form = build_form(obj({"parent": NOTION_PARENT}, ["parent"]))
    errors = form.validate({"parent": {"type": "database_id", "database_id": 5}})
    assert [(e.path, e.keyword) for e in errors] == [(("parent", "database_id"), "type")]


def test_secrets_masked_for_the_json_view() -> None:
    form = build_form(obj({"user": {"type": "string"}, "password": {"type": "string"}}))
    value = {"user": "ann", "password": "hunter2"}
    masked = mask_secrets(value, form.root)
    assert masked == {"user": "ann", "password": SECRET_MASK}
    assert unmask_secrets({"user": "bob", "password": SECRET_MASK}, value, form.root) == {
        "user": "bob",
        "password": "hunter2",
    }
    assert unmask_secrets({"password": "new"}, value, form.root) == {"password": "new"}


def test_field_initial_value_missing_marker() -> None:
    assert repr(MISSING) == "MISSING" and not MISSING
