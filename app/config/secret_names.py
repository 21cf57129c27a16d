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


# -- names of keyring entries ----------------------------------------------------------------
# A keyring entry's name is the `NAME` of `${secret:NAME}`: letters, digits, `_`, `-` and `.`
# (app.config.refs.SECRET_NAME). Names derived from an env variable keep its spelling
# (GITHUB_TOKEN); those derived from a command-line flag or a URL parameter say where the value
# came from (ARG_API_KEY for `--api-key`, URL_TOKEN for `?token=`), in upper case like env names.


def sanitise_secret_name(wanted: str) -> str:
    """`wanted` with every character a reference cannot hold replaced by `_` (never empty)."""
    return "".join(c if c.isalnum() or c in "_-." else "_" for c in wanted) or "secret"


def unique_secret_name(wanted: str, taken: set[str]) -> str:
    """`wanted` (sanitised), or `wanted_2`, `wanted_3`... the first not in `taken`; added to it."""
    base = sanitise_secret_name(wanted)
    name, n = base, 2
    while name in taken:
        name, n = f"{base}_{n}", n + 1
    taken.add(name)
    return name


def numbered_secret_name(prefix: str, taken: set[str]) -> str:
    """`TOKEN_1`, `TOKEN_2`...: the first free one, for a value nothing names; added to `taken`."""
    n = 1
    while f"{prefix}_{n}" in taken:
        n += 1
    taken.add(f"{prefix}_{n}")
    return f"{prefix}_{n}"


def _upper_words(name: str) -> str:
    return "_".join(w.upper() for w in name_words(name))


def arg_secret_name(flag: str) -> str:
    """`--api-key` → `ARG_API_KEY`; `-k` → `ARG_K`; no flag → `ARG`."""
    words = _upper_words(flag)
    return f"ARG_{words}" if words else "ARG"


def url_secret_name(parameter: str) -> str:
    """`token` → `URL_TOKEN`; `api-key` → `URL_API_KEY`."""
    words = _upper_words(parameter)
    return f"URL_{words}" if words else "URL"
