"""Schema node -> field, by table lookup: type -> variant (const, enum, format, ...) -> field kind -> factory.

Three tables decide everything, and each can be extended with `register_*` (as magicgui's type map does):

- `VARIANT_RULES`: ordered (variant, test) pairs; the first variant that has an entry in `KIND_TABLE`
  for the node's type wins. The tests only look at the schema; the table decides what they mean.
- `KIND_TABLE`: (type, variant) -> kind; `"*"` as type matches any type.
- `FIELD_FACTORIES`: kind -> a function that makes the `Field`.

Whatever no table knows becomes a `JsonField` (a raw JSON editor): building never raises.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from app.forms.fields import (
    ArrayField,
    BooleanField,
    Choice,
    ChoiceField,
    ConstField,
    Field,
    JsonField,
    MultiChoiceField,
    NullField,
    NumberField,
    ObjectField,
    TextField,
    Variant,
    VariantField,
)
from app.forms.resolve import Schema, SchemaContext, Unresolvable, merge
from app.forms.values import MISSING, dumps, humanise

logger = logging.getLogger(__name__)

# --- what makes a node unrenderable -------------------------------------------------------------------

UNSUPPORTED_KEYWORDS: dict[str, str] = {
    "if": "if/then/else",
    "then": "if/then/else",
    "else": "if/then/else",
    "not": "not",
    "dependentSchemas": "dependentSchemas",
    "dependencies": "dependencies",
    "patternProperties": "patternProperties",
    "prefixItems": "prefixItems",
    "$dynamicRef": "$dynamicRef",
    "$recursiveRef": "$recursiveRef",
}
"""Keywords that change a value's shape in ways fields cannot express; the node becomes a JSON editor."""

KNOWN_TYPES = frozenset({"string", "number", "integer", "boolean", "object", "array", "null"})

INFERRED_TYPES: tuple[tuple[str, str], ...] = (
    ("properties", "object"),
    ("additionalProperties", "object"),
    ("required", "object"),
    ("items", "array"),
    ("minItems", "array"),
    ("maxItems", "array"),
    ("minLength", "string"),
    ("maxLength", "string"),
    ("pattern", "string"),
    ("format", "string"),
    ("minimum", "number"),
    ("maximum", "number"),
    ("multipleOf", "number"),
)
"""A node without `type`: the first of these keywords present names its type."""

TYPE_TITLES = {
    "string": "Text",
    "number": "Number",
    "integer": "Whole number",
    "boolean": "Yes/no",
    "object": "Object",
    "array": "List",
    "null": "Nothing",
}

FORMAT_TITLES = {
    "date": "date",
    "date-time": "date and time",
    "time": "time",
    "email": "e-mail address",
    "idn-email": "e-mail address",
    "uri": "web address",
    "url": "web address",
    "iri": "web address",
    "uuid": "id",
    "password": "password",
}
"""Words for a `format` in an alternative's title ("Text (date)"); other format names are not shown."""

# --- variants ----------------------------------------------------------------------------------------

