"""`Form`: the field tree of one schema, its default arguments, and validation with errors keyed by path."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from jsonschema.exceptions import ValidationError

from app.forms.fields import ArrayField, Field, JsonField, ObjectField, VariantField
from app.forms.registry import FORMAT_TITLES, build_field
from app.forms.resolve import SchemaContext
from app.forms.validation import PATTERN_TOO_SLOW, PATTERN_TOO_SLOW_MESSAGE, make_validator, pattern_budget
from app.forms.values import MISSING, dumps

logger = logging.getLogger(__name__)

Path = tuple[str | int, ...]


@dataclass(frozen=True)
class FieldError:
    """A problem with the value at `path` (a tuple of keys and indexes into the arguments)."""

    path: Path
    message: str
    keyword: str = ""
    """The JSON Schema keyword that failed (`required`, `minimum`, ...), or `json` for unreadable JSON."""
    detail: Any = field(default=None, compare=False, hash=False)
    """The schema's value for that keyword (the minimum, the format...), so a view can word the message
    in the person's language; `message` is the English sentence."""


_MAX_MESSAGE = 240

_TYPE_NAMES = {
    "string": "text",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "yes or no",
    "object": "an object",
    "array": "a list",
    "null": "empty",
}


def _listed(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


_MESSAGES: dict[str, Any] = {
    "required": lambda e: "This field is required.",
    "enum": lambda e: "Choose one of the listed values.",
    "const": lambda e: f"Must be {dumps(e.validator_value)}."[:_MAX_MESSAGE],
    "minLength": lambda e: f"Enter at least {e.validator_value} character(s).",
    "maxLength": lambda e: f"Enter at most {e.validator_value} character(s).",
    "minItems": lambda e: f"Add at least {e.validator_value} item(s).",
    "maxItems": lambda e: f"Keep at most {e.validator_value} item(s).",
    "minimum": lambda e: f"Must be at least {dumps(e.validator_value)}.",
    "maximum": lambda e: f"Must be at most {dumps(e.validator_value)}.",
    "exclusiveMinimum": lambda e: f"Must be more than {dumps(e.validator_value)}.",
    "exclusiveMaximum": lambda e: f"Must be less than {dumps(e.validator_value)}.",
    "multipleOf": lambda e: f"Must be a multiple of {dumps(e.validator_value)}.",
    "pattern": lambda e: f"Must match the pattern {e.validator_value}"[:_MAX_MESSAGE],
    "format": lambda e: (
        f"Not a valid {FORMAT_TITLES[e.validator_value]}."
        if e.validator_value in FORMAT_TITLES
        else "This value does not have the expected form."
    ),
    "uniqueItems": lambda e: "Items must all be different.",
    "additionalProperties": lambda e: e.message[:_MAX_MESSAGE],
    PATTERN_TOO_SLOW: lambda e: PATTERN_TOO_SLOW_MESSAGE,
    "type": lambda e: (
        "Must be " + " or ".join(_TYPE_NAMES.get(t, str(t)) for t in _listed(e.validator_value)) + "."
    ),
}
"""Friendlier texts for common failures; others keep jsonschema's message, shortened."""


def _message(error: ValidationError) -> str:
    make = _MESSAGES.get(str(error.validator))
    if make is not None:
        try:
            return str(make(error))
        except Exception:  # a message must never break validation
            pass
    text = str(error.message)
    return text if len(text) <= _MAX_MESSAGE else text[: _MAX_MESSAGE - 1] + "…"


class Form:
    """The form for one tool's `inputSchema` (or an elicitation's `requestedSchema`)."""

    def __init__(self, schema: Any) -> None:
        self.schema = schema
        self.context = SchemaContext(schema)
        self.root: Field = build_field(self.context, schema, None, True, ())

    # -- values ------------------------------------------------------------------------------------------

    def default_value(self) -> Any:
        """The arguments the untouched form sends: required fields' defaults; optional ones left out."""
        value = self.root.initial_value()
        if value is MISSING:
            return {} if isinstance(self.root, ObjectField | JsonField) else None
        return value

    # -- validation --------------------------------------------------------------------------------------

    @cached_property
    def _validator(self) -> Any:
        """Built on first use (never on form construction), without the costly metaschema check;
        never fetches a `$ref` and never lets a pattern run unbounded (app.forms.validation)."""
        if not isinstance(self.schema, dict | bool):
            return None
        try:
            return make_validator(self.schema)
        except Exception as exc:
            logger.warning("no validator for this schema: %r", exc)
            return None

    def validate(self, value: Any) -> list[FieldError]:
        """Problems with `value`, each at the path of the field that owns it. `[]` means it can be sent."""
        validator = self._validator
        if validator is None:
            return []
        try:
            with pattern_budget():
                raw = list(validator.iter_errors(value))
        except Exception as exc:  # an invalid schema (bad regex, unknown type...): let the server judge
            logger.warning("schema could not be checked: %r", exc)
            return []
        out: list[FieldError] = []
        for error in raw:
            out.extend(self._flatten(error))
        return list(dict.fromkeys(out))

    def validate_at(self, schema: Any, value: Any) -> bool | None:
        """Whether `value` fits a sub-schema (refs resolved against the root); None if unknown."""
        validator = self._validator
        if validator is None:
            return None
        try:
            with pattern_budget():
                return bool(validator.evolve(schema=schema).is_valid(value))
        except Exception:
            return None

    def _flatten(self, error: ValidationError) -> Iterable[FieldError]:
        path: Path = tuple(error.absolute_path)
        if error.validator == "required" and isinstance(error.instance, dict):
            names = error.validator_value if isinstance(error.validator_value, list) else []
            missing = [n for n in names if isinstance(n, str) and n not in error.instance]
            # jsonschema reports each missing name separately but with the whole list; duplicates are
            # dropped by validate().
            for name in missing or [""]:
                yield FieldError((*path, name) if name else path, _message(error), "required", name)
            return
        if error.validator in ("anyOf", "oneOf") and error.context:
            yield from self._branch_errors(error, path)
            return
        yield FieldError(path, _message(error), str(error.validator), error.validator_value)

    def _branch_errors(self, error: ValidationError, path: Path) -> Iterable[FieldError]:
        """For "not valid under any of the given schemas": the errors of the alternative that came closest."""
        by_branch: dict[int, list[ValidationError]] = {}
        for sub in error.context or []:
            branch = sub.relative_schema_path[0] if sub.relative_schema_path else 0
            by_branch.setdefault(int(branch), []).append(sub)
        # Closest = fewest type mismatches at the top, then fewest errors overall.
        best = min(
            by_branch.values(),
            key=lambda errs: (
                sum(1 for e in errs if e.validator in ("type", "const", "enum") and not e.relative_path),
                len(errs),
            ),
        )
        if error.validator == "oneOf" and len(by_branch) < len(error.validator_value or []):
            # More than one alternative matched: the value is ambiguous, not wrong in a field.
            yield FieldError(
                path, "The value matches more than one of the alternatives.", "oneOf", "ambiguous"
            )
            return
        if all(e.validator in ("type", "const", "enum") and not e.relative_path for e in best):
            yield FieldError(
                path, "The value does not fit any of the allowed forms.", str(error.validator), "no fit"
            )
            return
        for sub in best:
            yield from self._flatten(sub)

    # -- navigation --------------------------------------------------------------------------------------

    def field_at(self, path: Path) -> Field | None:
        """The field that owns `path` (the deepest field along it), or None for the root's own errors."""
        field: Field | None = self.root
        owner = self.root
        for key in path:
            field = _child_of(field, key)
            if field is None:
                break
            owner = field
        return owner


def _child_of(field: Field | None, key: str | int) -> Field | None:
    if isinstance(field, ObjectField) and isinstance(key, str):
        prop = field.property_field(key)
        return prop if prop is not None else field.additional_field
    if isinstance(field, ArrayField) and isinstance(key, int):
        return field.item_field
    if isinstance(field, VariantField):
        for option in field.options:
            found = _child_of(option, key)
            if found is not None:
                return found
    return None


def build_form(schema: Any) -> Form:
    """The form for `schema`. Never raises: parts it cannot show become JSON editors."""
    return Form(schema)
