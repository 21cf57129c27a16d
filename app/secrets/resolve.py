"""Turn `${secret:NAME}` references into values when a connection starts, and back again on add.

Resolution happens only at connect time: the values go into the child's environment or the
request headers and into `secret_values`, which the engine masks in logs and traffic.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from app.config.model import ServerEntry
from app.config.refs import expand_env, is_valid_secret_name, secret_ref, substitute_secrets
from app.secrets.detect import is_secret_env, is_secret_header
from app.secrets.errors import SecretStoreError
from app.secrets.store import SecretStore


class MissingSecretError(SecretStoreError):
    """A referenced secret is not in the keyring."""

    def __init__(self, server: str, name: str) -> None:
        super().__init__(
            f"the key {name} is not in this computer's keychain: set it "
            f"(edit the server, or: mcp-desk secrets set {server} {name})"
        )
        self.server = server
        self.name = name


def resolve_entry(
    entry: ServerEntry, store: SecretStore, environ: Mapping[str, str] | None = None
) -> tuple[dict[str, str], dict[str, str], set[str]]:
    """The entry's env and headers with references replaced, and the secret values used.

    `${env:NAME}` references still unresolved since import are filled from the environment too.
    """
    environ = os.environ if environ is None else environ
    used: set[str] = set()
    cache: dict[str, str] = {}

    def lookup(name: str) -> str:
        if name not in cache:
            value = store.get(entry.name, name)
            if value is None:
                raise MissingSecretError(entry.name, name)
            cache[name] = value
        used.add(cache[name])
        return cache[name]

    env = {k: substitute_secrets(expand_env(v, environ), lookup) for k, v in entry.env.items()}
    headers = {k: substitute_secrets(expand_env(v, environ), lookup) for k, v in entry.headers.items()}
    return env, headers, used


def extract_secrets(
    entry: ServerEntry,
    *,
    secret_env: Mapping[str, str] | None = None,
    secret_headers: Mapping[str, str] | None = None,
    detect: bool = True,
    taken: set[str] | None = None,
) -> dict[str, str]:
    """Replace secret env/header values in `entry` by `${secret:NAME}`; return the values.

    `secret_env`/`secret_headers` are what the user marked; with `detect`, names that look secret
    (TOKEN, KEY, ... and `Authorization`) are moved too. The caller stores the values *before*
    saving the config, so a failure leaves nothing half-done on disk.
    """
    out: dict[str, str] = {}
    used = set(taken or ()) | entry.secret_refs()

    def name_for(wanted: str) -> str:
        base = "".join(c if c.isalnum() or c in "_-." else "_" for c in wanted) or "secret"
        name, n = base, 2
        while name in used:
            name, n = f"{base}_{n}", n + 1
        used.add(name)
        assert is_valid_secret_name(name)
        return name

    for key, value in (secret_env or {}).items():
        entry.env[key] = value
    for key, value in (secret_headers or {}).items():
        entry.headers[key] = value

    for key, value in list(entry.env.items()):
        if (secret_env and key in secret_env) or (detect and is_secret_env(key, value)):
            name = name_for(key)
            out[name] = value
            entry.env[key] = secret_ref(name)
    for key, value in list(entry.headers.items()):
        if (secret_headers and key in secret_headers) or (detect and is_secret_header(key, value)):
            name = name_for(key)
            out[name] = value
            entry.headers[key] = secret_ref(name)
    return out
