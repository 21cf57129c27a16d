"""What a person typed into each tool's form, kept for the session so that looking at another tool
(or a resource, or another server) and coming back finds the form as it was left.

Drafts are keyed by server and tool name (names are unique only within one server) and live in
memory only: a form may hold a key or a password, and nothing here is written to disk, logged or
sent anywhere. When a tool comes back with a different form (the server changed it, or changed it
between two connections), `fit` keeps what still fits the new form and leaves out the rest.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from app.forms.form import Form

logger = logging.getLogger(__name__)

DraftKey = tuple[str, str]  # (server, tool name)


@dataclass(frozen=True)
class Draft:
    schema: Any  # the input schema the value was typed against
    value: Any


class ToolDrafts:
    """The session's drafts, one per (server, tool)."""

    def __init__(self) -> None:
        self._drafts: dict[DraftKey, Draft] = {}

    def put(self, server: str, tool: str, schema: Any, value: Any) -> None:
        self._drafts[(server, tool)] = Draft(schema, value)

    def get(self, server: str, tool: str) -> Draft | None:
        return self._drafts.get((server, tool))

    def drop(self, server: str, tool: str) -> None:
        self._drafts.pop((server, tool), None)

    def __len__(self) -> int:
        return len(self._drafts)

    def __contains__(self, key: object) -> bool:
        return key in self._drafts


def fit(value: Any, form: Form) -> Any:
    """`value` (typed against another schema) made to fit `form`: for an object, the properties the
    new form still has, each kept only if its value is still valid there, over the new form's
    defaults; anything else is kept whole if it is valid, else dropped (None: nothing fits).

    A property that is now required but missing is no reason to drop the others: the person fills
    it in. Nested objects are kept or dropped whole (a part of an address is not worth guessing)."""
    from app.forms.fields import ObjectField

    root = form.root
    if not isinstance(value, dict) or not isinstance(root, ObjectField):
        try:
            return value if not _blocking(form, value) else None
        except Exception:
            logger.info("a draft could not be checked against the new form")
            return None
    known = set(root.property_schemas)
    kept = {k: v for k, v in value.items() if k in known} if known else dict(value)
    default = form.default_value()
    base = default if isinstance(default, dict) else {}
    for _ in range(len(kept) + 1):
        merged = {**base, **kept}
        try:
            bad = {p[0] for p in _blocking(form, merged) if p and p[0] in kept}
        except Exception:
            logger.info("a draft could not be checked against the new form")
            return base
        if not bad:
            return merged
        for key in bad:
            del kept[key]
    return {**base, **kept}


def _blocking(form: Form, value: Any) -> list[tuple[str | int, ...]]:
    """The paths of the problems with `value` other than missing required fields."""
    return [e.path for e in form.validate(value) if e.keyword != "required"]
