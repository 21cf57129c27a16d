"""Hiding resolved secret values in anything we publish (traffic, log lines).

The walk copies the message, replacing every occurrence of a secret inside strings, and cuts
very long strings so a 50 MB result does not end up copied into the traffic pane.
"""

from __future__ import annotations

import re
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
        if type(node) is dict:
            # Values first, without their keys: nearly always there is nothing to replace.
            touch = False
            for item in node.values():
                kind = type(item)
                if kind is str:
                    if secrets or len(item) > limit:
                        touch = True
                elif kind is dict or kind is list:
                    push(item)
            if touch:
                for key, item in node.items():
                    if type(item) is str and (secrets or len(item) > limit):
                        node[key] = scrub(item, secrets, limit)
            continue
        for index, item in enumerate(node):
            kind = type(item)
            if kind is str:
                if secrets or len(item) > limit:
                    node[index] = scrub(item, secrets, limit)
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


# -- the secret values this process has resolved, for text written outside any connection --------

_KNOWN: set[str] = set()


def remember_secrets(values: Iterable[str]) -> None:
    """Note resolved secret values (a target's, a token just read or issued) so that text written
    outside any connection (a crash report) can be masked of them too. Held in memory only."""
    _KNOWN.update(v for v in values if v)


def known_secrets() -> frozenset[str]:
    return frozenset(_KNOWN)


def spellings(value: str) -> set[str]:
    """`value` as text that quotes it may spell it: as is, inside a JSON or Python string
    literal, percent-encoded. A secret echoed as `{"key": "..."}` or in a URL is still a secret."""
    import json
    from urllib.parse import quote, quote_plus

    out = {value, json.dumps(value)[1:-1], json.dumps(value, ensure_ascii=False)[1:-1], repr(value)[1:-1]}
    out.update({quote(value, safe=""), quote_plus(value, safe="")})
    return {s for s in out if s}


_AUTH_SCHEME = re.compile(r"(?:Bearer|Basic|Token|Bot|Digest|ApiKey)\s+(\S.*)", re.IGNORECASE)
MIN_CREDENTIAL = 4


def credential_parts(value: str) -> set[str]:
    """The credential inside an `Authorization` value ("Bearer X" -> X; "Basic B64" -> B64, and
    the `user:password` it decodes to, and the password): a server that says "token X is not
    valid" repeats X alone."""
    match = _AUTH_SCHEME.fullmatch(value.strip())
    if match is None:
        return set()
    credential = match.group(1)
    out = {credential}
    if value.strip().lower().startswith("basic"):
        import base64
        import binascii

        try:
            decoded = base64.b64decode(credential, validate=True).decode()
        except (binascii.Error, UnicodeDecodeError):
            decoded = ""
        out |= {decoded, decoded.partition(":")[2]}
    return {c for c in out if len(c) >= MIN_CREDENTIAL}


def mask_known(text: str) -> str:
    """`text` with every secret value this process has resolved masked, in each of its spellings."""
    if not _KNOWN:
        return text
    return mask_text(text, {s for v in _KNOWN for s in spellings(v)})


def mask_log_records() -> None:
    """Mask every known secret in every log record from now on, whoever logs it (an HTTP library
    logging the request URL with its `?token=`, a traceback quoting a header): the record's
    message and its traceback text are masked as the record is made. Idempotent."""
    import logging

    make = logging.getLogRecordFactory()
    if getattr(make, "masks_secrets", False):
        return

    def masked_record(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = make(*args, **kwargs)
        if _KNOWN:
            record.msg, record.args = mask_known(record.getMessage()), None
            if record.exc_info and not record.exc_text:
                record.exc_text = mask_known(_formatter.formatException(record.exc_info))
            if record.stack_info:
                record.stack_info = mask_known(record.stack_info)
        return record

    _formatter = logging.Formatter()
    masked_record.masks_secrets = True  # type: ignore[attr-defined]
    logging.setLogRecordFactory(masked_record)
