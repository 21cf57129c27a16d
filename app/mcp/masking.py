"""Hiding resolved secret values in anything we publish (traffic, log lines).

The walk copies the message, replacing every occurrence of a secret inside strings, and cuts
very long strings so a 50 MB result does not end up copied into the traffic pane.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

MASK = "••••••"
MAX_TRAFFIC_STRING = 64 * 1024


def mask_text(text: str, secrets: Iterable[str]) -> str:
    # Longest first, so a secret that contains another is masked whole.
    for secret in sorted(secrets, key=len, reverse=True):
        if secret and secret in text:
            text = text.replace(secret, MASK)
    return text


def scrub_fresh(value: Any, secrets: frozenset[str], limit: int = MAX_TRAFFIC_STRING) -> Any:
    """`scrub` for a value nobody else holds (a message just dumped for the traffic log): strings
    are replaced where they sit and nothing else is copied. Iterative, with exact type checks: it
    runs on every message in and out, and most hold no string to touch."""
    if type(value) is str:
        return scrub(value, secrets, limit)
    if type(value) is not dict and type(value) is not list:
        return value
    stack = [value]
    pop, push = stack.pop, stack.append
    while stack:
        node = pop()
        for key, item in node.items() if type(node) is dict else enumerate(node):
            kind = type(item)
            if kind is str:
                if secrets or len(item) > limit:
                    node[key] = scrub(item, secrets, limit)
            elif kind is dict or kind is list:
                push(item)
    return value


def scrub(value: Any, secrets: frozenset[str], limit: int | None = MAX_TRAFFIC_STRING) -> Any:
    """A copy of a JSON value with secrets masked and strings longer than `limit` shortened."""
    if isinstance(value, str):
        if secrets:
            value = mask_text(value, secrets)
        if limit is not None and len(value) > limit:
            value = value[:limit] + f"… ({len(value) - limit} more characters)"
        return value
    if isinstance(value, dict):
        return {k: scrub(v, secrets, limit) for k, v in value.items()}
    if isinstance(value, list):
        return [scrub(v, secrets, limit) for v in value]
    return value