SECRET_ENDINGS = (
    "password",
    "passwd",
    "secret",
    "apikey",
    "token",
    "passphrase",
    "privatekey",
    "secretkey",
    "accesskey",
    "secretvalue",
    "passwordvalue",
    "pwd",
)
"""A string property whose name (lower case, letters and digits only) ends like this is masked."""
NOT_SECRET_TOKENS = (
    "skip",
    "next",
    "page",
    "continuation",
    "pagination",
    "request",
    "client",
    "sync",
    "cursor",
    "idempotency",
    "resume",
)
"""...unless it is a paging or idempotency token (`nextPageToken`, `client_request_token`): not secret."""
MULTILINE_NAMES = frozenset(
    {
        "body",
        "content",
        "text",
        "description",
        "code",
        "script",
        "query",
        "sql",
        "prompt",
        "markdown",
        "html",
        "message",
        "comment",
        "notes",
        "instructions",
        "template",
        "source",
        "cypher",
        "diff",
        "patch",
        "yaml",
        "json",
    }
)
"""A string whose name's last word is one of these is long text: a box of several lines."""
SHORT_NAMES = frozenset(
    {"zip", "zipcode", "postcode", "postal", "postalcode", "id", "uuid", "key", "name", "title", "label"}
)
"""...but a name that says it is short (its last word, or the whole name) is one line, whatever else
the schema says: a postal code is never a text box."""
CODE_WORDS = frozenset({"source", "program", "python", "javascript", "js", "typescript", "shell", "sample"})
""""code" is long text only alone or after one of these (source code); a postal, country, language or
service code is one line."""
SHORT_TEXT_WORDS = frozenset(
    {
        "search",
        "find",
        "filter",
        "heading",
        "header",
        "title",
        "line",
        "anchor",
        "link",
        "alt",
        "button",
        "label",
        "mention",
    }
)
"""A "…text", "…query" or "…source" named by one of these (search text, heading text) is one line."""
MULTILINE_FORMATS = frozenset({"textarea", "multiline", "markdown", "html", "text", "long-text"})
"""Non-standard `format` values some servers use for long text."""
SINGLE_LINE_MAX_LENGTH = 255
"""A string allowed at most this many characters is one line (255: a database text column)."""
MULTILINE_MIN_MAX_LENGTH = 500
"""One allowed this many or more is long text, whatever its name."""


def _norm_name(name: str | None) -> str:
    return re.sub(r"[^a-z0-9]", "", (name or "").lower())


def _last_word(name: str | None) -> str:
    words = humanise(name or "").lower().split()
    return words[-1] if words else ""


@dataclass
class Node:
    """A resolved schema node and where it sits: what variant tests look at."""

    schema: Schema
    type: str
    name: str | None


def _is_const_branch(branch: Any) -> bool:
    return isinstance(branch, dict) and "const" in branch


def _union_key(schema: Schema) -> str | None:
    for key in ("oneOf", "anyOf"):
        if isinstance(schema.get(key), list) and schema[key]:
            return key
    return None


_CONSTRAINT_ONLY = frozenset(
    {"required", "minProperties", "maxProperties", "description", "title", "$comment"}
)


def _is_constraint_only(branch: Any) -> bool:
    return isinstance(branch, dict) and set(branch) <= _CONSTRAINT_ONLY


def _titled(node: Node) -> bool:
    key = _union_key(node.schema)
    return key is not None and all(_is_const_branch(b) for b in node.schema[key])


def _union(node: Node) -> bool:
    key = _union_key(node.schema)
    return key is not None and not all(_is_constraint_only(b) for b in node.schema[key])


def _items_choices(node: Node) -> bool:
    items = node.schema.get("items")
    if not isinstance(items, dict):
        return False
    if isinstance(items.get("enum"), list) and items["enum"]:
        return True
    key = _union_key(items)
    return key is not None and all(_is_const_branch(b) for b in items[key])


def _secret(node: Node) -> bool:
    if node.schema.get("writeOnly") is True or node.schema.get("format") == "password":
        return True
    name = _norm_name(node.name)
    if not name.endswith(SECRET_ENDINGS):
        return False
    return not (name.endswith("token") and any(word in name for word in NOT_SECRET_TOKENS))


