"""Elicitation (`elicitation/create`, form mode): the server's `requestedSchema` as a form, and the answer.

The same model as tool forms; this module only adds what an answer is: `accept` with exactly the content
the person filled in (untouched optional fields left out), `decline`, or `cancel`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from app.forms.form import FieldError, Form, build_form

ElicitAction = Literal["accept", "decline", "cancel"]


@dataclass(frozen=True)
class ElicitationOutcome:
    """The answer to send back: `content` only with `accept`."""

    action: ElicitAction
    content: dict[str, Any] | None = None


class InvalidAnswer(ValueError):
    """`accept` with content that does not fit the requested schema; `.errors` say where."""

    def __init__(self, errors: list[FieldError]) -> None:
        super().__init__("; ".join(f"{'/'.join(map(str, e.path)) or 'answer'}: {e.message}" for e in errors))
        self.errors = errors


def _as_object_schema(requested: Any) -> dict[str, Any]:
    # A server may leave out `type: object`; the answer is always an object of named values.
    if not isinstance(requested, dict):
        return {"type": "object", "properties": {}}
    if "type" not in requested and "properties" in requested:
        return {**requested, "type": "object"}
    return requested


class ElicitationForm:
    """One elicitation request: its message and the form for its `requestedSchema`."""

    def __init__(self, requested_schema: Any, message: str = "") -> None:
        self.message = message
        self.schema = _as_object_schema(requested_schema)
        self.form: Form = build_form(self.schema)

    def default_value(self) -> dict[str, Any]:
        value = self.form.default_value()
        return value if isinstance(value, dict) else {}

    def errors(self, content: Any) -> list[FieldError]:
        if not isinstance(content, dict):
            return [FieldError((), "The answer must be a set of named values.", "type")]
        return self.form.validate(content)

    def accept(self, content: Any) -> ElicitationOutcome:
        """The accept answer carrying `content` as is; raises `InvalidAnswer` when it does not validate."""
        errors = self.errors(content)
        if errors:
            raise InvalidAnswer(errors)
        return ElicitationOutcome("accept", dict(content))

    @staticmethod
    def decline() -> ElicitationOutcome:
        return ElicitationOutcome("decline")

    @staticmethod
    def cancel() -> ElicitationOutcome:
        return ElicitationOutcome("cancel")


def elicitation_form(requested_schema: Any, message: str = "") -> ElicitationForm:
    return ElicitationForm(requested_schema, message)
