"""Which env variables and headers hold values to move to the keyring on add/import."""

from __future__ import annotations

import re

from app.config.secret_names import is_secret_name

SECRET_HEADERS = frozenset({"authorization", "proxy-authorization", "cookie"})

# A value that already is (or holds) a reference is not a secret value itself.
_REFERENCE = re.compile(r"^\$\{[^}]+\}$|\$\{(?:secret|input):")

__all__ = ["is_secret_env", "is_secret_header", "is_secret_name"]


def is_secret_env(name: str, value: str) -> bool:
    """An env variable whose value should live in the keyring."""
    return bool(value) and not _REFERENCE.search(value) and is_secret_name(name)


def is_secret_header(name: str, value: str) -> bool:
    """A header whose value should live in the keyring (Authorization, X-API-Key...)."""
    if not value or _REFERENCE.search(value):
        return False
    return name.lower() in SECRET_HEADERS or is_secret_name(name)
