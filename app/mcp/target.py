"""`Target`: everything needed to reach one server, with secrets already resolved.

Built from a configured entry (`target_from_config`) or from the command line
(`target_from_command_line`). A target is frozen: a changed server definition is a new target.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal, cast

from app.mcp.masking import credential_parts, mask_text, remember_secrets, spellings

Transport = Literal["stdio", "http", "sse"]
TRANSPORTS: tuple[Transport, ...] = ("stdio", "http", "sse")
DEFAULT_TIMEOUT = 60.0
Grant = Literal["authorization_code", "client_credentials", "identity_assertion"]
GRANTS: tuple[Grant, ...] = ("authorization_code", "client_credentials", "identity_assertion")


@dataclass(frozen=True, repr=False)
class OAuthOptions:
    """How to sign in to an http/sse server, from its settings (`settings.json` → `oauth`).

    Every field is optional: with none set, the sign-in discovers everything (protected-resource
    and authorization-server metadata) and uses a client metadata document or registers itself.
    """

    client_id: str | None = None
    """A pre-registered client (entered in the Edit dialog) instead of registering."""
    client_secret: str | None = None
    """That client's secret, resolved from the keyring secret `oauth.client_secret`; also in the
    target's `secret_values`."""
    scope: str | None = None
    """Scopes to ask for besides those the server asks for (space-separated)."""
    grant: Grant = "authorization_code"
    """"client_credentials": a machine client signs in with its id and secret, no browser.
    "identity_assertion": enterprise-managed (SEP-990): the organisation's identity provider's ID
    token is exchanged for an ID-JAG, which the MCP authorization server (`issuer`) takes."""
    client_metadata_url: str | None = None
    """An https URL of a Client ID Metadata Document to use as the client id where supported."""
    redirect_port: int | None = None
    """A fixed loopback port (a pre-registered client whose redirect URI names one)."""
    issuer: str | None = None
    """The authorization server a pre-registered / client-credentials client belongs to: its
    credentials are only ever sent there."""
    private_key: str | None = None
    """client_credentials with private_key_jwt: the PEM key (keyring secret `oauth.private_key`)."""
    signing_algorithm: str = "RS256"
    idp_token_endpoint: str | None = None
    idp_client_id: str | None = None
    idp_id_token: str | None = None
    """identity_assertion: the identity provider's ID token (a secret: keyring `oauth.idp_id_token`)."""

    def __repr__(self) -> str:
        secret = "set" if self.client_secret else "none"
        return f"OAuthOptions(client_id={self.client_id!r}, grant={self.grant}, client_secret={secret})"


def oauth_options_from_settings(
    data: Mapping[str, Any] | None,
    client_secret: str | None = None,
    private_key: str | None = None,
    idp_id_token: str | None = None,
) -> OAuthOptions | None:
    """`ServerSettings.oauth` (snake_case keys) as options; None when nothing is configured."""
    data = dict(data or {})
    if not data and client_secret is None and private_key is None and idp_id_token is None:
        return None
    grant = str(data.get("grant") or "authorization_code")
    if grant not in GRANTS:
        raise ValueError(f"unknown OAuth grant {grant!r} (expected authorization_code or client_credentials)")
    port_text = str(data.get("redirect_port") or "")
    port = int(port_text) if port_text.isdigit() and 0 < int(port_text) < 65536 else None

    def text(key: str) -> str | None:
        value = data.get(key)
        return str(value).strip() or None if value is not None else None

    return OAuthOptions(
        client_id=text("client_id"),
        client_secret=client_secret or None,
        scope=text("scope"),
        grant=grant,
        client_metadata_url=text("client_metadata_url"),
        redirect_port=port,
        issuer=text("issuer"),
        private_key=private_key or None,
        signing_algorithm=text("signing_algorithm") or "RS256",
        idp_token_endpoint=text("idp_token_endpoint"),
        idp_client_id=text("idp_client_id"),
        idp_id_token=idp_id_token or None,
    )


def _frozen(mapping: Mapping[str, str] | None) -> Mapping[str, str]:
    return MappingProxyType(dict(mapping or {}))


