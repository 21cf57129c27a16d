"""Which variable and header names look secret. Lives in config (the lower layer) because import
uses it too; `app.secrets.detect` builds the value-level checks on it."""

from __future__ import annotations

import re

# Whole words of a name that mark it as secret (API_KEY, GITHUB_PAT, DB_PASSWORD).
SECRET_WORDS = frozenset(
    {"TOKEN", "KEY", "SECRET", "PASSWORD", "PASSWD", "PAT", "CREDENTIAL", "CREDENTIALS", "APIKEY"}
)
# Word endings that do too when glued to another word (ACCESSTOKEN, PGPASSWORD); not KEY or PAT,
# which also end harmless words (MONKEY, SPAT).
SECRET_SUFFIXES = ("TOKEN", "SECRET", "PASSWORD", "CREDENTIAL", "CREDENTIALS", "APIKEY")

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def name_words(name: str) -> list[str]:
    """`clientSecret` → [client, Secret]; `X-API-Key` → [X, API, Key]."""
    return [w for w in re.split(r"[^A-Za-z0-9]+", _CAMEL.sub("_", name)) if w]


def is_secret_name(name: str) -> bool:
    for word in (w.upper() for w in name_words(name)):
        if word in SECRET_WORDS or word.endswith(SECRET_SUFFIXES):
            return True
    return False
