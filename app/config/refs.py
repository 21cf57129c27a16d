"""`${...}` references inside env, header, argument and URL values.

`${secret:NAME}` points at a keyring entry of the same server; `${env:NAME}` and `${NAME}` at the
environment (resolved at import when set, as Cursor and VS Code do at start).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

SECRET_REF = re.compile(r"\$\{secret:([A-Za-z0-9_.\-]+)\}")
ENV_REF = re.compile(r"\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}")
SECRET_NAME = re.compile(r"^[A-Za-z0-9_.\-]+$")


def secret_ref(name: str) -> str:
    return "${secret:" + name + "}"


def secret_refs(value: str) -> list[str]:
    return SECRET_REF.findall(value)


def is_valid_secret_name(name: str) -> bool:
    return bool(SECRET_NAME.match(name))


def substitute_secrets(value: str, lookup: Callable[[str], str]) -> str:
    return SECRET_REF.sub(lambda m: lookup(m.group(1)), value)


def expand_env(value: str, environ: Mapping[str, str], used: dict[str, str] | None = None) -> str:
    """Replace `${env:NAME}` / `${NAME}` by the variable's value when it is set; keep it otherwise.

    `used`, when given, receives each variable put in (name → value): at connect time those values
    are masked like secrets, since a variable may hold a key whatever it is called.
    """

    def repl(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in environ:
            return match.group(0)
        if used is not None:
            used[name] = environ[name]
        return environ[name]

    return ENV_REF.sub(repl, value)
