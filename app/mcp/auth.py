"""Sign-in (OAuth 2.1) for http/sse servers, through the SDK's providers.

The flow itself is the SDK's `OAuthClientProvider` (authorization code + PKCE S256, RFC 9728
protected-resource metadata path-based first, RFC 8414 / OpenID Connect metadata with issuers that
have paths, RFC 8707 `resource`, scope choice, step-up, refresh, Client ID Metadata Documents,
dynamic registration with `application_type: native`, the 2025-03-26 fallbacks, RFC 9207 `iss`,
credentials bound to their issuer) and its client-credentials providers. What MCP Desk adds, in
`_DeskFlow`, is policy around it:

- A plain connect never opens a browser: stored tokens are used, refreshed silently; when the
  server wants a new authorization the redirect handler raises `SignInNeeded` and the connection
  settles in NEEDS_SIGN_IN. It does not register a client either (that is done by a sign-in).
- `ServerConnection.sign_in()` makes a `SignInAttempt`: a loopback listener (app/mcp/loopback.py),
  the `Browser` to show the page with, its own timeout, a cancel switch.
- At most `MAX_AUTHORIZATIONS` authorizations in a row without a successful answer: a server
  that answers every token with 403 insufficient_scope does not loop (the SDK bounds step-up per
  request, not across requests).
- Tokens are stored with their absolute expiry (the SDK forgets it on restart and would send an
  expired token instead of refreshing), the issuer, the account to show and the client kind.
- Nothing of a token, code, verifier or client secret reaches a log line in clear
  (`SecretLogFilter` on the SDK's and httpx2's loggers) or a reason (masked, cut).

Importing this module imports the SDK's auth code (the connection imports it when it opens an
http/sse server); `AuthStatus`, `read_status` and `forget` are cheap to call.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import re
import threading
import time
import warnings
from collections import deque
from collections.abc import AsyncGenerator, Callable, Iterator
from contextlib import AbstractContextManager, AsyncExitStack, nullcontext
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol
from urllib.parse import parse_qs, urljoin, urlsplit

import httpx2
from mcp.client.auth import OAuthClientProvider, OAuthFlowError
from mcp.client.auth.extensions.client_credentials import (
    ClientCredentialsOAuthProvider,
    PrivateKeyJWTOAuthProvider,
    SignedJWTParameters,
)
from mcp.client.auth.extensions.identity_assertion import IdentityAssertionOAuthProvider
from mcp.client.auth.utils import extract_field_from_www_auth, union_scopes
from mcp.shared.auth import AuthorizationCodeResult, OAuthClientInformationFull, OAuthClientMetadata

from app.mcp.events import (
    SIGN_IN_CANCELLED,
    SIGN_IN_DECLINED,
    SIGN_IN_EXPIRED,
    SIGN_IN_NEEDED,
    SIGN_IN_TIMED_OUT,
)
from app.mcp.loopback import CallbackResult, LoopbackListener, PortInUse
from app.mcp.masking import MASK, mask_text, remember_secrets
from app.mcp.target import OAuthOptions, Target
from app.secrets.oauth import CLIENT, KeyringTokenStorage
from app.secrets.store import SecretStore
from app.words import QT_TRANSLATE_NOOP, fill

logger = logging.getLogger(__name__)

# Sign-in problems, as templates (%1, %2: the values); the window translates the sentence back
# (app.ui.i18n.translate_reason). The states' own words (app.mcp.events) are listed again here,
# literally, so that lupdate finds them.
TOO_MANY_REDIRECTS = QT_TRANSLATE_NOOP("Reasons", "could not sign in: too many redirects on the sign-in page")
EXCHANGE_REFUSED = QT_TRANSLATE_NOOP(
    "Reasons", "could not sign in: your organisation's sign-in refused the exchange (HTTP %1)"
)
EXCHANGE_REFUSED_BECAUSE = QT_TRANSLATE_NOOP(
    "Reasons", "could not sign in: your organisation's sign-in refused the exchange (HTTP %1, %2)"
)
NO_AUTHORIZATION_SERVER = QT_TRANSLATE_NOOP("Reasons", "could not sign in: %1 names no authorization server")
MORE_PERMISSIONS = QT_TRANSLATE_NOOP("Reasons", "this server asks for more permissions: sign in again")
COULD_NOT = QT_TRANSLATE_NOOP("Reasons", "could not sign in: %1")
NO_PAGE = QT_TRANSLATE_NOOP("Reasons", "could not show the sign-in page: %1")
PAGE_ANSWERED = QT_TRANSLATE_NOOP("Reasons", "the sign-in page answered %1")
WITH_DETAIL = QT_TRANSLATE_NOOP("Reasons", "%1: %2")
OTHER_ISSUER = QT_TRANSLATE_NOOP(
    "Reasons", "could not sign in: the server sends sign-ins to %1, not to %2 that this client belongs to"
)
ENTERPRISE_NEEDS = QT_TRANSLATE_NOOP("Reasons", "enterprise sign-in needs, in this server's settings: %1")
NEEDS_CLIENT_ID = QT_TRANSLATE_NOOP(
    "Reasons", "client-credentials sign-in needs a client id in this server's settings"
)
NEEDS_CLIENT_SECRET = QT_TRANSLATE_NOOP(
    "Reasons", "client-credentials sign-in needs the client secret: set the key oauth.client_secret"
)
PORT_IN_USE = QT_TRANSLATE_NOOP(
    "Reasons", "could not sign in: port %1 of this computer is in use by another program"
)
TEMPLATES: tuple[str, ...] = (
    EXCHANGE_REFUSED_BECAUSE,
    EXCHANGE_REFUSED,
    TOO_MANY_REDIRECTS,
    OTHER_ISSUER,
    PORT_IN_USE,
    NO_AUTHORIZATION_SERVER,
    COULD_NOT,
    NO_PAGE,
    PAGE_ANSWERED,
    MORE_PERMISSIONS,
    ENTERPRISE_NEEDS,
    NEEDS_CLIENT_ID,
    NEEDS_CLIENT_SECRET,
    QT_TRANSLATE_NOOP("Reasons", "sign in needed"),
    QT_TRANSLATE_NOOP("Reasons", "your sign-in has expired: sign in again"),
    QT_TRANSLATE_NOOP("Reasons", "sign-in was cancelled"),
    QT_TRANSLATE_NOOP("Reasons", "sign-in timed out"),
    QT_TRANSLATE_NOOP("Reasons", "you declined the sign-in"),
    QT_TRANSLATE_NOOP("Reasons", "signed out"),
    QT_TRANSLATE_NOOP("Reasons", "waiting for you to sign in in your browser"),
    QT_TRANSLATE_NOOP("Reasons", "waiting for your approval"),
)

SIGN_IN_TIMEOUT = 300.0
"""Seconds a sign-in waits for the person to come back from the browser."""
MAX_AUTHORIZATIONS = 3
"""Authorizations in a row (first one and step-ups) without a successful answer."""
EXPIRY_MARGIN = 30.0
"""A stored token this close to its expiry is refreshed before use rather than sent."""
MAX_REASON_DETAIL = 300

CLIENT_NAME = "MCP Desk"
DEFAULT_CLIENT_METADATA_URL: str | None = None
"""The Client ID Metadata Document MCP Desk uses where the authorization server supports them
(SEP-991; the SDK then prefers it to registering). A CIMD client id must be an https URL that
serves the document, and MCP Desk has no web home of its own yet: an invented URL would break
every sign-in with a server that supports CIMD (it fetches the document and refuses the client).
So the choice is: a server's settings may name a document (`oauth.client_metadata_url`), and
otherwise the client registers itself (dynamic registration, `application_type: native`). Once
the project publishes its document (client_id = its own URL, client_name "MCP Desk",
redirect_uris ["http://127.0.0.1/callback"] - loopback ports are free per RFC 8252 §7.3,
grant_types authorization_code + refresh_token, token_endpoint_auth_method none), its URL goes
here and every server that supports CIMD uses it first."""

ClientKind = Literal["registered", "metadata-document", "pre-registered"]


# --------------------------------------------------------------------------- the public API


class Browser(Protocol):
    """Shows the person the sign-in page. UI: the system browser; CLI: print the URL and open a
    browser when there is one; tests: `HeadlessBrowser`. Returns once the page is shown (it does
    not wait for the person): the loopback listener waits for them."""

    async def open(self, server: str, url: str) -> None: ...


@dataclass(frozen=True)
class AuthStatus:
    """What the keyring holds for a server's sign-in (display only: nothing here is trusted)."""

    signed_in: bool
    issuer: str | None = None
    account: str | None = None
    """Subject, email or name from the id_token or a JWT access token."""
    expires_at: float | None = None
    """Epoch seconds when the access token expires (None: not said)."""
    scopes: tuple[str, ...] = ()
    can_refresh: bool = False
    client: ClientKind | None = None