def _multiline(node: Node) -> bool:
    """Whether a string is long text (a box of several lines) rather than one line. In this order:

    1. a default with a line break, `contentMediaType`, or a long-text `format` -> several lines;
    2. a name that says short (postal code, zip, ...id, name, title, key) -> one line;
    3. `maxLength` <= 255 -> one line; >= 500 -> several lines;
    4. otherwise the name's last word: description, body, content, text, message, notes, query...
       ("code" only alone or as source code; "search text", "heading text" are one line).
    """
    s = node.schema
    max_length = s.get("maxLength")
    if isinstance(s.get("default"), str) and "\n" in s["default"]:
        return True
    fmt = s.get("format")
    if "contentMediaType" in s or (isinstance(fmt, str) and fmt.lower() in MULTILINE_FORMATS):
        return True
    words = humanise(node.name or "").lower().split()
    if not words:
        return False
    last = words[-1]
    if last in SHORT_NAMES or _norm_name(node.name) in SHORT_NAMES or last == "ids":
        return False
    if "zip" in words or "postal" in words:
        return False
    if isinstance(max_length, int) and max_length <= SINGLE_LINE_MAX_LENGTH:
        return False
    if isinstance(max_length, int) and max_length >= MULTILINE_MIN_MAX_LENGTH:
        return True
    if last not in MULTILINE_NAMES:
        return False
    before = words[-2] if len(words) > 1 else None
    if last == "code":
        return before is None or before in CODE_WORDS
    if last in ("text", "query", "source"):
        return before not in SHORT_TEXT_WORDS
    return True


def _format(node: Node) -> str | None:
    fmt = node.schema.get("format")
    return f"format:{fmt}" if isinstance(fmt, str) else None


VariantTest = Callable[[Node], bool | str | None]

VARIANT_RULES: list[tuple[str, VariantTest]] = [
    ("const", lambda n: "const" in n.schema),
    ("single", lambda n: isinstance(n.schema.get("enum"), list) and len(n.schema["enum"]) == 1),
    ("enum", lambda n: isinstance(n.schema.get("enum"), list) and len(n.schema["enum"]) > 1),
    ("titled", _titled),
    ("union", _union),
    ("choices", _items_choices),
    ("tuple", lambda n: isinstance(n.schema.get("items"), list)),
    ("secret", _secret),
    ("format", _format),  # the test returns the variant name itself: "format:date", ...
    ("multiline", _multiline),
]
"""Ordered: a node that is both an enum and has a format is a pick list; `plain` is the fallback variant."""

KIND_TABLE: dict[tuple[str, str], str] = {
    ("*", "const"): "const",
    ("*", "single"): "const",
    ("*", "enum"): "choice",
    ("*", "titled"): "choice",
    ("*", "union"): "variants",
    ("multi", "plain"): "variants",
    ("string", "plain"): "text",
    ("string", "secret"): "secret",
    ("string", "multiline"): "multiline",
    ("string", "format:date"): "date",
    ("string", "format:date-time"): "datetime",
    ("string", "format:time"): "time",
    ("string", "format:email"): "email",
    ("string", "format:idn-email"): "email",
    ("string", "format:uri"): "uri",
    ("string", "format:url"): "uri",
    ("string", "format:iri"): "uri",
    ("string", "format:uuid"): "uuid",
    ("string", "format:password"): "secret",
    ("integer", "plain"): "integer",
    ("number", "plain"): "number",
    ("boolean", "plain"): "boolean",
    ("null", "plain"): "null",
    ("array", "choices"): "multichoice",
    ("array", "plain"): "array",
    ("object", "plain"): "object",
}


def register_kind_rule(type_: str, variant: str, kind: str) -> None:
    """Map a (type, variant) pair to a field kind (e.g. `("string", "format:color")` -> `"color"`)."""
    KIND_TABLE[(type_, variant)] = kind


def classify(schema: Schema, name: str | None = None) -> tuple[str, str]:
    """(kind, reason) for a resolved, non-nullable node; reason is set when the kind is the JSON fallback."""
    for keyword, reason in UNSUPPORTED_KEYWORDS.items():
        if keyword in schema:
            return "json", reason
    type_, reason = _type_of(schema)
    if reason:
        return "json", reason
    node = Node(schema, type_, name)
    for variant, test in VARIANT_RULES:
        outcome = test(node)
        if not outcome:
            continue
        key = outcome if isinstance(outcome, str) else variant
        kind = KIND_TABLE.get((type_, key)) or KIND_TABLE.get(("*", key))
        if kind is not None:
            return kind, ""
        if variant == "tuple":
            return "json", "tuple items"
    kind = KIND_TABLE.get((type_, "plain"))
    if kind is None:
        return "json", "no type" if type_ == "any" else f"type {type_!r}"
    return kind, ""


