"""The one way the app builds a JSON Schema validator for a schema a server sent.

Two promises, whatever the schema says:

- **Nothing is fetched.** A `$ref` is looked up in an empty `referencing.Registry` whose `retrieve`
  refuses, so `http(s)://`, `file:` and references relative to an unknown base never reach the
  network or the file system (jsonschema's own default registry would download them). A reference
  that does not resolve leaves that part of the value unchecked: the form shows it as JSON with a
  note, and the server judges it.
- **Nothing hangs.** `pattern`, `patternProperties` (and `additionalProperties` /
  `unevaluatedProperties`, which match property names against those patterns) are run with the
  `regex` package and a time bound. A pattern that runs out of time is reported at its field
  ("this field's pattern took too long to check") instead of freezing the window.

Used for tool forms, elicitation forms and output schemas (`app.mcp.results`) alike.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import regex
from jsonschema import Draft202012Validator
from jsonschema import _keywords as _jsonschema_keywords
from jsonschema import _legacy_keywords as _jsonschema_legacy
from jsonschema import _utils as _jsonschema_utils
from jsonschema.exceptions import ValidationError
from jsonschema.protocols import Validator
from jsonschema.validators import extend, validator_for
from referencing import Registry
from referencing.exceptions import NoSuchResource, Unresolvable

logger = logging.getLogger(__name__)

PATTERN_TIMEOUT = 0.01
"""Seconds one pattern may take on one string. `regex` checks its clock every so often, so a
runaway match stops after about two to three times this: well inside a 50 ms stall."""

PATTERN_TOO_SLOW = "pattern-timeout"
"""The `validator` (keyword) of the error a pattern that ran out of time yields."""
PATTERN_TOO_SLOW_MESSAGE = "This field's pattern took too long to check."

_CACHED_TEXT = 4096  # longer strings are not kept in the result cache (memory)


class PatternTooSlow(Exception):
    """A server's pattern did not finish on a value within PATTERN_TIMEOUT."""

    def __init__(self, pattern: str) -> None:
        super().__init__(f"the pattern {pattern[:80]!r} took too long to check")
        self.pattern = pattern


VALIDATION_BUDGET = 0.02
"""Seconds all patterns of one validation may take together (see `pattern_budget`): a form with
many runaway patterns stalls no longer than one, the rest are reported as too slow at once."""

_RESULTS: dict[tuple[str, str], bool | None] = {}
"""Remembered answers (None: ran out of time), so checking the same value again, as the form does
on every change and on Run, costs nothing. Oldest first; bounded by _KEEP."""
_KEEP = 512
_DEADLINE: ContextVar[float | None] = ContextVar("pattern_deadline", default=None)


@contextmanager
def pattern_budget(seconds: float = VALIDATION_BUDGET) -> Iterator[None]:
    """Patterns matched inside share `seconds` (an enclosing budget, if any, stays in force)."""
    if _DEADLINE.get() is not None:
        yield
        return
    token = _DEADLINE.set(time.perf_counter() + seconds)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def forget_pattern_results() -> None:
    _RESULTS.clear()


def pattern_search(pattern: str, text: str) -> bool:
    """`re.search(pattern, text) is not None`, bounded in time; raises PatternTooSlow, or
    `regex.error` for a pattern that does not compile."""
    key = (pattern, text) if len(text) <= _CACHED_TEXT else None
    if key is not None and key in _RESULTS:
        found = _RESULTS[key]
    else:
        timeout = PATTERN_TIMEOUT
        deadline = _DEADLINE.get()
        if deadline is not None:
            left = deadline - time.perf_counter()
            if left <= 0:
                raise PatternTooSlow(pattern)  # the budget is spent: not tried, not remembered
            timeout = min(timeout, left)
        try:
            found = regex.search(pattern, text, timeout=timeout) is not None
        except TimeoutError:
            found = None
        # A timeout under a shortened limit proves nothing: only full-limit answers are kept.
        if key is not None and (found is not None or timeout == PATTERN_TIMEOUT):
            if len(_RESULTS) >= _KEEP:
                _RESULTS.pop(next(iter(_RESULTS)), None)
            _RESULTS[key] = found
    if found is None:
        raise PatternTooSlow(pattern)
    return found