async def read_status(secrets: SecretStore, server: str) -> AuthStatus:
    """The sign-in status of `server` from the keyring (worker thread; never the GUI thread)."""
    storage = KeyringTokenStorage(secrets, server)
    token = await storage.get_tokens()
    client_data = await storage._read_json(CLIENT)
    extras = storage.extras
    kind = extras.get("client_kind")
    if kind not in ("registered", "metadata-document", "pre-registered"):
        kind = _client_kind_of(client_data)
    if token is None:
        issuer = client_data.get("issuer") if client_data else None
        return AuthStatus(signed_in=False, issuer=issuer, client=kind)
    expires_at = extras.get("expires_at")
    expires = float(expires_at) if isinstance(expires_at, int | float) else None
    can_refresh = bool(token.refresh_token)
    account = extras.get("account") or account_from_token(token.access_token)
    return AuthStatus(
        signed_in=bool(token.access_token) and (expires is None or expires > time.time() or can_refresh),
        issuer=extras.get("issuer") or (client_data.get("issuer") if client_data else None),
        account=str(account) if account else None,
        expires_at=expires,
        scopes=tuple((token.scope or "").split()),
        can_refresh=can_refresh,
        client=kind,
    )


async def forget(secrets: SecretStore, server: str) -> None:
    """Sign out: the tokens and the dynamic registration leave the keyring. A pre-registered
    client (its id in the settings, its secret `oauth.client_secret`) stays."""
    await KeyringTokenStorage(secrets, server).clear()


