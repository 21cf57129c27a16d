"""Turn `${secret:NAME}` references into values when a connection starts, and back again on add.

Resolution happens only at connect time: the values go into the child's environment, its
arguments, the request headers or the URL, and into `secret_values`, which the engine masks in
logs and traffic. `${env:NAME}` values put in at that time are masked too.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from urllib.parse import quote, unquote

from app.config.model import ServerEntry
from app.config.refs import expand_env, is_valid_secret_name, secret_ref, substitute_secrets
from app.config.secret_names import is_secret_name, numbered_secret_name, unique_secret_name
from app.secrets.detect import (
    Finding,
    find_arg_secrets,
    find_url_secrets,
    is_secret_env,
    is_secret_header,
    marked_arg_secret,
)
from app.secrets.errors import SecretStoreError
from app.secrets.store import SecretStore

# An environment value shorter than this is not masked unless its name looks secret: masking
# "1" or "on" would blank every such character run in the traffic pane and hide nothing.
MIN_MASKED_ENV_VALUE = 4
# Characters a secret may keep when put into a URL; the others (`&`, `#`, `?`, spaces...) would
# change the URL's structure, so they are percent-encoded. `%` stays: a value taken from a URL
# was already encoded as written.
_URL_SAFE = "!$%'()*+,-./:;=@[]_~"


class MissingSecretError(SecretStoreError):
    """A referenced secret is not in the keyring."""

    def __init__(self, server: str, name: str) -> None:
        super().__init__(
            f"the key {name} is not in this computer's keychain: set it "
            f"(edit the server, or: mcp-desk secrets set {server} {name})"
        )
        self.server = server
        self.name = name


@dataclass
class ResolvedEntry:
    """What a connection is started with: every reference replaced, and the values to mask."""

    env: dict[str, str] = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)
    args: list[str] = field(default_factory=list)
    url: str | None = None
    secret_values: set[str] = field(default_factory=set, repr=False)


def resolve_launch(
    entry: ServerEntry, store: SecretStore, environ: Mapping[str, str] | None = None
) -> ResolvedEntry:
    """The entry's env, headers, args and url with `${secret:..}` and `${env:..}` filled in.

    `${env:NAME}` references still unresolved since import are filled from the environment, and
    their values are masked like secrets (a variable may hold a key whatever it is called).
    """
    environ = os.environ if environ is None else environ
    used: set[str] = set()
    cache: dict[str, str] = {}
    from_env: dict[str, str] = {}

    def lookup(name: str) -> str:
        if name not in cache:
            value = store.get(entry.name, name)
            if value is None:
                raise MissingSecretError(entry.name, name)
            cache[name] = value
        used.add(cache[name])
        return cache[name]

    def url_lookup(name: str) -> str:
        value = lookup(name)
        encoded = quote(value, safe=_URL_SAFE)
        # Logs may show the URL as sent or decoded: mask every spelling of the value.
        used.update({encoded, unquote(value)})
        return encoded

    def fill(value: str, secret: Callable[[str], str] = lookup) -> str:
        return substitute_secrets(expand_env(value, environ, from_env), secret)

    out = ResolvedEntry(
        env={k: fill(v) for k, v in entry.env.items()},
        headers={k: fill(v) for k, v in entry.headers.items()},
        args=[fill(a) for a in entry.args],
        url=fill(entry.url, url_lookup) if entry.url is not None else None,
    )
    for name, value in from_env.items():
        if len(value) >= MIN_MASKED_ENV_VALUE or (value and is_secret_name(name)):
            used.add(value)
    out.secret_values = {v for v in used if v}
    return out


def resolve_entry(
    entry: ServerEntry, store: SecretStore, environ: Mapping[str, str] | None = None
) -> tuple[dict[str, str], dict[str, str], set[str]]:
    """The entry's env and headers with references replaced, and the values to mask
    (`resolve_launch` gives the arguments and URL too)."""
    got = resolve_launch(entry, store, environ)
    return got.env, got.headers, got.secret_values


def extract_secrets(
    entry: ServerEntry,
    *,
    secret_env: Mapping[str, str] | None = None,
    secret_headers: Mapping[str, str] | None = None,
    secret_args: set[int] | None = None,
    detect: bool = True,
    taken: set[str] | None = None,
) -> dict[str, str]:
    """Replace secret env/header/argument/URL values in `entry` by `${secret:NAME}`; return them.

    `secret_env`/`secret_headers` are what the user marked, `secret_args` the positions of the
    arguments they marked; with `detect`, names that look secret (TOKEN, KEY, ... and
    `Authorization`), secret flags' values (`--api-key X`), known token shapes (`ghp_...`) and
    secret URL parameters (`?token=`) are moved too. The caller stores the values *before*
    saving the config, so a failure leaves nothing half-done on disk.
    """
    out: dict[str, str] = {}
    used = set(taken or ()) | entry.secret_refs()

    def name_for(wanted: str) -> str:
        name = unique_secret_name(wanted, used) if wanted else numbered_secret_name("TOKEN", used)
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
    out.update(extract_launch_secrets(entry, secret_args=secret_args, detect=detect, taken=used))
    return out


def extract_launch_secrets(
    entry: ServerEntry, *, secret_args: set[int] | None = None, detect: bool = True, taken: set[str]
) -> dict[str, str]:
    """The argument and URL part of `extract_secrets` (the Add dialog decides env and headers by
    its own toggles): marked and detected secrets become references; new names go to `taken`."""
    out: dict[str, str] = {}

    def name_for(wanted: str) -> str:
        name = unique_secret_name(wanted, taken) if wanted else numbered_secret_name("TOKEN", taken)
        assert is_valid_secret_name(name)
        return name

    entry.args = _move_findings(entry.args, _arg_findings(entry.args, secret_args, detect), name_for, out)
    if entry.url and detect:
        (entry.url,) = _move_findings([entry.url], find_url_secrets(entry.url), name_for, out)
    return out


def _arg_findings(args: list[str], marked: set[int] | None, detect: bool) -> list[Finding]:
    found = find_arg_secrets(args) if detect else []
    for index in sorted(marked or ()):
        if 0 <= index < len(args) and not any(f.index == index for f in found):
            mark = marked_arg_secret(args, index)
            if mark is not None:
                found.append(mark)
    return found


def _move_findings(
    values: list[str], found: list[Finding], name_for: Callable[[str], str], out: dict[str, str]
) -> list[str]:
    """`values` with each finding's span replaced by a reference; the secrets go to `out`."""
    values = list(values)
    # Names are given left to right (TOKEN_1 before TOKEN_2); spans are replaced right to left
    # so the earlier offsets in the same string stay valid.
    named = [(f, name_for(f.name)) for f in sorted(found, key=lambda f: (f.index, f.start))]
    for f, name in reversed(named):
        text = values[f.index]
        out[name] = text[f.start : f.end]
        values[f.index] = text[: f.start] + secret_ref(name) + text[f.end :]
    return values