def _type_of(schema: Schema) -> tuple[str, str]:
    declared = schema.get("type")
    if isinstance(declared, str):
        return (declared, "") if declared in KNOWN_TYPES else ("any", f"unknown type {declared!r}")
    if isinstance(declared, list):
        known = [t for t in declared if isinstance(t, str) and t in KNOWN_TYPES]
        if len(known) != len(declared) or not known:
            return "any", "unknown type"
        return (known[0], "") if len(known) == 1 else ("multi", "")
    if declared is not None:
        return "any", "invalid type"
    for keyword, inferred in INFERRED_TYPES:
        if keyword in schema:
            return inferred, ""
    if not schema:
        return "any", "empty schema"
    return "any", ""


# --- building ----------------------------------------------------------------------------------------


@dataclass
class Spec:
    """Everything a factory needs: the common field attributes are already worked out."""

    ctx: SchemaContext
    schema: Schema
    kind: str
    common: dict[str, Any]
    reason: str = ""


FieldFactory = Callable[[Spec], Field]
FIELD_FACTORIES: dict[str, FieldFactory] = {}


def register_field(kind: str) -> Callable[[FieldFactory], FieldFactory]:
    """Decorator: the factory that makes fields of `kind`."""

    def wrap(factory: FieldFactory) -> FieldFactory:
        FIELD_FACTORIES[kind] = factory
        return factory

    return wrap


def _int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def _num_or_none(value: Any) -> int | float | None:
    return value if isinstance(value, int | float) and not isinstance(value, bool) else None


def _text(spec: Spec) -> Field:
    s = spec.schema
    fmt = s.get("format") if isinstance(s.get("format"), str) else None
    return TextField(
        **spec.common,
        min_length=_int_or_none(s.get("minLength")),
        max_length=_int_or_none(s.get("maxLength")),
        pattern=s.get("pattern") if isinstance(s.get("pattern"), str) else None,
        format=fmt,
        secret=spec.kind == "secret",
    )


for _kind in ("text", "secret", "multiline", "date", "datetime", "time", "email", "uri", "uuid"):
    FIELD_FACTORIES[_kind] = _text


@register_field("integer")
@register_field("number")
def _number(spec: Spec) -> Field:
    s = spec.schema
    minimum, exclusive_minimum = _num_or_none(s.get("minimum")), s.get("exclusiveMinimum")
    maximum, exclusive_maximum = _num_or_none(s.get("maximum")), s.get("exclusiveMaximum")
    # draft-04 style booleans: exclusiveMinimum: true makes `minimum` exclusive.
    if exclusive_minimum is True:
        minimum, exclusive_minimum = None, minimum
    if exclusive_maximum is True:
        maximum, exclusive_maximum = None, maximum
    step = _num_or_none(s.get("multipleOf"))
    return NumberField(
        **spec.common,
        integer=spec.kind == "integer",
        minimum=minimum,
        maximum=maximum,
        exclusive_minimum=_num_or_none(exclusive_minimum),
        exclusive_maximum=_num_or_none(exclusive_maximum),
        step=step if step and step > 0 else None,
    )


@register_field("boolean")
def _boolean(spec: Spec) -> Field:
    return BooleanField(**spec.common)


def _choice_label(value: Any) -> str:
    return value if isinstance(value, str) else dumps(value)


def _choices(ctx: SchemaContext, schema: Schema) -> list[Choice]:
    enum = schema.get("enum")
    if isinstance(enum, list):
        names = schema.get("enumNames")
        if isinstance(names, list) and len(names) == len(enum):
            return [Choice(v, str(n)) for v, n in zip(enum, names, strict=True)]
        return [Choice(v, _choice_label(v)) for v in enum]
    key = _union_key(schema)
    out = []
    for branch in schema.get(key, []) if key else []:
        title = branch.get("title")
        out.append(Choice(branch["const"], str(title) if title else _choice_label(branch["const"])))
    return out


