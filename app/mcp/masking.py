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
