"""Local `$ref` resolution and `allOf` merging: turns one schema node into a flat dict the registry can read.

Only the node itself is resolved; children (`properties`, `items`, combinator branches) stay as written and
are resolved when a field for them is built. That keeps recursive schemas finite: a level is expanded only
when somebody asks for it.
"""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import unquote

logger = logging.getLogger(__name__)

Schema = dict[str, Any]

REF_NOT_FETCHED = "refers to an outside definition that is not fetched"

MAX_RESOLVE_DEPTH = 32
"""Longer `$ref`/`allOf` chains are treated as broken (a cycle such as `allOf: [{$ref: "#"}]`)."""


class Unresolvable(Exception):
    """The node cannot be turned into a form field; the message says why (it is shown to the user)."""


_MIN_KEYS = ("minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties")
_MAX_KEYS = ("maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties")
_TYPE_SUBSUMES = {("number", "integer"): "integer", ("integer", "number"): "integer"}


def _as_type_set(value: Any) -> set[str] | None:
    if isinstance(value, str):
        return {value}
    if isinstance(value, list) and all(isinstance(t, str) for t in value):
        return set(value)
    return None


def _merge_type(a: Any, b: Any) -> Any:
    sa, sb = _as_type_set(a), _as_type_set(b)
    if sa is None or sb is None:
        return a
    both = sa & sb
    for x in sa:
        for y in sb:
            narrowed = _TYPE_SUBSUMES.get((x, y))
            if narrowed:
                both.add(narrowed)
    if not both:
        raise Unresolvable(f"allOf asks for incompatible types {a!r} and {b!r}")
    listed = ([a] if isinstance(a, str) else a) + ([b] if isinstance(b, str) else b)
    ordered = [t for t in listed if t in both]
    unique = list(dict.fromkeys(ordered))
    return unique[0] if len(unique) == 1 else unique


def merge(base: Schema, extra: Schema) -> Schema:
    """Combine two schemas that must both hold (the `allOf` / `$ref`-with-siblings case) into one for display.

    The result only drives the form; validation always runs against the original schema.
    """
    out = dict(base)
    for key, value in extra.items():
        if key not in out:
            out[key] = value
            continue
        mine = out[key]
        if key == "properties" and isinstance(mine, dict) and isinstance(value, dict):
            props = dict(mine)
            for name, sub in value.items():
                props[name] = {"allOf": [props[name], sub]} if name in props else sub
            out[key] = props
        elif key == "required" and isinstance(mine, list) and isinstance(value, list):
            out[key] = list(dict.fromkeys([*mine, *value]))
        elif key == "type":
            out[key] = _merge_type(mine, value)
        elif key in _MIN_KEYS and _is_number(mine) and _is_number(value):
            out[key] = max(mine, value)
        elif key in _MAX_KEYS and _is_number(mine) and _is_number(value):
            out[key] = min(mine, value)
        elif key == "enum" and isinstance(mine, list) and isinstance(value, list):
            out[key] = [v for v in mine if v in value]
        elif key in ("anyOf", "oneOf") and mine != value:
            # Two alternatives lists must both hold: keep one here, the other as a nested allOf branch.
            out["allOf"] = [*out.get("allOf", []), {key: value}]
        # Otherwise the outer (first) annotation wins: a property's own description beats its $ref's.
    return out


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


class SchemaContext:
    """The root schema of one form: resolves local references against it."""

    def __init__(self, root: Any) -> None:
        self.root = root

    def lookup(self, ref: str) -> Any:
        """The node a local reference (`#`, `#/$defs/x`, `#/definitions/x`) points at."""
        if not ref.startswith("#"):
            # Never fetched (not even a file:): see app.forms.validation for the same rule in checks.
            raise Unresolvable(f"{REF_NOT_FETCHED} ({ref[:200]})")
        node: Any = self.root
        pointer = ref[1:]
        if pointer == "":
            return node
        if not pointer.startswith("/"):
            anchor = self._find_anchor(pointer)
            if anchor is None:
                raise Unresolvable(f"reference {ref!r} not found")
            return anchor
        for raw in pointer[1:].split("/"):
            part = unquote(raw).replace("~1", "/").replace("~0", "~")
            if isinstance(node, dict) and part in node:
                node = node[part]
            elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
                node = node[int(part)]
            else:
                raise Unresolvable(f"reference {ref!r} not found")
        return node

    def _find_anchor(self, name: str) -> Any:
        stack: list[Any] = [self.root]
        seen = 0
        while stack and seen < 100_000:
            node = stack.pop()
            seen += 1
            if isinstance(node, dict):
                if node.get("$anchor") == name:
                    return node
                stack.extend(v for v in node.values() if isinstance(v, dict | list))
            elif isinstance(node, list):
                stack.extend(v for v in node if isinstance(v, dict | list))
        return None

    def resolve(self, node: Any, _depth: int = 0) -> Schema:
        """`node` with its own `$ref` followed and its `allOf` merged (children untouched)."""
        if _depth > MAX_RESOLVE_DEPTH:
            raise Unresolvable("references nest too deeply (a reference cycle?)")
        if node is True:
            return {}
        if node is False:
            raise Unresolvable("this schema accepts no value at all")
        if not isinstance(node, dict):
            raise Unresolvable(f"not a schema: {node!r}"[:200])
        out: Schema = node
        ref = out.get("$ref")
        if ref is not None:
            if not isinstance(ref, str):
                raise Unresolvable(f"bad $ref {ref!r}")
            target = self.resolve(self.lookup(ref), _depth + 1)
            siblings = {k: v for k, v in out.items() if k != "$ref"}
            out = merge(siblings, target)
        all_of = out.get("allOf")
        if all_of is not None:
            if not isinstance(all_of, list):
                raise Unresolvable("allOf is not a list")
            merged: Schema = {k: v for k, v in out.items() if k != "allOf"}
            for branch in all_of:
                merged = merge(merged, self.resolve(branch, _depth + 1))
            if "allOf" in merged:  # merge() parked a second anyOf/oneOf there; resolve it once more
                return self.resolve(merged, _depth + 1)
            out = merged
        return out