@register_field("choice")
def _choice(spec: Spec) -> Field:
    return ChoiceField(**spec.common, choices=_choices(spec.ctx, spec.schema))


@register_field("multichoice")
def _multichoice(spec: Spec) -> Field:
    s = spec.schema
    return MultiChoiceField(
        **spec.common,
        choices=_choices(spec.ctx, s["items"]),
        min_items=_int_or_none(s.get("minItems")),
        max_items=_int_or_none(s.get("maxItems")),
    )


@register_field("const")
def _const(spec: Spec) -> Field:
    s = spec.schema
    return ConstField(**spec.common, value=s["const"] if "const" in s else s["enum"][0])


@register_field("null")
def _null(spec: Spec) -> Field:
    return NullField(**spec.common)


@register_field("array")
def _array(spec: Spec) -> Field:
    s = spec.schema
    items = s.get("items", {})
    return ArrayField(
        **spec.common,
        item_schema=items if items is not None else {},
        min_items=_int_or_none(s.get("minItems")),
        max_items=_int_or_none(s.get("maxItems")),
    )


@register_field("object")
def _object(spec: Spec) -> Field:
    s = spec.schema
    props = s.get("properties")
    required = s.get("required")
    extra = s.get("additionalProperties", MISSING)
    if extra is MISSING and s.get("unevaluatedProperties") is False:
        extra = False
    # Absent additionalProperties allows any key, but offering a free editor for every plain object would
    # clutter most forms; extra keys found in a value are still shown and kept (see the object widget).
    # A tool's arguments (the root) with no properties are a tool that needs no input: SDKs write
    # `{"type": "object", "properties": {}}` (some with `additionalProperties: true`) for that, and a
    # key/value editor there only puzzles a person. The root gets one only when it names properties and
    # invites more, or when its extra keys have a schema of their own (a typed map: `{"a": 1, ...}`).
    # A nested object with nothing named (`"metadata": {"type": "object"}`) is a place for key/values.
    root = not spec.common["path"]
    named = isinstance(props, dict) and bool(props)
    if root and not named:
        additional: Any = extra if isinstance(extra, dict) and extra else None
    elif extra is True:
        additional = {}
    elif isinstance(extra, dict):
        additional = extra
    elif extra is MISSING and not props:
        additional = {}
    else:
        additional = None
    return ObjectField(
        **spec.common,
        property_schemas=props if isinstance(props, dict) else {},
        required_names=tuple(r for r in required if isinstance(r, str)) if isinstance(required, list) else (),
        additional_schema=additional,
    )


