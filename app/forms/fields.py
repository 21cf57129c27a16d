"""The field tree: what a form shows for each part of a schema. Plain data, no Qt.

Container fields (object, array, variants) build their children on first access, so a recursive schema
is expanded one level at a time, only as far as somebody looks.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from app.forms.resolve import Schema, SchemaContext
from app.forms.values import MISSING, dumps, json_equal

ChildBuilder = Callable[[SchemaContext, Any, str | None, bool, tuple[str | int, ...]], "Field"]
"""`build_field(ctx, schema, name, required, path)`, injected by the registry to avoid an import cycle."""

MAX_DEFAULT_DEPTH = 24
"""Required-object chains deeper than this get no generated default (a schema requiring itself)."""


@dataclass(frozen=True)
class Choice:
    """One entry of a pick list: the JSON value sent and the text shown."""

    value: Any
    label: str


@dataclass(eq=False)
class Field:
    """What every field has. `kind` picks the widget; `path` is where its value sits in the arguments."""

    kind: str
    schema: Schema
    name: str | None
    label: str
    help: str = ""
    required: bool = False
    nullable: bool = False
    default: Any = MISSING
    placeholder: str = ""
    read_only: bool = False
    path: tuple[str | int, ...] = ()
    ctx: SchemaContext | None = None
    build_child: ChildBuilder | None = None

    @property
    def has_default(self) -> bool:
        return self.default is not MISSING

    def initial_value(self, depth: int = 0) -> Any:
        """What the untouched field holds: its default, or MISSING."""
        return self.default

    def accepts(self, value: Any) -> bool:
        """Whether the field's editor can show `value` exactly (otherwise the UI shows it as raw JSON)."""
        return True

    def child(self, schema: Any, name: str | None, required: bool, key: str | int) -> Field:
        assert self.build_child is not None and self.ctx is not None
        return self.build_child(self.ctx, schema, name, required, (*self.path, key))


@dataclass(eq=False)
class TextField(Field):
    min_length: int | None = None
    max_length: int | None = None
    pattern: str | None = None
    format: str | None = None
    secret: bool = False

    def accepts(self, value: Any) -> bool:
        return isinstance(value, str)


_INT_TEXT = re.compile(r"[+-]?\d+")
_NUMBER_TEXT = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")


@dataclass(eq=False)
class NumberField(Field):
    integer: bool = False
    minimum: float | int | None = None
    maximum: float | int | None = None
    exclusive_minimum: float | int | None = None
    exclusive_maximum: float | int | None = None
    step: float | int | None = None

    def accepts(self, value: Any) -> bool:
        if isinstance(value, bool):
            return False
        if self.integer:
            return isinstance(value, int) or (isinstance(value, float) and value.is_integer())
        return isinstance(value, int | float) and value == value and abs(value) != float("inf")

    def parse(self, text: str) -> int | float:
        """Text typed by the user -> the number to send. Integers stay exact beyond 2**53."""
        text = text.strip()
        if _INT_TEXT.fullmatch(text):
            return int(text)
        if not self.integer and _NUMBER_TEXT.fullmatch(text):
            number = float(text)
            if number in (float("inf"), float("-inf")):
                raise ValueError("number is too large")
            return number
        raise ValueError("enter a whole number" if self.integer else "enter a number")

    @staticmethod
    def format_value(value: int | float) -> str:
        return dumps(value)

    def bounds_text(self) -> str:
        """`from 1 to 10`, shown as the editor's hint."""
        parts = []
        if self.minimum is not None:
            parts.append(f"≥ {dumps(self.minimum)}")
        if self.exclusive_minimum is not None:
            parts.append(f"> {dumps(self.exclusive_minimum)}")
        if self.maximum is not None:
            parts.append(f"≤ {dumps(self.maximum)}")
        if self.exclusive_maximum is not None:
            parts.append(f"< {dumps(self.exclusive_maximum)}")
        if self.step is not None:
            parts.append(f"step {dumps(self.step)}")
        return ", ".join(parts)

    def stepped(self, value: int | float | None, direction: int) -> int | float:
        """One step up or down from `value`, kept inside the bounds (Up/Down keys in the editor)."""
        step: int | float = self.step if self.step is not None else 1
        if value is None:
            start = self.minimum if self.minimum is not None else self.exclusive_minimum
            value = start if start is not None else 0
            if self.exclusive_minimum is not None and self.minimum is None:
                value = value + step
            out: int | float = value
        else:
            out = value + direction * step
        if self.integer or (isinstance(out, float) and out.is_integer() and isinstance(step, int)):
            out = int(out)
        if self.maximum is not None and out > self.maximum:
            out = self.maximum
        if self.minimum is not None and out < self.minimum:
            out = self.minimum
        return out


@dataclass(eq=False)
class BooleanField(Field):
    def accepts(self, value: Any) -> bool:
        return isinstance(value, bool)


@dataclass(eq=False)
class ChoiceField(Field):
    """One of a list: `enum` (any JSON type, `null` included), titled `oneOf`/`anyOf` consts, `enumNames`."""

    choices: list[Choice] = field(default_factory=list)

    def index_of(self, value: Any) -> int | None:
        for i, choice in enumerate(self.choices):
            if json_equal(choice.value, value):
                return i
        return None

    def accepts(self, value: Any) -> bool:
        return self.index_of(value) is not None


