"""The OAuth test server itself, driven by the SDK's own client (`OAuthClientProvider`), so the
sign-in tests of the app can trust what it does: registration, PKCE code flow with `iss`, refresh,
revocation, denial, an issuer with a path, a pre-registered client, step-up, the subprocess mode."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx2
import pytest
from mcp.client.auth import OAuthClientProvider
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import (
    AuthorizationCodeResult,
    OAuthClientInformationFull,
    OAuthClientMetadata,
)
from pydantic import AnyUrl

from tests.servers.oauth_fixtures import *  # noqa: F403
from tests.servers.oauth_server import OAuthServer, RemoteOAuthServer
from tests.support.token_storage import MemoryStorage

pytestmark = pytest.mark.anyio

REDIRECT = "http://127.0.0.1:45678/callback"


class Redirects:
    """The SDK's redirect/callback handlers, answering as a browser would (no loopback listener:
    the authorization server's redirect is read, not followed)."""

    def __init__(self) -> None:
        self.answers: list[dict[str, str]] = []

    async def redirect(self, url: str) -> None:
        async with httpx2.AsyncClient() as client:
            response = await client.get(url)
        assert response.status_code == 302, response.text
        location = response.headers["location"]
        assert location.startswith(REDIRECT.replace(":45678", ":45678"))
        self.answers.append({k: v[0] for k, v in parse_qs(urlsplit(location).query).items()})

    async def callback(self) -> AuthorizationCodeResult:
        answer = self.answers[-1]
        if "error" in answer:
            raise RuntimeError(f"authorization refused: {answer['error']}")
        return AuthorizationCodeResult(code=answer["code"], state=answer.get("state"), iss=answer.get("iss"))


async def session_calls(
    url: str,
    storage: MemoryStorage,
    redirects: Redirects,
    *calls: str | Callable[[], object],
    client_id: str | None = None,
) -> list[str]:
    """Connect, call each tool (a callable in `calls` runs between two calls), return the texts."""
    metadata = OAuthClientMetadata(redirect_uris=[AnyUrl(REDIRECT)], client_name="sdk test")
    if client_id is not None and storage.client is None:
        storage.client = OAuthClientInformationFull(
            client_id=client_id,
            client_secret="pre-secret",
            redirect_uris=[AnyUrl(REDIRECT)],
            token_endpoint_auth_method="client_secret_post",
        )
    auth = OAuthClientProvider(url, metadata, storage, redirects.redirect, redirects.callback)
    answers = []
    async with (
        httpx2.AsyncClient(auth=auth) as http,
        streamable_http_client(url, http_client=http) as streams,
        ClientSession(streams[0], streams[1]) as session,
    ):
        await session.initialize()
        for name in calls:
            if callable(name):
                name()
                continue
            result = await session.call_tool(name, {"message": "hi"})
            block = result.content[0]
            answers.append(getattr(block, "text", ""))
    return answers


def claims(token: str) -> dict[str, Any]:
    payload = token.split(".")[1]
    value: dict[str, Any] = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    return value


async def test_sign_in_whoami_and_marked_tokens(oauth_server_factory: Callable[..., OAuthServer]) -> None:
    server = oauth_server_factory(token_prefix="MARK7-", subject="bob@example.test")
    storage, redirects = MemoryStorage(), Redirects()
    assert await session_calls(server.url, storage, redirects, "whoami") == ["bob@example.test"]
    answer = redirects.answers[0]
    assert answer["iss"] == server.issuer and answer["code"].startswith("MARK7-code-")
    assert storage.tokens is not None and storage.client is not None
    assert storage.tokens.access_token.split(".")[2].startswith("MARK7-at-")
    assert (storage.tokens.refresh_token or "").startswith("MARK7-rt-")
    assert (storage.client.client_secret or "").startswith("MARK7-cs-")
    jwt = claims(storage.tokens.access_token)
    assert (jwt["sub"], jwt["iss"], jwt["aud"], jwt["scope"]) == (
        "bob@example.test",
        server.issuer,
        server.url,
        "mcp",
    )
    stats = server.stats()
    assert (stats["registrations"], stats["authorizations"], stats["code_exchanges"]) == (1, 1, 1)

    # The stored tokens work again without a new authorization.
    assert await session_calls(server.url, storage, Redirects(), "echo") == ["hi"]
    assert server.stats()["authorizations"] == 1