class _BoundedRe:
    """Stands in for the `re` module inside jsonschema's keyword helpers, which match property
    names against `patternProperties` with a bare `re.search` (find_additional_properties,
    find_evaluated_property_keys_by_schema). Everything but `search` is the real `re`."""

    def __getattr__(self, name: str) -> Any:
        return getattr(re, name)

    @staticmethod
    def search(pattern: str, string: str, flags: int = 0) -> bool | None:
        if flags or not isinstance(pattern, str) or not isinstance(string, str):
            return re.search(pattern, string, flags) is not None or None
        return pattern_search(pattern, string) or None


def _install_bounded_re() -> None:
    # jsonschema's private modules: checked by tests/forms/test_validation.py's canary, which fails
    # if a jsonschema release stops looking `re` up in these module globals.
    for module in (_jsonschema_keywords, _jsonschema_utils, _jsonschema_legacy):
        if getattr(module, "re", None) is re:
            module.re = _BoundedRe()


_install_bounded_re()

Keyword = Callable[[Any, Any, Any, Any], Iterator[ValidationError]]


def _bounded(keyword: Keyword) -> Keyword:
    """A keyword whose pattern running out of time becomes an error at the value it checked."""

    def check(validator: Any, value: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
        try:
            yield from keyword(validator, value, instance, schema)
        except PatternTooSlow as exc:
            logger.info("%s", exc)
            yield ValidationError(PATTERN_TOO_SLOW_MESSAGE, validator=PATTERN_TOO_SLOW, validator_value=value)

    return check


def _pattern(validator: Any, pattern: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "string") or not isinstance(pattern, str):
        return
    if not pattern_search(pattern, instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _unchecked_if_unresolvable(keyword: Keyword) -> Keyword:
    """`$ref` (and friends) that do not resolve — remote ones are never fetched — leave that part
    of the value unchecked rather than abandoning the whole validation."""

    def check(validator: Any, value: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
        try:
            yield from keyword(validator, value, instance, schema)
        except Unresolvable as exc:
            logger.info("$ref %r not followed: %s", value, exc)

    return check


def _refuse(uri: str) -> Any:
    logger.info("not fetching the outside schema %r", uri)
    raise NoSuchResource(ref=uri)  # type: ignore[call-arg]  # attrs-made __init__


def no_fetch_registry() -> Registry[Any]:
    """An empty registry that refuses to retrieve anything."""
    return Registry(retrieve=_refuse)  # type: ignore[call-arg]  # attrs alias of _retrieve


_SAFE_CLASSES: dict[type[Any], type[Any]] = {}
_REF_KEYWORDS = ("$ref", "$dynamicRef", "$recursiveRef")
_PATTERN_KEYWORDS = ("patternProperties", "additionalProperties", "unevaluatedProperties")


def _safe_class(cls: type[Any]) -> type[Any]:
    """`cls` with bounded patterns and non-fatal unresolvable references (one class per draft)."""
    safe = _SAFE_CLASSES.get(cls)
    if safe is not None:
        return safe
    keywords: dict[str, Any] = dict(cls.VALIDATORS)
    changed: dict[str, Any] = {}
    if "pattern" in keywords:
        changed["pattern"] = _bounded(_pattern)
    for name in _PATTERN_KEYWORDS:
        if name in keywords:
            changed[name] = _bounded(keywords[name])
    for name in _REF_KEYWORDS:
        if name in keywords:
            changed[name] = _unchecked_if_unresolvable(keywords[name])
    made: type[Any] = extend(cls, changed)
    _SAFE_CLASSES[cls] = made
    return made


def make_validator(schema: Any, *, check_formats: bool = True) -> Validator:
    """A validator for a server's schema: its `$schema`'s draft (2020-12 when unsaid), formats
    checked, no fetching, bounded patterns. Raises for a schema jsonschema cannot take at all."""
    try:
        cls = validator_for(schema, default=Draft202012Validator)
    except Exception:  # a `$schema` that is not even a string: MCP's default dialect
        cls = Draft202012Validator
    safe = _safe_class(cls)
    kwargs: dict[str, Any] = {"registry": no_fetch_registry()}
    if check_formats:
        kwargs["format_checker"] = cls.FORMAT_CHECKER
    validator: Validator = safe(schema, **kwargs)
    return validator