@dataclass(eq=False)
class MultiChoiceField(Field):
    """An array whose items come from a list: ticked entries, in list order."""

    choices: list[Choice] = field(default_factory=list)
    min_items: int | None = None
    max_items: int | None = None

    def accepts(self, value: Any) -> bool:
        if not isinstance(value, list):
            return False
        indexes = []
        for item in value:
            i = next((n for n, c in enumerate(self.choices) if json_equal(c.value, item)), None)
            if i is None:
                return False
            indexes.append(i)
        # The editor keeps list order and no duplicates; other arrays go to the JSON editor.
        return indexes == sorted(set(indexes))


@dataclass(eq=False)
class ConstField(Field):
    value: Any = None

    def initial_value(self, depth: int = 0) -> Any:
        if self.default is not MISSING:
            return self.default
        return self.value if self.required else MISSING

    def accepts(self, value: Any) -> bool:
        return json_equal(value, self.value)


@dataclass(eq=False)
class ArrayField(Field):
    item_schema: Any = None
    min_items: int | None = None
    max_items: int | None = None

    @cached_property
    def item_field(self) -> Field:
        return self.child(self.item_schema, None, True, 0)

    def item_label(self, index: int) -> str:
        return f"{self.label} item {index + 1}"

    def accepts(self, value: Any) -> bool:
        return isinstance(value, list)


@dataclass(eq=False)
class ObjectField(Field):
    """Named properties, plus a key/value editor when `additionalProperties` allows more keys."""

    property_schemas: dict[str, Any] = field(default_factory=dict)
    required_names: Sequence[str] = ()
    additional_schema: Any = None
    """The schema of extra keys' values; `None` when the schema closes the object."""

    @cached_property
    def properties(self) -> list[Field]:
        return [
            self.child(sub, name, name in self.required_names, name)
            for name, sub in self.property_schemas.items()
        ]

    @cached_property
    def additional_field(self) -> Field | None:
        if self.additional_schema is None:
            return None
        return self.child(self.additional_schema, None, True, "*")

    def property_field(self, name: str) -> Field | None:
        return next((f for f in self.properties if f.name == name), None)

    def initial_value(self, depth: int = 0) -> Any:
        if self.default is not MISSING:
            return self.default
        if depth > MAX_DEFAULT_DEPTH:
            return MISSING
        out: dict[str, Any] = {}
        for prop in self.properties:
            if not prop.required:
                continue
            value = prop.initial_value(depth + 1)
            if value is not MISSING:
                out[prop.name or ""] = value
        return out if (out or self.required or not self.path) else MISSING

    def accepts(self, value: Any) -> bool:
        return isinstance(value, dict)


@dataclass(frozen=True)
class Variant:
    title: str
    schema: Any
    words: tuple[str, ...] = ()
    """When the title is made up by the form (the schema gives none): what it says, for a view to word
    it in the person's language — ("type", T), ("from a list", T), ("list of", T), ("format", T, F),
    ("with", "names"), ("kinds", "N"), ("option", "N"). Empty: the title is the schema's own words."""
    number: int | None = None
    """Set when the title got " (N)" to tell two equal titles apart."""


@dataclass(eq=False)
class VariantField(Field):
    """`oneOf`/`anyOf` alternatives (or a `type` list): a picker and the chosen alternative's field."""

    variants: list[Variant] = field(default_factory=list)
    discriminator: str | None = None
    """A property whose `const` tells the alternatives apart (picked automatically from a value)."""

    def option(self, index: int) -> Field:
        """The field of alternative `index`, built on first use (a union of 147 objects builds one)."""
        cache: dict[int, Field] = self.__dict__.setdefault("_options", {})
        found = cache.get(index)
        if found is None:
            assert self.build_child is not None and self.ctx is not None
            # Same place in the value as the picker itself: the chosen alternative *is* this field's value.
            found = self.build_child(self.ctx, self.variants[index].schema, self.name, True, self.path)
            found.label = self.variants[index].title
            if (
                self.discriminator is not None
                and isinstance(found, ObjectField)
                and self.discriminator in found.property_schemas
                and self.discriminator not in found.required_names
            ):
                # The fixed value that names the alternative is always sent with it.
                found.required_names = (*found.required_names, self.discriminator)
            if found.help == self.help:
                found.help = ""
            cache[index] = found
        return found

    def built_options(self) -> list[Field]:
        """The alternatives built so far."""
        cache: dict[int, Field] = self.__dict__.get("_options", {})
        return list(cache.values())

    @property
    def options(self) -> list[Field]:
        """All alternatives' fields (builds every one: prefer `option(i)`)."""
        return [self.option(i) for i in range(len(self.variants))]

    def discriminator_value(self, index: int) -> Any:
        if self.discriminator is None:
            return MISSING
        option = self.option(index)
        if isinstance(option, ObjectField):
            prop = option.property_field(self.discriminator)
            if isinstance(prop, ConstField):
                return prop.value
        return MISSING

    def initial_value(self, depth: int = 0) -> Any:
        if self.default is not MISSING:
            return self.default
        if not self.required or depth > MAX_DEFAULT_DEPTH or not self.variants:
            return MISSING
        return self.option(0).initial_value(depth + 1)

    def accepts(self, value: Any) -> bool:
        return any(self.option(i).accepts(value) for i in range(len(self.variants)))


@dataclass(eq=False)
class NullField(Field):
    def initial_value(self, depth: int = 0) -> Any:
        if self.default is not MISSING:
            return self.default
        return None if self.required else MISSING

    def accepts(self, value: Any) -> bool:
        return value is None


@dataclass(eq=False)
class JsonField(Field):
    """Anything the form cannot show as fields: edited as JSON text. `reason` says why (shown as a hint)."""

    reason: str = ""
    keywords: tuple[str, ...] = ()
