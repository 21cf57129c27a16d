"""Value helpers shared by the form model and its widgets: the "not set" marker and strict JSON equality."""

from __future__ import annotations

import enum
import functools
import json
import re
from typing import Any, Final

JSONValue = Any
"""A value as `json.loads` returns it (dict, list, str, int, float, bool or None)."""


class _Missing(enum.Enum):
    MISSING = "MISSING"

    def __repr__(self) -> str:
        return "MISSING"

    def __bool__(self) -> bool:
        return False


MISSING: Final = _Missing.MISSING
"""A field the user left alone: it is omitted from the arguments, unlike an explicit `null`."""

Missing = _Missing


def json_equal(a: Any, b: Any) -> bool:
    """Equality that tells `1`, `1.0` and `True` apart, as a JSON round trip would."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) and a != a:  # NaN never comes from JSON, but do not loop on it either
        return bool(b != b)
    equal: bool = a == b
    return equal


def dumps(value: Any, *, indent: int | None = None) -> str:
    """JSON text for display: non-ASCII kept readable, big integers exact."""
    return json.dumps(value, ensure_ascii=False, indent=indent)


_INVISIBLE = re.compile("[\u00a0\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff]")


def dumps_for_editing(value: Any, *, indent: int | None = None) -> str:
    """JSON text for an editor: readable, but invisible characters written as `\\uXXXX` escapes.

    Text widgets change some of them (Qt turns a no-break space into a space), and a person cannot see
    them anyway; escaped, they survive editing. They can only occur inside JSON strings, so the
    replacement cannot change the JSON's meaning.
    """
    return _INVISIBLE.sub(lambda m: f"\\u{ord(m.group()):04x}", dumps(value, indent=indent))


_WORD_BREAK = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|[_\-\s.]+")


@functools.lru_cache(maxsize=4096)
def humanise(name: str) -> str:
    """`maxResults` / `max_results` -> `Max results`: a label for a property without a title."""
    words = [w for w in _WORD_BREAK.split(name) if w]
    if not words:
        return name
    text = " ".join(w if w.isupper() and len(w) > 1 else w.lower() for w in words)
    return text[:1].upper() + text[1:]