# ------------------------------------------------------------------------- problems


class SignInProblem(Exception):
    """Why a sign-in did not (or could not) happen; `reason` is the sentence for the person."""

    reason: str = SIGN_IN_NEEDED

    def __init__(self, reason: str | None = None) -> None:
        if reason is not None:
            self.reason = reason
        super().__init__(self.reason)


class SignInNeeded(SignInProblem):
    """The server wants an authorization and this connect may not open a browser."""

    def __init__(self, reason: str | None = None, scope: str | None = None) -> None:
        super().__init__(reason)
        self.scope = scope
        """The scopes the server asked for (a step-up): the next sign-in asks for them too."""


class SignInCancelled(SignInProblem):
    reason = SIGN_IN_CANCELLED


class SignInTimedOut(SignInProblem):
    reason = SIGN_IN_TIMED_OUT


class SignInDeclined(SignInProblem):
    reason = SIGN_IN_DECLINED


class SignInFailed(SignInProblem):
    """The authorization server or the flow refused (metadata, registration, token, iss...)."""


# ------------------------------------------------------------------------- browsers


class SystemBrowser:
    """The default browser of this computer (Python's `webbrowser`, in a worker thread)."""

    async def open(self, server: str, url: str) -> None:
        import webbrowser

        opened = await asyncio.to_thread(webbrowser.open, url)
        if not opened:
            logger.warning("no browser could be opened for the sign-in of %s", server)


class HeadlessBrowser:
    """A browser without a person: GETs the authorization URL and follows its redirects (to the
    loopback listener) itself. For tests and the conformance adapter, whose authorization
    servers approve at once. `pages` records (status, url without query) of what it saw."""

    def __init__(self, *, max_hops: int = 10) -> None:
        self.max_hops = max_hops
        self.opened: list[str] = []
        self.pages: list[tuple[int, str]] = []

    async def open(self, server: str, url: str) -> None:
        self.opened.append(url)
        async with httpx2.AsyncClient(follow_redirects=False, timeout=30.0) as client:
            for _ in range(self.max_hops):
                response = await client.get(url)
                self.pages.append((response.status_code, url.split("?", 1)[0]))
                location = response.headers.get("location")
                if not (response.is_redirect and location):
                    return
                url = urljoin(url, location)
        raise SignInFailed(TOO_MANY_REDIRECTS)


# ------------------------------------------------------------------ one interactive sign-in


@dataclass
class SignInAttempt:
    """One `sign_in()`: who shows the page, how long to wait, the cancel switch. The loopback
    listener is bound when the connection opens (its port is the registered redirect URI)."""

    browser: Browser
    timeout: float = SIGN_IN_TIMEOUT
    extra_scope: str | None = None
    """Scopes asked for on top of what the server asks (granted before, or a step-up's)."""
    cancelled: asyncio.Event = field(default_factory=asyncio.Event)
    waiting: bool = False
    """True while the person is in the browser."""
    loopback: LoopbackListener | None = None
    port: int = 0

    def cancel(self) -> None:
        self.cancelled.set()


@dataclass
class SignInHooks:
    """What the connection is told (all called on its loop)."""

    waiting: Callable[[str], None] = lambda url: None
    """The browser was sent to `url`: publish SignInWaiting and the CONNECTING reason."""
    resumed: Callable[[], None] = lambda: None
    """The person came back."""
    pause: Callable[[], AbstractContextManager[None]] = nullcontext
    """Stops the connect clock while the person is in the browser."""
    failed: Callable[[SignInProblem], None] = lambda problem: None
    """The sign-in did not happen (the first problem ends the connection run)."""


# -------------------------------------------------------------------- log hygiene

_LIVE_SECRETS: deque[str] = deque(maxlen=256)
"""Tokens, codes and client secrets seen by the providers of this process, masked in log records
of the loggers the filter sits on (bounded: old ones fall out)."""
_SECRET_PARAMS = re.compile(
    r"(?i)\b(code|state|access_token|refresh_token|id_token|client_secret|code_verifier|"
    r"client_assertion|assertion)=([^&\s#\"'<>]+)"
)
_BEARER = re.compile(r"(?i)\b(bearer|basic)\s+[A-Za-z0-9\-._~+/]+=*")
_JSON_SECRET = re.compile(
    r"(?i)(\"(?:access_token|refresh_token|id_token|client_secret|code|code_verifier)\"\s*:\s*\")[^\"]*"
)


_LIVE_LOCK = threading.Lock()
"""Log records come from any thread (the SDK's, httpx2's): the deque is read and written under it."""


