"""A local OAuth-protected MCP server for the sign-in tests, built on the SDK's server auth support.

An authorization server (AS) and a resource server (RS, the MCP endpoint) on 127.0.0.1, each on its
own random port, in one process:

    python -m tests.servers.oauth_server --port 0 [switches]     # prints the MCP URL on one line

or in a test, in a thread of the test process (`start_oauth_server`, or the fixtures in
`tests/servers/oauth_fixtures.py`).

The AS is the SDK's (`create_auth_routes`: metadata, /authorize, /token, /register, /revoke) over
`MemoryProvider`, an `OAuthAuthorizationServerProvider` whose consent is headless: /authorize
redirects straight back to the client's loopback redirect URI with `code`, `state` and `iss`
(RFC 9207), or with `error=access_denied` while `deny` is on. Redirect URIs on 127.0.0.1/localhost
match whatever their port (RFC 8252 §7.3: a native app's loopback port changes every sign-in).
The RS is a low-level SDK `Server` behind the SDK's bearer middleware with protected-resource
metadata (RFC 9728); tokens must name it as their `resource` (RFC 8707). Tools:
`whoami` (the token's subject), `echo`, `wait_expiry` (answers once the calling token's
`expires_in` is over, so the client's next request must refresh: no sleeps in the tests), and
`admin_report`, which needs the `admin` scope: without it the call is answered 403
`insufficient_scope` with the scope to ask for (step-up).

Tokens are recognisable markers: every access token, refresh token, authorization code and client
secret contains `--token-prefix` (default `oauth-test-`), so a leak test can search for it. Access
tokens are JWT-shaped by default (`header.payload.<prefix>at-<random>`: the payload says `iss`,
`sub`, `exp`, `scope`, `aud`, so a client can show the account and expiry); `--opaque` makes them
`<prefix>at-<random>`. The server never checks a signature: it looks each token up.

Switches (command line, `Options`, and at run time through `OAuthServer.set` or POST /_control/set):
`deny` (consent answers access_denied), `access_lifetime` (seconds announced as `expires_in`; the
server accepts a token 5 s longer, so the client's clock decides when it refreshes; note the SDK's
client treats `expires_in: 0` as expired on arrival and re-authorizes, so use 1), `subject`,
`iss_mode` (correct / omit / wrong).
Run-time actions: `revoke_refresh_tokens()` (every refresh then fails with invalid_grant),
`expire_access_tokens()` (every current access token is refused with 401), `stats()`.
Start-up options: `issuer_path` (an issuer with a path: `http://127.0.0.1:PORT/tenant/a`, metadata at
`/.well-known/oauth-authorization-server/tenant/a`), a pre-registered `client_id`/`client_secret`
(`client_auth`: client_secret_basic or client_secret_post, the one the metadata lists),
`registration=False` (no dynamic client registration), `refresh=False` (no refresh tokens).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import dataclasses
import json
import logging
import secrets
import socket
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any, Literal
from urllib.parse import urlsplit

import mcp_types as types
from mcp.server.auth.handlers.metadata import MetadataHandler
from mcp.server.auth.provider import (
    AccessToken,
    AuthorizationCode,
    AuthorizationParams,
    AuthorizeError,
    RefreshToken,
    TokenError,
    construct_redirect_uri,
)
from mcp.server.auth.routes import (
    build_metadata,
    build_resource_metadata_url,
    cors_middleware,
    create_auth_routes,
)
from mcp.server.auth.settings import AuthSettings, ClientRegistrationOptions, RevocationOptions
from mcp.server.lowlevel.server import Server
from mcp.shared.auth import InvalidScopeError, OAuthClientInformationFull, OAuthMetadata, OAuthToken
from pydantic import AnyHttpUrl, AnyUrl
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

logger = logging.getLogger(__name__)

MCP_SCOPE = "mcp"
ADMIN_SCOPE = "admin"
SCOPES = [MCP_SCOPE, ADMIN_SCOPE]
DEFAULT_PREFIX = "oauth-test-"
DEFAULT_SUBJECT = "alice@example.test"
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]", "::1")
URL_LINE = "MCP_OAUTH_SERVER"
"""Stdout of the subprocess: first line is the MCP URL alone; then `MCP_OAUTH_SERVER {json}` with the
issuer, AS and control URLs (for a test that wants more than the URL)."""


@dataclasses.dataclass
class Options:
    token_prefix: str = DEFAULT_PREFIX
    subject: str = DEFAULT_SUBJECT
    access_lifetime: int = 3600
    deny: bool = False
    iss_mode: Literal["correct", "omit", "wrong"] = "correct"
    opaque: bool = False
    refresh: bool = True
    registration: bool = True
    issuer_path: str = ""
    client_id: str | None = None
    client_secret: str | None = None
    client_auth: Literal["client_secret_basic", "client_secret_post"] = "client_secret_basic"
    """How the pre-registered client authenticates at /token; the metadata then lists only that
    method (a client must read it and adapt)."""

    def __post_init__(self) -> None:
        if self.issuer_path:
            self.issuer_path = "/" + self.issuer_path.strip("/")


RUNTIME_SWITCHES = ("deny", "access_lifetime", "subject", "iss_mode")


class LoopbackClient(OAuthClientInformationFull):
    """A client record whose loopback redirect URIs match on any port (RFC 8252 §7.3), and which
    may ask for any scope the server has (a step-up asks for more than it registered with)."""

    def validate_redirect_uri(self, redirect_uri: AnyUrl | None) -> AnyUrl:
        if redirect_uri is None:
            return super().validate_redirect_uri(redirect_uri)
        for registered in self.redirect_uris or []:
            if _same_loopback(str(registered), str(redirect_uri)):
                return redirect_uri
        return super().validate_redirect_uri(redirect_uri)

    def validate_scope(self, requested_scope: str | None) -> list[str] | None:
        if requested_scope is None:
            return None
        requested = requested_scope.split()
        unknown = [s for s in requested if s not in SCOPES]
        if unknown:
            raise InvalidScopeError(f"unknown scope {unknown[0]}")
        return requested


def _same_loopback(registered: str, asked: str) -> bool:
    a, b = urlsplit(registered), urlsplit(asked)
    return (
        a.scheme == b.scheme == "http"
        and a.hostname in LOOPBACK_HOSTS
        and a.hostname == b.hostname
        and (a.path or "/") == (b.path or "/")
    )


@dataclasses.dataclass
class Stats:
    registrations: int = 0
    authorizations: int = 0
    denied: int = 0
    code_exchanges: int = 0
    refreshes: int = 0
    refresh_failures: int = 0
    revocations: int = 0
    unknown_tokens: int = 0
    insufficient_scope: int = 0
    mcp_requests: int = 0


def _b64(data: dict[str, Any]) -> str:
    raw = json.dumps(data, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


class MemoryProvider:
    """The authorization server's state and the SDK provider protocol over it. One lock guards the
    state: the provider runs on the server's event loop, the test calls `OAuthServer` methods from
    its own thread."""

    def __init__(self, options: Options) -> None:
        self.options = options
        self.issuer = ""  # set once the port is known
        self.resource = ""
        self.lock = threading.Lock()
        self.clients: dict[str, LoopbackClient] = {}
        self.codes: dict[str, AuthorizationCode] = {}
        self.access_tokens: dict[str, AccessToken] = {}
        self.refresh_tokens: dict[str, RefreshToken] = {}
        self.stats = Stats()
        if options.client_id:
            self.clients[options.client_id] = LoopbackClient(
                client_id=options.client_id,
                client_secret=options.client_secret,
                redirect_uris=[AnyUrl("http://127.0.0.1/callback"), AnyUrl("http://localhost/callback")],
                token_endpoint_auth_method=options.client_auth if options.client_secret else "none",
                grant_types=["authorization_code", "refresh_token"],
                scope=" ".join(SCOPES),
            )

    def _mint(self, kind: str) -> str:
        return f"{self.options.token_prefix}{kind}-{secrets.token_hex(16)}"

    # ------------------------------------------------------------------ clients

    async def get_client(self, client_id: str) -> OAuthClientInformationFull | None:
        with self.lock:
            return self.clients.get(client_id)

    async def register_client(self, client_info: OAuthClientInformationFull) -> None:
        if client_info.client_secret is not None:
            # The SDK's handler minted a plain hex secret; ours carries the marker. The handler
            # answers with this same object, so the client receives the marked secret.
            client_info.client_secret = self._mint("cs")
        with self.lock:
            self.stats.registrations += 1
            assert client_info.client_id is not None
            self.clients[client_info.client_id] = LoopbackClient.model_validate(client_info.model_dump())

    # ------------------------------------------------------------ authorization

    async def authorize(self, client: OAuthClientInformationFull, params: AuthorizationParams) -> str:
        """Headless consent: straight back to the client with a code (or access_denied)."""
        iss = {"correct": self.issuer, "omit": None, "wrong": "http://127.0.0.1:9/not-the-issuer"}[
            self.options.iss_mode
        ]
        if self.options.deny:
            with self.lock:
                self.stats.denied += 1
            return construct_redirect_uri(
                str(params.redirect_uri),
                error="access_denied",
                error_description="The person declined.",
                state=params.state,
                iss=iss,
            )
        if not params.code_challenge:
            raise AuthorizeError("invalid_request", "PKCE code_challenge is required")
        assert client.client_id is not None
        code = AuthorizationCode(
            code=self._mint("code"),
            scopes=params.scopes or [MCP_SCOPE],
            expires_at=time.time() + 300,
            client_id=client.client_id,
            code_challenge=params.code_challenge,
            redirect_uri=params.redirect_uri,
            redirect_uri_provided_explicitly=params.redirect_uri_provided_explicitly,
            resource=params.resource,
            subject=self.options.subject,
        )
        with self.lock:
            self.stats.authorizations += 1
            self.codes[code.code] = code
        return construct_redirect_uri(str(params.redirect_uri), code=code.code, state=params.state, iss=iss)

    async def load_authorization_code(
        self, client: OAuthClientInformationFull, authorization_code: str
    ) -> AuthorizationCode | None:
        with self.lock:
            code = self.codes.get(authorization_code)
        return code if code is not None and code.client_id == client.client_id else None

    async def exchange_authorization_code(
        self, client: OAuthClientInformationFull, authorization_code: AuthorizationCode
    ) -> OAuthToken:
        with self.lock:
            if self.codes.pop(authorization_code.code, None) is None:
                raise TokenError("invalid_grant", "authorization code already used")
            self.stats.code_exchanges += 1
        return self._issue(
            authorization_code.client_id,
            authorization_code.scopes,
            authorization_code.resource,
            authorization_code.subject,
        )

    # ------------------------------------------------------------------ tokens

    def _issue(
        self, client_id: str, scopes: list[str], resource: str | None, subject: str | None
    ) -> OAuthToken:
        lifetime = self.options.access_lifetime
        now = int(time.time())
        # Accepted a little past what the client is told: the client's clock decides when to refresh,
        # and a lifetime of 0 (refresh before every request) must still leave a usable token.
        accepted_until = now + max(lifetime, 1) + 5
        marker = self._mint("at")
        if self.options.opaque:
            token = marker
        else:
            header = _b64({"alg": "HS256", "typ": "at+jwt"})
            claims = {
                "iss": self.issuer,
                "sub": subject,
                "aud": resource,
                "client_id": client_id,
                "scope": " ".join(scopes),
                "iat": now,
                "exp": now + lifetime,
            }
            token = f"{header}.{_b64(claims)}.{marker}"
        access = AccessToken(
            token=token,
            client_id=client_id,
            scopes=scopes,
            expires_at=accepted_until,
            resource=resource,
            subject=subject,
            claims={"iss": self.issuer, "announced_expiry": time.time() + lifetime},
        )
        refresh = None
        if self.options.refresh:
            refresh = RefreshToken(
                token=self._mint("rt"), client_id=client_id, scopes=scopes, resource=resource, subject=subject
            )
        with self.lock:
            self.access_tokens[access.token] = access
            if refresh is not None:
                self.refresh_tokens[refresh.token] = refresh
        return OAuthToken(
            access_token=token,
            expires_in=lifetime,
            scope=" ".join(scopes),
            refresh_token=refresh.token if refresh else None,
        )

    async def load_refresh_token(
        self, client: OAuthClientInformationFull, refresh_token: str
    ) -> RefreshToken | None:
        with self.lock:
            found = self.refresh_tokens.get(refresh_token)
            if found is None or found.client_id != client.client_id:
                self.stats.refresh_failures += 1
                return None
        return found

    async def exchange_refresh_token(
        self, client: OAuthClientInformationFull, refresh_token: RefreshToken, scopes: list[str]
    ) -> OAuthToken:
        with self.lock:
            # Rotation: the old refresh token is spent.
            if self.refresh_tokens.pop(refresh_token.token, None) is None:
                self.stats.refresh_failures += 1
                raise TokenError("invalid_grant", "refresh token revoked")
            self.stats.refreshes += 1
        return self._issue(refresh_token.client_id, scopes, refresh_token.resource, refresh_token.subject)

    async def load_access_token(self, token: str) -> AccessToken | None:
        with self.lock:
            return self.access_tokens.get(token)

    async def revoke_token(self, token: AccessToken | RefreshToken) -> None:
        with self.lock:
            self.stats.revocations += 1
            self.access_tokens.pop(token.token, None)
            self.refresh_tokens.pop(token.token, None)

    # The verifier side (the RS is in the same process; a real one would introspect).
    async def verify_token(self, token: str) -> AccessToken | None:
        found = await self.load_access_token(token)
        if found is None:
            with self.lock:
                self.stats.unknown_tokens += 1
        return found

    # ------------------------------------------------------------- test controls

    def set(self, **switches: Any) -> None:
        unknown = set(switches) - set(RUNTIME_SWITCHES)
        if unknown:
            raise ValueError(f"not a run-time switch: {sorted(unknown)}")
        with self.lock:
            for name, value in switches.items():
                setattr(self.options, name, value)

    def revoke_refresh_tokens(self) -> int:
        with self.lock:
            count = len(self.refresh_tokens)
            self.refresh_tokens.clear()
        return count

    def expire_access_tokens(self) -> int:
        with self.lock:
            count = len(self.access_tokens)
            for token in self.access_tokens.values():
                token.expires_at = 1
        return count

    def snapshot(self) -> dict[str, Any]:
        with self.lock:
            return {
                **dataclasses.asdict(self.stats),
                "clients": sorted(self.clients),
                "live_access_tokens": sum(
                    1 for t in self.access_tokens.values() if (t.expires_at or 0) >= time.time()
                ),
                "refresh_tokens": len(self.refresh_tokens),
                **{name: getattr(self.options, name) for name in RUNTIME_SWITCHES},
            }


# --------------------------------------------------------------------------------------- apps


def _listening_socket() -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    return sock


def _bind(port: int) -> socket.socket:
    sock = _listening_socket()
    sock.bind(("127.0.0.1", port))
    sock.listen(128)
    return sock


def authorization_server_app(provider: MemoryProvider, as_origin: str) -> Starlette:
    """The SDK's auth routes, moved under the issuer's path when it has one, plus /_control."""
    path = provider.options.issuer_path
    issuer = AnyHttpUrl(as_origin + path)
    registration = ClientRegistrationOptions(
        enabled=provider.options.registration, valid_scopes=SCOPES, default_scopes=[MCP_SCOPE]
    )
    revocation = RevocationOptions(enabled=True)
    sdk_routes = create_auth_routes(
        provider=provider,  # type: ignore[arg-type]  # a structural match of the protocol
        issuer_url=issuer,
        client_registration_options=registration,
        revocation_options=revocation,
    )
    # The issuer exactly as the redirect's `iss` spells it: AnyHttpUrl alone would add a "/" to a
    # path-less one, and RFC 9207 compares strings.
    built = build_metadata(issuer, None, registration, revocation).model_dump(mode="json", exclude_none=True)
    metadata = OAuthMetadata.model_validate(
        {
            **built,
            "issuer": provider.issuer,
            "authorization_response_iss_parameter_supported": provider.options.iss_mode == "correct",
            # With a pre-registered confidential client, the one method it authenticates with
            # (the SDK's authenticator checks the client's own method, so listing both would lie).
            **(
                {"token_endpoint_auth_methods_supported": [provider.options.client_auth]}
                if provider.options.client_id and provider.options.client_secret
                else {}
            ),
        }
    )
    metadata_handler = MetadataHandler(metadata).handle
    routes: list[Route] = [
        Route(
            "/.well-known/oauth-authorization-server" + path,
            endpoint=cors_middleware(metadata_handler, ["GET", "OPTIONS"]),
            methods=["GET", "OPTIONS"],
        )
    ]
    for route in sdk_routes:
        if route.path.startswith("/.well-known/"):
            continue  # replaced above (the issuer's path, the iss support flag)
        routes.append(Route(path + route.path, endpoint=route.endpoint, methods=route.methods))
    routes.extend(_control_routes(provider))
    return Starlette(routes=routes)


def _control_routes(provider: MemoryProvider) -> list[Route]:
    async def set_switches(request: Request) -> Response:
        try:
            provider.set(**(await request.json()))
        except (ValueError, TypeError) as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        return JSONResponse(provider.snapshot())

    async def revoke(request: Request) -> Response:
        return JSONResponse({"revoked": provider.revoke_refresh_tokens()})

    async def expire(request: Request) -> Response:
        return JSONResponse({"expired": provider.expire_access_tokens()})

    async def stats(request: Request) -> Response:
        return JSONResponse(provider.snapshot())

    return [
        Route("/_control/set", set_switches, methods=["POST"]),
        Route("/_control/revoke-refresh-tokens", revoke, methods=["POST"]),
        Route("/_control/expire-access-tokens", expire, methods=["POST"]),
        Route("/_control/stats", stats, methods=["GET"]),
    ]


def mcp_server(provider: MemoryProvider) -> Server[Any]:
    tools = [
        types.Tool(
            name="whoami", description="Who the access token belongs to", input_schema={"type": "object"}
        ),
        types.Tool(
            name="echo",
            description="Repeat the message back",
            input_schema={"type": "object", "properties": {"message": {"type": "string"}}},
        ),
        types.Tool(
            name="wait_expiry",
            description="Answers once the calling access token has expired by the client's clock",
            input_schema={"type": "object"},
        ),
        types.Tool(
            name="admin_report",
            description="Needs the admin scope",
            input_schema={"type": "object"},
        ),
    ]

    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        if params.name == "whoami":
            token = await provider.load_access_token(_bearer(getattr(ctx.request, "headers", {})) or "")
            text = (token.subject or "") if token else ""
        elif params.name == "wait_expiry":
            token = await provider.load_access_token(_bearer(getattr(ctx.request, "headers", {})) or "")
            expiry = float((token.claims or {}).get("announced_expiry", 0)) if token else 0.0
            # A wait for a condition, bounded: the token's `expires_in` (as the client counts it) is over.
            await asyncio.sleep(min(max(expiry - time.time(), 0.0) + 0.05, 10.0))
            text = "expired"
        elif params.name == "echo":
            text = str((params.arguments or {}).get("message", ""))
        elif params.name == "admin_report":
            text = "admin report: all well"
        else:
            return types.CallToolResult(
                content=[types.TextContent(type="text", text=f"no tool {params.name}")], is_error=True
            )
        return types.CallToolResult(content=[types.TextContent(type="text", text=text)])

    return Server("oauth-test", version="1.0.0", on_list_tools=list_tools, on_call_tool=call_tool)


def _bearer(headers: Any) -> str | None:
    value = headers.get("authorization") if headers else None
    if isinstance(value, str) and value.lower().startswith("bearer "):
        return value[7:]
    return None


def resource_server_app(provider: MemoryProvider) -> Any:
    auth = AuthSettings.model_validate(  # strings: the model keeps a path-less issuer without "/"
        {
            "issuer_url": provider.issuer,
            "resource_server_url": provider.resource,
            "required_scopes": [MCP_SCOPE],
            "validate_token_resource": True,
        }
    )
    app = mcp_server(provider).streamable_http_app(auth=auth, token_verifier=provider)
    return _scope_gate(app, provider)


def _scope_gate(app: Any, provider: MemoryProvider) -> Any:
    """ASGI wrapper: a `tools/call` of `admin_report` with a token lacking `admin` is answered 403
    insufficient_scope (RFC 6750 §3.1) naming the scopes to ask for. Everything else passes; the
    SDK's middleware inside handles missing and invalid tokens. Also counts authorized requests."""
    metadata_url = str(build_resource_metadata_url(AnyHttpUrl(provider.resource)))

    async def gate(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        token = await provider.load_access_token(_bearer(headers) or "")
        if token is None:
            await app(scope, receive, send)
            return
        with provider.lock:
            provider.stats.mcp_requests += 1
        body = b""
        messages = []
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                break
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        try:
            request = json.loads(body)
        except ValueError:
            request = None
        if (
            isinstance(request, dict)
            and request.get("method") == "tools/call"
            and (request.get("params") or {}).get("name") == "admin_report"
            and ADMIN_SCOPE not in token.scopes
        ):
            with provider.lock:
                provider.stats.insufficient_scope += 1
            challenge = (
                f'Bearer error="insufficient_scope", scope="{MCP_SCOPE} {ADMIN_SCOPE}", '
                f'resource_metadata="{metadata_url}", error_description="admin_report needs the admin scope"'
            )
            payload = json.dumps({"error": "insufficient_scope"}).encode()
            await send(
                {
                    "type": "http.response.start",
                    "status": 403,
                    "headers": [
                        (b"content-type", b"application/json"),
                        (b"www-authenticate", challenge.encode()),
                        (b"content-length", str(len(payload)).encode()),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": payload})
            return

        pending = list(messages)

        async def replay() -> Any:
            if pending:
                return pending.pop(0)
            return await receive()

        await app(scope, replay, send)

    return gate


# ------------------------------------------------------------------------------------ running


@dataclasses.dataclass
class OAuthServer:
    """A running server: its URLs and the test controls."""

    url: str
    """The MCP endpoint (the resource), `http://127.0.0.1:RS/mcp`."""
    issuer: str
    as_url: str
    provider: MemoryProvider

    @property
    def options(self) -> Options:
        return self.provider.options

    @property
    def token_prefix(self) -> str:
        return self.provider.options.token_prefix

    def set(self, **switches: Any) -> None:
        """Change run-time switches: deny, access_lifetime, subject, iss_mode."""
        self.provider.set(**switches)

    def revoke_refresh_tokens(self) -> int:
        return self.provider.revoke_refresh_tokens()

    def expire_access_tokens(self) -> int:
        return self.provider.expire_access_tokens()

    def stats(self) -> dict[str, Any]:
        return self.provider.snapshot()


class RemoteOAuthServer:
    """The same controls for a server running as a subprocess (`python -m tests.servers.oauth_server`),
    over its /_control endpoints. `info` is the JSON of its `MCP_OAUTH_SERVER` line."""

    def __init__(self, info: dict[str, str]) -> None:
        self.url = info["url"]
        self.issuer = info["issuer"]
        self.as_url = info["as_url"]
        self._control = info["control"]

    def _post(self, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        import httpx2

        response = httpx2.post(self._control + path, json=body or {}, timeout=10.0)
        response.raise_for_status()
        result: dict[str, Any] = response.json()
        return result

    def set(self, **switches: Any) -> None:
        self._post("/set", switches)

    def revoke_refresh_tokens(self) -> int:
        return int(self._post("/revoke-refresh-tokens")["revoked"])

    def expire_access_tokens(self) -> int:
        return int(self._post("/expire-access-tokens")["expired"])

    def stats(self) -> dict[str, Any]:
        import httpx2

        response = httpx2.get(self._control + "/stats", timeout=10.0)
        response.raise_for_status()
        result: dict[str, Any] = response.json()
        return result


def prepare(options: Options, port: int = 0, as_port: int = 0) -> tuple[OAuthServer, list[Any]]:
    """Bind both sockets (the URLs need the ports), build both apps; returns the handle and the
    uvicorn servers with their sockets, ready to serve."""
    import uvicorn

    rs_sock, as_sock = _bind(port), _bind(as_port)
    rs_origin = f"http://127.0.0.1:{rs_sock.getsockname()[1]}"
    as_origin = f"http://127.0.0.1:{as_sock.getsockname()[1]}"
    provider = MemoryProvider(options)
    provider.issuer = as_origin + options.issuer_path
    provider.resource = rs_origin + "/mcp"
    servers = []
    for app, sock in (
        (resource_server_app(provider), rs_sock),
        (authorization_server_app(provider, as_origin), as_sock),
    ):
        config = uvicorn.Config(app, log_level="warning", lifespan="on", timeout_graceful_shutdown=2)
        servers.append((uvicorn.Server(config), sock))
    return OAuthServer(
        url=provider.resource, issuer=provider.issuer, as_url=as_origin, provider=provider
    ), servers


async def _serve(servers: list[Any], started: threading.Event | None = None) -> None:
    async def ready() -> None:
        while not all(server.started for server, _ in servers):
            await asyncio.sleep(0.01)
        if started is not None:
            started.set()

    await asyncio.gather(*(server.serve(sockets=[sock]) for server, sock in servers), ready())


@contextlib.contextmanager
def start_oauth_server(options: Options | None = None, *, timeout: float = 30.0) -> Iterator[OAuthServer]:
    """Run the server in a thread of this process until the block ends."""
    handle, servers = prepare(options or Options())
    started = threading.Event()
    failure: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(_serve(servers, started))
        except BaseException as exc:  # reported to the test below
            failure.append(exc)
            started.set()

    thread = threading.Thread(target=run, name="oauth-test-server", daemon=True)
    thread.start()
    if not started.wait(timeout) or failure:
        for server, _ in servers:
            server.should_exit = True
        raise RuntimeError(f"the OAuth test server did not start: {failure[:1]}")
    try:
        yield handle
    finally:
        for server, _ in servers:
            server.should_exit = True
        thread.join(15.0)
        for _, sock in servers:
            sock.close()


def parse_args(argv: list[str] | None = None) -> tuple[Options, int, int]:
    p = argparse.ArgumentParser(
        prog="python -m tests.servers.oauth_server", description=__doc__.split("\n\n")[0]
    )
    p.add_argument("--port", type=int, default=0, help="the MCP (resource server) port; 0: a free one")
    p.add_argument("--as-port", type=int, default=0, help="the authorization server's port; 0: a free one")
    p.add_argument("--token-prefix", default=DEFAULT_PREFIX, help="marker in every token, code and secret")
    p.add_argument("--subject", default=DEFAULT_SUBJECT, help="the signed-in account")
    p.add_argument(
        "--access-lifetime", type=int, default=3600, metavar="S", help="expires_in of access tokens"
    )
    p.add_argument("--deny", action="store_true", help="consent answers error=access_denied")
    p.add_argument("--iss", dest="iss_mode", choices=("correct", "omit", "wrong"), default="correct")
    p.add_argument("--opaque", action="store_true", help="opaque access tokens instead of JWT-shaped ones")
    p.add_argument("--no-refresh", dest="refresh", action="store_false", help="issue no refresh tokens")
    p.add_argument(
        "--no-registration", dest="registration", action="store_false", help="no dynamic registration"
    )
    p.add_argument("--issuer-path", default="", metavar="PATH", help="an issuer with a path, e.g. /tenant/a")
    p.add_argument("--client-id", help="a pre-registered client id")
    p.add_argument("--client-secret", help="its secret (none: a public client)")
    p.add_argument(
        "--client-auth",
        choices=("client_secret_basic", "client_secret_post"),
        default="client_secret_basic",
        help="how the pre-registered client authenticates (the only method the metadata lists)",
    )
    a = p.parse_args(argv)
    options = Options(
        token_prefix=a.token_prefix,
        subject=a.subject,
        access_lifetime=a.access_lifetime,
        deny=a.deny,
        iss_mode=a.iss_mode,
        opaque=a.opaque,
        refresh=a.refresh,
        registration=a.registration,
        issuer_path=a.issuer_path,
        client_id=a.client_id,
        client_secret=a.client_secret,
        client_auth=a.client_auth,
    )
    return options, a.port, a.as_port


def main(argv: list[str] | None = None) -> None:
    options, port, as_port = parse_args(argv)
    handle, servers = prepare(options, port, as_port)
    info = {
        "url": handle.url,
        "issuer": handle.issuer,
        "as_url": handle.as_url,
        "control": handle.as_url + "/_control",
    }
    print(handle.url, flush=True)
    print(f"{URL_LINE} {json.dumps(info)}", flush=True)
    rs_port = servers[0][1].getsockname()[1]
    print(f"MCP_TEST_LISTENING 127.0.0.1:{rs_port}", file=sys.stderr, flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_serve(servers))


if __name__ == "__main__":
    main()