async def test_no_token_is_a_401_challenge(oauth_server: OAuthServer) -> None:
    async with httpx2.AsyncClient() as client:
        response = await client.post(oauth_server.url, json={})
        assert response.status_code == 401
        challenge = response.headers["www-authenticate"]
        assert "resource_metadata=" in challenge
        prm_url = challenge.split('resource_metadata="')[1].split('"')[0]
        prm = (await client.get(prm_url)).json()
    assert prm["resource"] == oauth_server.url and prm["authorization_servers"] == [oauth_server.issuer]


async def test_short_lifetime_refreshes_and_revoked_refresh_fails(oauth_server: OAuthServer) -> None:
    # The SDK client refreshes once its own clock passes `expires_in`; a lifetime of 1 s and a
    # `wait` tool that returns after the token's expiry make it refresh inside one session.
    oauth_server.set(access_lifetime=1)
    storage, redirects = MemoryStorage(), Redirects()
    answers = await session_calls(oauth_server.url, storage, redirects, "whoami", "wait_expiry", "echo")
    assert answers[0] == "alice@example.test" and answers[2] == "hi"
    stats = oauth_server.stats()
    assert stats["refreshes"] >= 1 and stats["authorizations"] == 1

    # Revoked: the next refresh fails and the SDK falls back to a full authorization.
    revoked = []
    await session_calls(
        oauth_server.url,
        MemoryStorage(),
        redirects,
        "whoami",
        lambda: revoked.append(oauth_server.revoke_refresh_tokens()),
        "wait_expiry",
        "echo",
    )
    assert revoked[0] >= 1
    stats = oauth_server.stats()
    assert stats["refresh_failures"] >= 1 and stats["authorizations"] == 3


async def test_expired_access_tokens_are_refused(oauth_server: OAuthServer) -> None:
    storage = MemoryStorage()
    await session_calls(oauth_server.url, storage, Redirects(), "echo")
    assert oauth_server.expire_access_tokens() == 1
    assert storage.tokens is not None
    async with httpx2.AsyncClient() as client:
        response = await client.post(
            oauth_server.url, json={}, headers={"Authorization": f"Bearer {storage.tokens.access_token}"}
        )
    assert response.status_code == 401


async def test_deny_answers_access_denied_with_state_and_iss(oauth_server: OAuthServer) -> None:
    oauth_server.set(deny=True)
    redirects = Redirects()
    with pytest.raises(Exception):  # noqa: B017  # the SDK's flow error, in an exception group
        await session_calls(oauth_server.url, MemoryStorage(), redirects, "whoami")
    answer = redirects.answers[0]
    assert answer["error"] == "access_denied" and answer["state"] and answer["iss"] == oauth_server.issuer
    assert oauth_server.stats()["denied"] == 1


async def test_issuer_with_a_path(oauth_server_factory: Callable[..., OAuthServer]) -> None:
    server = oauth_server_factory(issuer_path="tenant/a")
    assert server.issuer.endswith("/tenant/a")
    redirects = Redirects()
    assert await session_calls(server.url, MemoryStorage(), redirects, "whoami") == ["alice@example.test"]
    assert redirects.answers[0]["iss"] == server.issuer


async def test_pre_registered_client_without_registration(
    oauth_server_factory: Callable[..., OAuthServer],
) -> None:
    server = oauth_server_factory(
        client_id="desk-client",
        client_secret="pre-secret",
        registration=False,
        client_auth="client_secret_post",
    )
    storage = MemoryStorage()
    assert await session_calls(server.url, storage, Redirects(), "whoami", client_id="desk-client") == [
        "alice@example.test"
    ]
    assert server.stats()["registrations"] == 0
    async with httpx2.AsyncClient() as client:
        metadata = (await client.get(server.as_url + "/.well-known/oauth-authorization-server")).json()
    assert "registration_endpoint" not in metadata


async def test_step_up_for_the_admin_scope(oauth_server: OAuthServer) -> None:
    storage = MemoryStorage()
    answers = await session_calls(oauth_server.url, storage, Redirects(), "whoami", "admin_report")
    assert answers == ["alice@example.test", "admin report: all well"]
    assert oauth_server.stats()["insufficient_scope"] == 1
    assert storage.tokens is not None and set((storage.tokens.scope or "").split()) == {"mcp", "admin"}


async def test_subprocess_mode_and_remote_controls(
    oauth_server_process: Callable[..., RemoteOAuthServer],
) -> None:
    server = oauth_server_process("--token-prefix", "SUBPROC-", "--subject", "carol")
    assert await session_calls(server.url, MemoryStorage(), Redirects(), "whoami") == ["carol"]
    server.set(subject="dave")
    assert server.stats()["subject"] == "dave"
    assert server.revoke_refresh_tokens() == 1
    assert server.expire_access_tokens() == 1