def remember_secret(value: str | None) -> None:
    if value and len(value) >= 6:
        with _LIVE_LOCK:
            if value not in _LIVE_SECRETS:
                _LIVE_SECRETS.append(value)
        remember_secrets((value,))  # every log record and a crash report mask it too


def scrub_text(text: str, extra: frozenset[str] | set[str] = frozenset()) -> str:
    """`text` with live secrets, `extra`, secret query parameters, JSON secret fields and
    Authorization header values masked."""
    with _LIVE_LOCK:
        live = set(_LIVE_SECRETS)
    text = mask_text(text, live | set(extra))
    text = _SECRET_PARAMS.sub(lambda m: f"{m.group(1)}={MASK}", text)
    text = _JSON_SECRET.sub(lambda m: f"{m.group(1)}{MASK}", text)
    return _BEARER.sub(lambda m: f"{m.group(1)} {MASK}", text)


class SecretLogFilter(logging.Filter):
    """Masks secrets in the records of the SDK's auth loggers and httpx2 (which logs every URL,
    the loopback's `?code=` one included), and drops the SDK's "OAuth flow error" traceback for
    MCP Desk's own sign-in outcomes (a signed-out server is not an error to log)."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, SignInProblem):
            return False
        try:
            message = record.getMessage()
        except Exception:
            return True
        record.msg = scrub_text(message)
        record.args = ()
        if record.exc_info:
            record.exc_text = scrub_text(logging.Formatter().formatException(record.exc_info))
            record.exc_info = None
        return True


_FILTERED_LOGGERS = (
    "mcp.client.auth.oauth2",
    "mcp.client.auth.utils",
    "mcp.client.auth.extensions.client_credentials",
    "httpx2",
    "httpcore2.http11",
    __name__,
)
_FILTER = SecretLogFilter()
for _name in _FILTERED_LOGGERS:
    logging.getLogger(_name).addFilter(_FILTER)


# ------------------------------------------------------- enterprise-managed sign-in (SEP-990)

TOKEN_EXCHANGE_GRANT = "urn:ietf:params:oauth:grant-type:token-exchange"
ID_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id_token"
ID_JAG_TYPE = "urn:ietf:params:oauth:token-type:id-jag"


async def exchange_id_token(
    idp_token_endpoint: str, idp_client_id: str, id_token: str, audience: str, resource: str
) -> str:
    """SEP-990 leg 1 (RFC 8693 token exchange at the organisation's identity provider): the
    person's IdP ID token for an ID-JAG naming the MCP authorization server (`audience`) and the
    MCP server (`resource`). The SDK leaves this leg to the application."""
    data = {
        "grant_type": TOKEN_EXCHANGE_GRANT,
        "subject_token": id_token,
        "subject_token_type": ID_TOKEN_TYPE,
        "requested_token_type": ID_JAG_TYPE,
        "audience": audience,
        "resource": resource,
        "client_id": idp_client_id,
    }
    async with httpx2.AsyncClient(timeout=30.0) as client:
        response = await client.post(idp_token_endpoint, data=data)
    try:
        body = response.json()
    except ValueError:
        body = {}
    token = body.get("access_token") if isinstance(body, dict) else None
    if response.status_code != 200 or not isinstance(token, str):
        error = body.get("error") if isinstance(body, dict) else None
        raise SignInFailed(
            fill(EXCHANGE_REFUSED_BECAUSE, response.status_code, error)
            if error
            else fill(EXCHANGE_REFUSED, response.status_code)
        )
    remember_secret(token)
    return token


async def discover_issuer(server_url: str) -> str:
    """The authorization server a resource's protected-resource metadata names (RFC 9728, path
    first): for setting up an enterprise-managed client, whose issuer is configuration."""
    from mcp.client.auth.utils import build_protected_resource_metadata_discovery_urls
    from mcp.shared.auth import ProtectedResourceMetadata

    async with httpx2.AsyncClient(timeout=30.0) as client:
        for url in build_protected_resource_metadata_discovery_urls(None, server_url):
            response = await client.get(url)
            if response.status_code == 200:
                prm = ProtectedResourceMetadata.model_validate_json(response.content)
                if prm.authorization_servers:
                    return str(prm.authorization_servers[0])
    raise SignInFailed(fill(NO_AUTHORIZATION_SERVER, server_url))


# ------------------------------------------------------------------ account display


def jwt_claims(token: str | None) -> dict[str, Any]:
    """The claims of a JWT, decoded without verification (display only); {} for anything else."""
    if not token or token.count(".") != 2:
        return {}
    try:
        part = token.split(".")[1]
        data = json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))
    except (ValueError, UnicodeDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


def account_from_claims(claims: dict[str, Any]) -> str | None:
    for key in ("email", "preferred_username", "name", "sub"):
        value = claims.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()[:200]
    return None


def account_from_token(access_token: str | None) -> str | None:
    return account_from_claims(jwt_claims(access_token))


def _client_kind_of(client_data: dict[str, Any] | None) -> ClientKind | None:
    if not client_data:
        return None
    client_id = str(client_data.get("client_id") or "")
    if client_id.startswith("https://") and client_data.get("token_endpoint_auth_method") == "none":
        return "metadata-document"
    return "registered"


# ------------------------------------------------------------------------ the flow


def _is_step_up(response: httpx2.Response) -> bool:
    return (
        response.status_code == 403 and extract_field_from_www_auth(response, "error") == "insufficient_scope"
    )


class _Desk:
    """MCP Desk's state around one provider (one connection run)."""

    def __init__(
        self,
        target: Target,
        storage: KeyringTokenStorage,
        attempt: SignInAttempt | None,
        hooks: SignInHooks,
        fixed_client: OAuthClientInformationFull | None,
        drop_stored_client: bool,
    ) -> None:
        self.target = target
        self.options = target.oauth or OAuthOptions()
        self.storage = storage
        self.attempt = attempt
        self.hooks = hooks
        self.fixed_client = fixed_client
        self.drop_stored_client = drop_stored_client
        self.outcome: SignInProblem | None = None
        self.authorizations = 0
        self.had_tokens = False
        self.refresh_failed = False
        self.step_up_scope: str | None = None
        self.after_ready = False
        self.in_step_up = False
        self.refused_step_up: SignInProblem | None = None
        """The last step-up the person declined, cancelled or let time out (its call failed)."""

    @property
    def interactive(self) -> bool:
        return self.attempt is not None

    def needed(self) -> SignInNeeded:
        if self.step_up_scope is not None:
            return SignInNeeded(MORE_PERMISSIONS, self.step_up_scope)
        if self.refresh_failed or self.had_tokens:
            return SignInNeeded(SIGN_IN_EXPIRED)
        return SignInNeeded(SIGN_IN_NEEDED)

    def fail(self, problem: SignInProblem) -> SignInProblem:
        if self.outcome is None:
            self.outcome = problem
            logger.info("%s: %s", self.target.name, problem.reason)
            self.hooks.failed(problem)
        return self.outcome

    def mask(self, text: str) -> str:
        text = scrub_text(text, set(self.target.secret_values))
        return text if len(text) <= MAX_REASON_DETAIL else text[:MAX_REASON_DETAIL] + "…"

    # The SDK's redirect and callback handlers.

    async def redirect(self, url: str) -> None:
        attempt = self.attempt
        if attempt is None or (self.after_ready and not self.in_step_up):
            # After the sign-in's connect, only a step-up (a call needing more permissions, a
            # direct result of what the person did) may show the browser again; an expired
            # sign-in an hour later settles in NEEDS_SIGN_IN instead.
            raise self.needed()
        if attempt.cancelled.is_set():
            raise SignInCancelled()
        state = (parse_qs(urlsplit(url).query).get("state") or [""])[0]
        if attempt.loopback is None or attempt.loopback.done:
            # A second authorization (a step-up) comes back to the same registered port.
            if attempt.loopback is not None:
                await attempt.loopback.close()
            try:
                attempt.loopback = await LoopbackListener.open(attempt.port)
            except OSError as exc:
                raise SignInFailed(fill(COULD_NOT, exc.strerror or exc)) from None
        attempt.loopback.expect(state)
        attempt.waiting = True
        self.hooks.waiting(url)
        with self.hooks.pause():
            try:
                await attempt.browser.open(self.target.name, url)
            except SignInProblem:
                attempt.waiting = False
                raise
            except Exception as exc:
                attempt.waiting = False
                raise SignInFailed(fill(NO_PAGE, self.mask(str(exc)))) from None

    async def callback(self) -> AuthorizationCodeResult:
        attempt = self.attempt
        assert attempt is not None and attempt.loopback is not None
        try:
            with self.hooks.pause():
                result = await self._wait(attempt, attempt.loopback)
        finally:
            attempt.waiting = False
            await attempt.loopback.close()
        self.hooks.resumed()
        if result.error:
            if result.error == "access_denied":
                raise SignInDeclined()
            answered = fill(PAGE_ANSWERED, result.error)
            if result.error_description:
                answered = fill(WITH_DETAIL, answered, result.error_description)
            raise SignInFailed(self.mask(answered))
        remember_secret(result.code)
        return AuthorizationCodeResult(code=result.code or "", state=result.state, iss=result.iss)

    async def _wait(self, attempt: SignInAttempt, loopback: LoopbackListener) -> CallbackResult:
        if attempt.cancelled.is_set():
            raise SignInCancelled()
        answer = asyncio.ensure_future(loopback.wait(None))
        cancelled = asyncio.ensure_future(attempt.cancelled.wait())
        try:
            done, _ = await asyncio.wait(
                {answer, cancelled}, timeout=attempt.timeout, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            for task in (answer, cancelled):
                task.cancel()
        if answer in done and not answer.cancelled():
            return answer.result()
        if cancelled in done:
            raise SignInCancelled()
        raise SignInTimedOut()


class _DeskFlow(OAuthClientProvider):
    """The SDK flow with MCP Desk's policy (see the module docstring). Mixed in before one of the
    SDK's provider classes; `_desk` is set right after construction."""

    _desk: _Desk

    def connected(self) -> None:
        """The connection is ready: a new 401 no longer opens the browser."""
        self._desk.after_ready = True

    async def _initialize(self) -> None:
        await super()._initialize()
        d = self._desk
        if d.fixed_client is not None:
            self.context.client_info = d.fixed_client
        elif d.drop_stored_client:
            self.context.client_info = None  # its redirect port is taken: register again
        tokens = self.context.current_tokens
        bound_to = d.storage.extras.get("server_url")
        if tokens is not None and bound_to is not None and bound_to != d.target.url:
            # Tokens are for the server they were issued for: after the server's URL changed in
            # its settings they are not sent to the new one (which signs in afresh).
            logger.info("%s: the stored sign-in is for another URL; not using it", d.target.name)
            self.context.clear_tokens()
            tokens = None
        d.had_tokens = tokens is not None
        if tokens is not None:
            remember_secret(tokens.access_token)
            remember_secret(tokens.refresh_token)
            expires_at = d.storage.extras.get("expires_at")
            if isinstance(expires_at, int | float):
                self.context.token_expiry_time = float(expires_at) - EXPIRY_MARGIN
            self._restore_metadata(d.storage.extras)

    def _restore_metadata(self, extras: dict[str, Any]) -> None:
        """The metadata discovered when the tokens were issued: a refresh before any 401 (the
        app restarted with an expired token) must go to the real token endpoint, which the SDK
        would otherwise guess as <server origin>/token. Any 401 discovers everything again."""
        from mcp.shared.auth import OAuthMetadata, ProtectedResourceMetadata

        try:
            if self.context.oauth_metadata is None and isinstance(extras.get("as_metadata"), dict):
                self.context.oauth_metadata = OAuthMetadata.model_validate(extras["as_metadata"])
            if self.context.protected_resource_metadata is None and isinstance(
                extras.get("resource_metadata"), dict
            ):
                prm = ProtectedResourceMetadata.model_validate(extras["resource_metadata"])
                self.context.protected_resource_metadata = prm
                if prm.authorization_servers and self.context.auth_server_url is None:
                    self.context.auth_server_url = str(prm.authorization_servers[0])
        except ValueError:
            logger.debug("stored OAuth metadata of %s is unreadable", self._desk.target.name)

    async def _auth_flow(self, request: httpx2.Request) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
        d = self._desk
        if d.outcome is not None:
            raise d.outcome  # a sign-in that did not happen is final for this connection run
        flow = super()._auth_flow(request)
        try:
            outgoing = await flow.__anext__()
            while True:
                if (
                    outgoing is not request
                    and not d.interactive
                    and self.context.client_info is None
                    and outgoing.method == "POST"
                    and "authorization_code" in (self.context.client_metadata.grant_types or [])
                ):
                    # A client registration: only a sign-in registers (a plain connect leaves no
                    # trace on the authorization server).
                    raise d.needed()
                response = yield outgoing
                if outgoing is request:
                    if response.status_code < 400:
                        d.authorizations = 0
                    d.in_step_up = _is_step_up(response)
                    if d.in_step_up:
                        if d.authorizations >= MAX_AUTHORIZATIONS:
                            logger.info(
                                "%s: %d authorizations did not satisfy the server",
                                d.target.name,
                                d.authorizations,
                            )
                            return  # the caller gets the 403
                        if not d.interactive:
                            granted = (
                                self.context.current_tokens.scope if self.context.current_tokens else None
                            )
                            d.step_up_scope = union_scopes(
                                granted, extract_field_from_www_auth(response, "scope")
                            )
                outgoing = await flow.asend(response)
        except StopAsyncIteration:
            return
        except (SignInCancelled, SignInDeclined, SignInTimedOut) as exc:
            if d.after_ready and d.in_step_up and d.attempt is not None:
                # The person said no to more permissions for one call: that call gets the
                # server's 403 (ending the flow hands httpx2 the last answer; raising would end
                # the whole transport), the connection keeps what it was granted.
                d.attempt.cancelled.clear()
                d.refused_step_up = exc
                return
            raise d.fail(exc) from None
        except SignInProblem as exc:
            raise d.fail(exc) from None
        except OAuthFlowError as exc:
            raise d.fail(SignInFailed(d.mask(fill(COULD_NOT, exc)))) from None
        finally:
            await flow.aclose()

    async def _perform_authorization(self) -> httpx2.Request:
        d = self._desk
        d.authorizations += 1
        options = d.options
        extra = union_scopes(options.scope, d.attempt.extra_scope if d.attempt else None)
        if extra:
            self.context.client_metadata.scope = union_scopes(self.context.client_metadata.scope, extra)
        metadata = self.context.oauth_metadata
        if options.issuer and d.fixed_client is not None and metadata is not None:
            from mcp.client.auth.utils import issuers_match

            if not issuers_match(str(metadata.issuer), options.issuer):
                raise SignInFailed(fill(OTHER_ISSUER, metadata.issuer, options.issuer))
        client = self.context.client_info
        if d.fixed_client is not None and client is d.fixed_client and client.client_secret and metadata:
            # How a pre-registered client sends its secret is the server's record, not ours to
            # know: take the first method the server lists that we can apply (servers list
            # their preference first), client_secret_basic when it lists none (RFC 8414 §2).
            listed = metadata.token_endpoint_auth_methods_supported or ["client_secret_basic"]
            usable = [m for m in listed if m in ("client_secret_basic", "client_secret_post")]
            if usable:
                client.token_endpoint_auth_method = usable[0]
        return await super()._perform_authorization()

    async def _handle_token_response(self, response: httpx2.Response) -> None:
        self._prepare_extras(await response.aread(), refresh=False)
        await super()._handle_token_response(response)
        self._remember_tokens()

    async def _handle_refresh_response(self, response: httpx2.Response) -> bool:
        d = self._desk
        if response.status_code == 200:
            self._prepare_extras(await response.aread(), refresh=True)
        ok = await super()._handle_refresh_response(response)
        if ok:
            self._remember_tokens()
        else:
            d.refresh_failed = True
            d.storage.pending_extras = {}
            if response.status_code in (400, 401):
                # invalid_grant: the refresh token is dead; keep the registration, drop the tokens.
                with contextlib.suppress(Exception):
                    await d.storage.store.adelete(d.storage.server, "oauth.tokens")
        return ok

    def _prepare_extras(self, body: bytes, *, refresh: bool) -> None:
        d = self._desk
        try:
            data = json.loads(body)
        except ValueError:
            data = {}
        data = data if isinstance(data, dict) else {}
        account = account_from_claims(jwt_claims(data.get("id_token"))) or account_from_token(
            data.get("access_token")
        )
        previous = d.storage.extras if refresh else {}
        metadata = self.context.oauth_metadata
        client = self.context.client_info
        if d.fixed_client is not None or d.options.grant == "client_credentials":
            kind: ClientKind = "pre-registered"
        elif client is not None and client.client_id == self.context.client_metadata_url:
            kind = "metadata-document"
        else:
            kind = "registered"
        prm = self.context.protected_resource_metadata
        d.storage.pending_extras = {
            "as_metadata": metadata.model_dump(mode="json", exclude_none=True)
            if metadata is not None
            else previous.get("as_metadata"),
            "resource_metadata": prm.model_dump(mode="json", exclude_none=True)
            if prm is not None
            else previous.get("resource_metadata"),
            "issuer": str(metadata.issuer) if metadata is not None else previous.get("issuer"),
            "server_url": d.target.url,
            "account": account or previous.get("account"),
            "client_kind": kind,
        }

    def _remember_tokens(self) -> None:
        tokens = self.context.current_tokens
        if tokens is not None:
            self._desk.had_tokens = True  # a later 401 means this sign-in expired
            remember_secret(tokens.access_token)
            remember_secret(tokens.refresh_token)


class _DeskAuthorizationCode(_DeskFlow):
    pass


class _DeskClientCredentials(_DeskFlow, ClientCredentialsOAuthProvider):
    pass


class _DeskPrivateKeyJWT(_DeskFlow, PrivateKeyJWTOAuthProvider):
    pass


class _DeskIdentityAssertion(IdentityAssertionOAuthProvider):
    """SEP-990 leg 2 (the SDK's jwt-bearer provider) with the same outcome handling; leg 1 is
    `exchange_id_token`, run for each assertion the SDK asks for."""

    _desk: _Desk

    def connected(self) -> None:
        self._desk.after_ready = True

    async def _auth_flow(self, request: httpx2.Request) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
        d = self._desk
        if d.outcome is not None:
            raise d.outcome
        flow = super()._auth_flow(request)
        try:
            outgoing = await flow.__anext__()
            while True:
                response = yield outgoing
                outgoing = await flow.asend(response)
        except StopAsyncIteration:
            return
        except SignInProblem as exc:
            raise d.fail(exc) from None
        except OAuthFlowError as exc:
            raise d.fail(SignInFailed(d.mask(fill(COULD_NOT, exc)))) from None
        finally:
            await flow.aclose()


DeskAuth = _DeskFlow | _DeskIdentityAssertion


def _stored_port(client_data: dict[str, Any] | None) -> int:
    """The loopback port of a stored dynamic registration's redirect URI (0: none)."""
    if not client_data or _client_kind_of(client_data) != "registered":
        return 0
    uris = client_data.get("redirect_uris") or []
    if not uris:
        return 0
    parts = urlsplit(str(uris[0]))
    if parts.hostname in ("127.0.0.1", "localhost") and parts.port:
        return int(parts.port)
    return 0


def _identity_assertion(target: Target, storage: KeyringTokenStorage, hooks: SignInHooks) -> DeskAuth:
    options = target.oauth or OAuthOptions()
    missing = [
        name
        for name, value in (
            ("client id", options.client_id),
            ("client secret", options.client_secret),
            ("issuer", options.issuer),
            ("identity provider token endpoint", options.idp_token_endpoint),
            ("identity provider client id", options.idp_client_id),
            ("identity provider ID token", options.idp_id_token),
        )
        if not value
    ]
    if missing:
        raise SignInFailed(fill(ENTERPRISE_NEEDS, ", ".join(missing)))
    assert options.idp_token_endpoint and options.idp_client_id and options.idp_id_token

    async def id_jag(audience: str, resource: str) -> str:
        assert options.idp_token_endpoint and options.idp_client_id and options.idp_id_token
        return await exchange_id_token(
            options.idp_token_endpoint, options.idp_client_id, options.idp_id_token, audience, resource
        )

    provider = _DeskIdentityAssertion(
        target.url or "",
        storage,
        options.client_id or "",
        options.client_secret or "",
        options.issuer or "",
        id_jag,
        scope=options.scope,
        token_endpoint_auth_method="client_secret_basic",
    )
    provider._desk = _Desk(target, storage, None, hooks, None, False)
    return provider


async def _close_loopback(attempt: SignInAttempt) -> None:
    if attempt.loopback is not None:
        await attempt.loopback.close()


@contextlib.contextmanager
def _no_issuer_warning() -> Iterator[None]:
    # Without a configured issuer the SDK warns (deprecated): the credentials go to whichever
    # authorization server the MCP server names. That is the person's configuration, said once
    # in the docs, not a warning on every connect.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


async def open_auth(
    target: Target,
    storage: KeyringTokenStorage,
    stack: AsyncExitStack,
    *,
    attempt: SignInAttempt | None = None,
    hooks: SignInHooks | None = None,
) -> DeskAuth:
    """The httpx2 `Auth` for one connection run of `target`. With an `attempt`, binds its loopback
    listener (closed by `stack`): on the stored registration's port when it has one and the
    port is free, else on a random port, registering again."""
    hooks = hooks or SignInHooks()
    options = target.oauth or OAuthOptions()
    url = target.url or ""
    provider: DeskAuth
    if options.grant == "identity_assertion":
        return _identity_assertion(target, storage, hooks)
    if options.grant == "client_credentials":
        if not options.client_id:
            raise SignInFailed(NEEDS_CLIENT_ID)
        with _no_issuer_warning():
            if options.private_key:
                params = SignedJWTParameters(
                    issuer=options.client_id,
                    subject=options.client_id,
                    signing_key=options.private_key,
                    signing_algorithm=options.signing_algorithm,
                )
                provider = _DeskPrivateKeyJWT(
                    url,
                    storage,
                    options.client_id,
                    params.create_assertion_provider(),
                    scope=options.scope,
                    issuer=options.issuer,
                )
            else:
                if not options.client_secret:
                    raise SignInFailed(NEEDS_CLIENT_SECRET)
                provider = _DeskClientCredentials(
                    url,
                    storage,
                    options.client_id,
                    options.client_secret,
                    scope=options.scope,
                    issuer=options.issuer,
                )
        provider._desk = _Desk(target, storage, None, hooks, None, False)
        return provider

    stored = await storage._read_json(CLIENT)
    drop_stored = False
    port = options.redirect_port or 0
    if attempt is not None:
        wanted = port or _stored_port(stored)
        try:
            attempt.loopback = await LoopbackListener.open(wanted)
        except PortInUse:
            if options.redirect_port:
                raise SignInFailed(fill(PORT_IN_USE, options.redirect_port)) from None
            attempt.loopback = await LoopbackListener.open(0)
            drop_stored = True
            logger.info("%s: the registered sign-in port %d is taken; registering again", target.name, wanted)
        attempt.port = attempt.loopback.port
        stack.push_async_callback(_close_loopback, attempt)
        redirect_uri = attempt.loopback.redirect_uri
    else:
        stored_uris = (stored or {}).get("redirect_uris") or []
        # Never used to authorize (a plain connect does not), but the SDK wants one.
        fallback = f"http://127.0.0.1:{port}/callback" if port else "http://127.0.0.1/callback"
        redirect_uri = str(stored_uris[0]) if stored_uris else fallback
    fixed: OAuthClientInformationFull | None = None
    if options.client_id:
        fixed = OAuthClientInformationFull(
            client_id=options.client_id,
            client_secret=options.client_secret,
            redirect_uris=[redirect_uri],  # type: ignore[list-item]
            grant_types=["authorization_code", "refresh_token"],
            token_endpoint_auth_method="client_secret_basic" if options.client_secret else "none",
        )
    metadata = OAuthClientMetadata(
        client_name=CLIENT_NAME,
        redirect_uris=[redirect_uri],  # type: ignore[list-item]
        grant_types=["authorization_code", "refresh_token"],
        response_types=["code"],
        application_type="native",
        scope=options.scope,
        software_id="mcp-desk",
    )
    desk = _Desk(target, storage, attempt, hooks, fixed, drop_stored)
    provider = _DeskAuthorizationCode(
        url,
        metadata,
        storage,
        redirect_handler=desk.redirect,
        callback_handler=desk.callback,
        client_metadata_url=options.client_metadata_url or DEFAULT_CLIENT_METADATA_URL,
    )
    provider._desk = desk
    return provider