def _variant_title(
    branch: Schema, raw: Any, index: int, discriminator: str | None, ctx: SchemaContext
) -> tuple[str, tuple[str, ...]]:
    """A name for one alternative in the picker, from the alternative itself (not its surroundings),
    and, when the name is made up here rather than the schema's, its words (`Variant.words`)."""
    if isinstance(branch.get("title"), str) and branch["title"].strip():
        return str(branch["title"]), ()
    if discriminator is not None:
        value = _const_of(ctx, (branch.get("properties") or {}).get(discriminator))
        if value is not MISSING:
            return _choice_label(value), ()
    if isinstance(raw, dict) and isinstance(raw.get("$ref"), str):
        # "#/$defs/pageIdParentRequest" -> "Page id parent request"
        return humanise(raw["$ref"].rsplit("/", 1)[-1]), ()
    type_ = branch.get("type")
    for name, sub in (branch.get("properties") or {}).items():
        value = _const_of(ctx, sub)
        if value is not MISSING and isinstance(value, str | int | float | bool):
            return f"{humanise(str(name))}: {_choice_label(value)}", ()  # a lone fixed value names it well
    if type_ == "object" or (type_ is None and isinstance(branch.get("properties"), dict)):
        names = [n for n in branch.get("required") or [] if isinstance(n, str)]
        names = names or [n for n in branch.get("properties") or {} if isinstance(n, str)]
        if names:
            shown = ", ".join(humanise(n).lower() for n in names[:3])
            return "With " + shown, ("with", shown)
    if isinstance(type_, str) and type_ in TYPE_TITLES:
        title = TYPE_TITLES[type_]
        if isinstance(branch.get("enum"), list):
            return f"{title} (from a list)", ("from a list", type_)
        if type_ == "array" and isinstance(branch.get("items"), dict):
            inner = branch["items"].get("type")
            if isinstance(inner, str) and inner in TYPE_TITLES:
                return f"List of {TYPE_TITLES[inner].lower()}", ("list of", inner)
        if isinstance(branch.get("format"), str) and branch["format"] in FORMAT_TITLES:
            fmt = branch["format"]
            return f"{title} ({FORMAT_TITLES[fmt]})", ("format", type_, fmt)
        return title, ("type", type_)
    if _union_key(branch):
        count = len(branch[_union_key(branch) or ""])
        return f"One of {count} kinds", ("kinds", str(count))
    if isinstance(branch.get("description"), str) and 0 < len(branch["description"]) <= 60:
        return str(branch["description"]), ()
    return f"Option {index + 1}", ("option", str(index + 1))


def _const_of(ctx: SchemaContext, node: Any) -> Any:
    try:
        s = ctx.resolve(node) if node is not None else {}
    except Unresolvable:
        return MISSING
    if "const" in s:
        return s["const"]
    if isinstance(s.get("enum"), list) and len(s["enum"]) == 1:
        return s["enum"][0]
    return MISSING


def _find_discriminator(ctx: SchemaContext, branches: list[Schema]) -> str | None:
    """A property with a distinct fixed value in every alternative that has properties (a free-form
    `{type: object}` alternative next to them does not prevent it)."""
    shaped = [b for b in branches if isinstance(b.get("properties"), dict) and b["properties"]]
    if len(shaped) < 2:
        return None
    for name in shaped[0]["properties"]:
        values = [_const_of(ctx, b["properties"].get(name)) for b in shaped]
        if any(v is MISSING for v in values):
            continue
        # Mostly distinct is enough (real servers repeat a value now and then); the picker then
        # tells same-named alternatives apart by validating the value.
        if len({dumps(v) for v in values}) > 1:
            return str(name)
    return None


def _union_variants(ctx: SchemaContext, schema: Schema) -> tuple[list[Variant], str | None]:
    key = _union_key(schema)
    if key is None:  # a list of types
        raws: list[Any] = [None] * len(schema["type"])
        own = [{"type": t} for t in schema["type"]]
        branches = [{**schema, "type": t} for t in schema["type"]]
    else:
        siblings = {k: v for k, v in schema.items() if k not in (key, "title")}
        raws, own, branches = list(schema[key]), [], []
        for branch in raws:
            try:
                resolved = ctx.resolve(branch)
                own.append(resolved)
                branches.append(merge(siblings, resolved))
            except Unresolvable:
                own.append({})
                branches.append({**siblings, "$comment": "unresolvable", "not": {}})
    discriminator = _find_discriminator(ctx, branches)
    titles: list[str] = []
    variants: list[Variant] = []
    for i, (mine, raw, branch) in enumerate(zip(own, raws, branches, strict=True)):
        title, words = _variant_title(mine, raw, i, discriminator, ctx)
        base, number = title, None
        while title in titles:
            number = i + 1
            title = f"{title} ({number})"
        titles.append(title)
        variants.append(Variant(title, branch, words, number if title != base else None))
    return variants, discriminator


@register_field("variants")
def _variants(spec: Spec) -> Field:
    variants, discriminator = _union_variants(spec.ctx, spec.schema)
    return VariantField(**spec.common, variants=variants, discriminator=discriminator)