@dataclass(frozen=True, repr=False)
class Target:
    """Everything needed to connect; secret references are already replaced by their values.

    Its text forms (`describe()`, `repr()`) mask `secret_values`: a target's arguments and URL may
    hold resolved secrets, and a target ends up in reports and log lines.
    """

    name: str
    transport: Transport
    command: str | None = None
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=lambda: _frozen(None))
    cwd: str | None = None
    url: str | None = None
    headers: Mapping[str, str] = field(default_factory=lambda: _frozen(None))
    mode: str = "auto"
    """SDK connect mode: "auto" (discover, fall back to initialize), "legacy", or a modern version.
    Over SSE "auto" is "legacy" (`connect_mode`)."""
    timeout: float = DEFAULT_TIMEOUT
    """Seconds per call; each progress notification restarts the clock."""
    call_limit: float | None = None
    """The longest a call may run in all, however often it reports progress (seconds; the
    per-server setting `call_limit`); None: an hour (app.mcp.person_requests.DEFAULT_CALL_LIMIT)."""
    roots: tuple[str, ...] = ()
    secret_values: frozenset[str] = frozenset()
    """Resolved secret values: masked wherever traffic or log text is published."""
    oauth: OAuthOptions | None = None
    """Sign-in settings of an http/sse server (None: discover everything)."""
    log_level: str | None = None
    """How much the server should log (app.mcp.log_level; None: never chosen). Changed on a live
    connection with `set_log_level`, so it is no part of `same_connection`."""

    def __post_init__(self) -> None:
        # Freeze the mappings so a target can be shared between tasks without copies.
        object.__setattr__(self, "env", _frozen(self.env))
        object.__setattr__(self, "headers", _frozen(self.headers))
        object.__setattr__(self, "args", tuple(self.args))
        object.__setattr__(self, "roots", tuple(self.roots))
        oauth_secrets = (
            {self.oauth.client_secret, self.oauth.private_key, self.oauth.idp_id_token}
            if self.oauth
            else set()
        )
        # Each value in every spelling a server or a library may quote it in (JSON, URL...), and
        # the credential alone of an "Authorization: Bearer X" value.
        values = {v for v in (*self.secret_values, *oauth_secrets) if v}
        values |= {c for v in values for c in credential_parts(v)}
        values = {s for v in values for s in spellings(v)}
        object.__setattr__(self, "secret_values", frozenset(values))
        remember_secrets(self.secret_values)  # a crash report masks them too (app/crashreport.py)
        if self.transport not in TRANSPORTS:
            raise ValueError(f"unknown transport {self.transport!r} (expected stdio, http or sse)")
        if self.transport == "stdio" and not self.command:
            raise ValueError(f"server {self.name!r}: a stdio server needs a command")
        if self.transport != "stdio" and not self.url:
            raise ValueError(f"server {self.name!r}: an {self.transport} server needs a url")

    def mask(self, text: str) -> str:
        """`text` with this target's secret values masked."""
        return mask_text(text, self.secret_values) if self.secret_values else text

    def describe(self) -> str:
        """A one-line human description (no secrets: env and headers are not shown, secret
        values in the arguments and URL are masked)."""
        if self.transport == "stdio":
            return self.mask(" ".join(shlex.quote(p) for p in (self.command or "", *self.args)))
        return self.mask(f"{self.url} ({self.transport})")

    def __repr__(self) -> str:
        return f"Target({self.name!r}, {self.transport}: {self.describe()})"

    @property
    def connect_mode(self) -> str:
        """The SDK connect mode: `mode`, except that "auto" over SSE is the legacy handshake
        (2026-07-28 defines no SSE transport; app/mcp/legacy_sse.py)."""
        if self.transport == "stdio":  # as connect_mode says, without importing the SSE client
            return self.mode or "auto"
        from app.mcp.legacy_sse import connect_mode

        return connect_mode(self.transport, self.mode)

    @property
    def has_authorization_header(self) -> bool:
        return any(k.lower() == "authorization" for k in self.headers)

    @property
    def uses_oauth(self) -> bool:
        """An http/sse server signs in with OAuth unless a header already carries its
        credentials: an `Authorization` header, or (without OAuth settings) any header holding a
        secret, such as `X-API-Key`. Those keep working as plain secrets."""
        if self.transport == "stdio" or self.has_authorization_header:
            return False
        if self.oauth is not None:
            return True
        return not any(v in self.secret_values for v in self.headers.values())

    def same_connection(self, other: Target) -> bool:
        """True when `other` can reuse a live connection to this target (only roots differ)."""
        return self == other or _without_roots(self) == _without_roots(other)


def _without_roots(t: Target) -> tuple[Any, ...]:
    return (
        t.name,
        t.transport,
        t.command,
        t.args,
        dict(t.env),
        t.cwd,
        t.url,
        dict(t.headers),
        t.mode,
        t.timeout,
        t.call_limit,
        t.secret_values,
        t.oauth,
    )


