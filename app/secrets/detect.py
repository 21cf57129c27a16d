"""Which env variables and headers look secret (moved to the keyring on add/import)."""

from __future__ import annotations

import re

# Whole words of a variable name that mark it as secret (API_KEY, GITHUB_PAT, DB_PASSWORD).
SECRET_WORDS = frozenset(
    {"TOKEN", "KEY", "SECRET", "PASSWORD", "PASSWD", "PAT", "CREDENTIAL", "CREDENTIALS", "APIKEY"}
)
# Word endings that do too when glued to another word (ACCESSTOKEN, CLIENTSECRET); not KEY or PAT,
# which also end harmless words (MONKEY, SPAT).
SECRET_SUFFIXES = ("TOKEN", "SECRET", "PASSWORD", "CREDENTIAL", "CREDENTIALS", "APIKEY")
SECRET_HEADERS = frozenset({"authorization", "proxy-authorization", "cookie"})

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
# A value that already is (or holds) a reference is not a secret value itself.
_REFERENCE = re.compile(r"^\$\{[^}]+\}$|\$\{(?:secret|input):")


def _words(name: str) -> list[str]:
    return [w for w in re.split(r"[^A-Za-z0-9]+", _CAMEL.sub("_", name)) if w]


def is_secret_name(name: str) -> bool:
    for word in (w.upper() for w in _words(name)):
        if word in SECRET_WORDS or word.endswith(SECRET_SUFFIXES):
            return True
    return False


def is_secret_env(name: str, value: str) -> bool:
    """An env variable whose value should live in the keyring."""
    return bool(value) and not _REFERENCE.search(value) and is_secret_name(name)


def is_secret_header(name: str, value: str) -> bool:
    """A header whose value should live in the keyring (Authorization, X-API-Key...)."""
    if not value or _REFERENCE.search(value):
        return False
    return name.lower() in SECRET_HEADERS or is_secret_name(name)