@register_field("json")
def _json(spec: Spec) -> Field:
    keywords = tuple(k for k in UNSUPPORTED_KEYWORDS if k in spec.schema)
    return JsonField(**spec.common, reason=spec.reason, keywords=keywords)


# --- entry point ---------------------------------------------------------------------------------------


def _is_null_schema(node: Any) -> bool:
    return (
        isinstance(node, dict)
        and (node.get("type") == "null" or node.get("const", MISSING) is None)
        and (set(node) <= {"type", "const", "description", "title"})
    )


def split_nullable(ctx: SchemaContext, schema: Schema) -> tuple[Schema, bool]:
    """`type: [T, "null"]` or `anyOf: [T, {type: null}]` -> (the T schema, True)."""
    declared = schema.get("type")
    if isinstance(declared, list) and "null" in declared and len(declared) > 1:
        rest = [t for t in declared if t != "null"]
        inner = {**schema, "type": rest[0] if len(rest) == 1 else rest}
        enum = inner.get("enum")
        if isinstance(enum, list) and None in enum:
            return schema, False  # the pick list offers null itself
        return inner, True
    key = _union_key(schema)
    if key is not None and len(schema[key]) >= 2:
        branches = schema[key]
        resolved = []
        for b in branches:
            try:
                resolved.append(ctx.resolve(b))
            except Unresolvable:
                resolved.append(b)
        keep = [b for b in resolved if not _is_null_schema(b)]
        if keep and len(keep) < len(branches):
            siblings = {k: v for k, v in schema.items() if k != key}
            if len(keep) == 1:
                return merge(siblings, keep[0]), True
            return {**siblings, key: keep}, True
    return schema, False


def _common(
    ctx: SchemaContext,
    schema: Schema,
    kind: str,
    name: str | None,
    required: bool,
    nullable: bool,
    path: tuple[str | int, ...],
) -> dict[str, Any]:
    title = schema.get("title")
    description = schema.get("description")
    examples = schema.get("examples")
    placeholder: Any = MISSING
    if isinstance(examples, list) and examples:
        placeholder = examples[0]
    elif "example" in schema:
        placeholder = schema["example"]
    return {
        "kind": kind,
        "schema": schema,
        "name": name,
        "label": title if isinstance(title, str) and title.strip() else (humanise(name) if name else "Value"),
        "help": description if isinstance(description, str) else "",
        "required": required,
        "nullable": nullable,
        "default": schema.get("default", MISSING),
        "placeholder": "" if placeholder is MISSING else _choice_label(placeholder),
        "read_only": schema.get("readOnly") is True,
        "path": path,
        "ctx": ctx,
        "build_child": build_field,
    }


def build_field(
    ctx: SchemaContext, schema: Any, name: str | None, required: bool, path: tuple[str | int, ...]
) -> Field:
    """The field for one schema node. Never raises: what cannot be shown becomes a JSON editor."""
    raw = schema if isinstance(schema, dict) else {}
    try:
        resolved = ctx.resolve(schema)
        inner, nullable = split_nullable(ctx, resolved)
        if nullable:
            inner = ctx.resolve(inner)
        kind, reason = classify(inner, name)
        common = _common(ctx, inner, kind, name, required, nullable, path)
        # Annotations written next to a nullable union (title, default) belong to the whole field.
        for key, attr in (("default", "default"),):
            if key in resolved and attr in common:
                common[attr] = resolved[key]
        return FIELD_FACTORIES[kind](Spec(ctx, inner, kind, common, reason))
    except Unresolvable as exc:
        reason = str(exc)
    except Exception as exc:  # a strange schema must never break the form; say what happened in the log
        logger.warning("schema node at %s could not be turned into a field: %r", path, exc)
        reason = f"unexpected schema ({type(exc).__name__})"
    common = _common(ctx, raw, "json", name, required, False, path)
    return JsonField(**common, reason=reason, keywords=())