def target_from_config(entry: Any, settings: Any, secret_store: Any) -> Target:
    """Glue over `app.config` and `app.secrets`: resolve the entry's secrets and apply its settings.

    `entry` is an `app.config.model.ServerEntry`, `settings` its `ServerSettings` (or None for
    defaults), `secret_store` an `app.secrets.store.SecretStore`. Raises whatever the resolver
    raises for a missing secret or an unavailable keyring, so the caller can say so.
    """
    from app.secrets.resolve import resolve_launch

    problem = getattr(entry, "problem", None)
    if problem:
        raise ValueError(f"server {entry.name!r} cannot be used as written: {problem}")
    resolved = resolve_launch(entry, secret_store)
    transport = getattr(entry, "transport", None) or ("stdio" if getattr(entry, "command", None) else "http")
    if transport not in TRANSPORTS:
        raise ValueError(f"server {entry.name!r}: unknown transport {transport!r}")
    timeout = float(getattr(settings, "timeout", DEFAULT_TIMEOUT) or DEFAULT_TIMEOUT)
    # `call_limit` (seconds) is kept by the config among the settings it passes on as written.
    limit = (getattr(settings, "extra", None) or {}).get("call_limit")
    call_limit: float | None = None
    if isinstance(limit, int | float) and not isinstance(limit, bool) and limit > 0:
        call_limit = float(limit)
    mode = str(getattr(settings, "protocol_mode", "auto") or "auto")
    roots = tuple(getattr(settings, "roots", ()) or ())
    oauth: OAuthOptions | None = None
    if transport != "stdio":
        from app.secrets.oauth import CLIENT_SECRET, IDP_ID_TOKEN, PRIVATE_KEY

        oauth_settings = getattr(settings, "oauth", None) or {}
        client_secret = private_key = idp_id_token = None
        # Only a configured client has a secret: a server without one never touches the keyring.
        if secret_store is not None and oauth_settings.get("client_id"):
            client_secret = secret_store.get(entry.name, CLIENT_SECRET)
            if oauth_settings.get("grant") == "client_credentials":
                private_key = secret_store.get(entry.name, PRIVATE_KEY)
            if oauth_settings.get("grant") == "identity_assertion":
                idp_id_token = secret_store.get(entry.name, IDP_ID_TOKEN)
        oauth = oauth_options_from_settings(oauth_settings, client_secret, private_key, idp_id_token)
    return Target(
        name=entry.name,
        transport=cast(Transport, transport),
        command=getattr(entry, "command", None),
        args=tuple(resolved.args),
        env=resolved.env,
        cwd=getattr(entry, "cwd", None),
        url=resolved.url,
        headers=resolved.headers,
        mode=mode,
        timeout=timeout,
        call_limit=call_limit,
        roots=roots,
        secret_values=frozenset(resolved.secret_values),
        oauth=oauth,
        log_level=getattr(settings, "log_level", None),
    )


def target_from_command_line(
    stdio: str | None,
    url: str | None,
    *,
    name: str | None = None,
    transport: Transport | None = None,
    env: Mapping[str, str] | None = None,
    headers: Mapping[str, str] | None = None,
    cwd: str | None = None,
    mode: str = "auto",
    timeout: float = DEFAULT_TIMEOUT,
    roots: tuple[str, ...] = (),
    secret_values: frozenset[str] = frozenset(),
) -> Target:
    """An ad-hoc target from `--stdio "COMMAND ARGS"` or `--url URL` (exactly one of them).

    A URL whose path ends in `/sse` is taken as legacy SSE unless `transport` says otherwise.
    Secrets typed into the arguments or the URL (`--api-key X`, `?token=X`) are masked like
    resolved ones: the output of a command should not repeat them.
    """
    from app.secrets.detect import find_arg_secrets, find_url_secrets

    if (stdio is None) == (url is None):
        raise ValueError("give exactly one of --stdio COMMAND or --url URL")
    if stdio is not None:
        parts = shlex.split(stdio)
        if not parts:
            raise ValueError("--stdio needs a command")
        typed = {parts[1 + f.index][f.start : f.end] for f in find_arg_secrets(parts[1:])}
        secret_values = secret_values | typed
        return Target(
            name=name or parts[0].rsplit("/", 1)[-1],
            transport="stdio",
            command=parts[0],
            args=tuple(parts[1:]),
            env=env or {},
            cwd=cwd,
            mode=mode,
            timeout=timeout,
            roots=roots,
            secret_values=secret_values,
        )
    assert url is not None
    secret_values = secret_values | {url[f.start : f.end] for f in find_url_secrets(url)}
    if transport is None:
        transport = "sse" if url.rstrip("/").endswith("/sse") else "http"
    return Target(
        name=name or url,
        transport=transport,
        url=url,
        headers=headers or {},
        mode=mode,
        timeout=timeout,
        roots=roots,
        secret_values=secret_values,
    )
