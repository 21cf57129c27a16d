"""Sign-in end to end: the engine (`ServerConnection` with `secrets=` and `browser=`) against the
local OAuth-protected server (tests/servers/oauth_server.py: the SDK's authorization server and
bearer-protected MCP endpoint on 127.0.0.1), the browser step done by the headless browser, the
tokens in the (in-memory) keyring.

Waits are on the connection's state and events, with timeouts; the one clock-driven step (a token
running out) is the server's `wait_expiry` tool, which answers when the token's `expires_in` is
over, so nothing here sleeps.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import pytest

from app.mcp.auth import read_status
from app.mcp.connection import ServerConnection
from app.mcp.events import ConnectionState, SignInWaiting, StateChanged
from app.mcp.target import OAuthOptions, Target
from app.secrets.store import SecretStore
from tests.servers.harness import EventLog
from tests.servers.oauth_fixtures import *  # noqa: F403
from tests.servers.oauth_server import OAuthServer
from tests.support.headless_browser import HeadlessBrowser
from tests.support.memory_keyring import MemoryKeyring

pytestmark = pytest.mark.anyio

NAME = "remote"
SETTLE = 30.0
TOOLS = {"whoami", "echo", "wait_expiry", "admin_report"}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def secrets() -> SecretStore:
    return SecretStore(scope="signin-e2e")


def target_for(server: OAuthServer, **oauth: Any) -> Target:
    options = None
    if oauth:
        options = OAuthOptions(
            client_id=oauth.get("client_id"),
            client_secret=oauth.get("client_secret"),
            scope=oauth.get("scope"),
            grant=oauth.get("grant", "authorization_code"),
            client_metadata_url=oauth.get("client_metadata_url"),
        )
    secret_values = frozenset(v for v in [oauth.get("client_secret")] if v)
    return Target(
        name=NAME, transport="http", url=server.url, timeout=20.0, oauth=options, secret_values=secret_values
    )


@asynccontextmanager
async def connection(
    target: Target, secrets: SecretStore, browser: HeadlessBrowser | None = None
) -> AsyncIterator[tuple[ServerConnection, EventLog]]:
    log = EventLog()
    conn = ServerConnection(
        target, sink=log, secrets=secrets, browser=browser or HeadlessBrowser(follow=False)
    )
    try:
        yield conn, log
    finally:
        await conn.stop()


async def settle(conn: ServerConnection) -> ConnectionState:
    return await conn.wait_settled(SETTLE)


async def signed_in(conn: ServerConnection) -> None:
    """A plain connect that stops at "sign in needed", then the interactive sign-in."""
    conn.start()
    assert await settle(conn) == ConnectionState.NEEDS_SIGN_IN, conn.reason
    await conn.sign_in()
    assert await settle(conn) == ConnectionState.READY, conn.reason


async def text_of(conn: ServerConnection, tool: str, **arguments: Any) -> str:
    result = await conn.call_tool(tool, arguments)
    assert not result.is_error, result.content
    return str(result.content[0]["text"])


def oauth_entries(keyring: MemoryKeyring) -> list[str]:
    return [user for (_, user) in keyring.store if "/oauth." in user]


# ---------------------------------------------------------------------------------------- tests


async def test_first_connect_needs_sign_in_then_signs_in_and_reuses_the_tokens(
    oauth_server: OAuthServer, secrets: SecretStore, memory_keyring: MemoryKeyring
) -> None:
    browser = HeadlessBrowser()
    async with connection(target_for(oauth_server), secrets, browser) as (conn, log):
        conn.start()
        assert await settle(conn) == ConnectionState.NEEDS_SIGN_IN
        assert conn.reason and "sign in" in conn.reason
        assert browser.visits == [], "a plain connect must never open the browser"
        assert oauth_server.stats()["authorizations"] == 0

        await conn.sign_in()
        assert await settle(conn) == ConnectionState.READY, conn.reason
        [waiting] = log.of(SignInWaiting, NAME)
        assert waiting.url == browser.urls[0] and waiting.url.startswith(oauth_server.as_url)
        assert any(
            e.state == ConnectionState.CONNECTING and e.reason == "waiting for you to sign in in your browser"
            for e in log.of(StateChanged, NAME)
        )
        assert browser.visits[0].status == 200, browser.visits[0]  # the loopback's "signed in" page
        assert set(conn.catalog.tools) == TOOLS
        assert await text_of(conn, "whoami") == "alice@example.test"

    status = await read_status(secrets, NAME)
    assert status.signed_in and status.account == "alice@example.test"
    assert (status.issuer, status.scopes, status.can_refresh, status.client) == (
        oauth_server.issuer,
        ("mcp",),
        True,
        "registered",
    )
    assert status.expires_at is not None
    assert oauth_entries(memory_keyring), "tokens and registration are in the keyring"

    # The next connect uses the stored tokens: no browser, no new authorization.
    quiet = HeadlessBrowser(follow=False)
    async with connection(target_for(oauth_server), secrets, quiet) as (conn, _):
        conn.start()
        assert await settle(conn) == ConnectionState.READY, conn.reason
        assert await text_of(conn, "whoami") == "alice@example.test"
    assert quiet.visits == []
    stats = oauth_server.stats()
    assert (stats["registrations"], stats["authorizations"]) == (1, 1)


async def test_expired_token_is_refreshed_silently_in_a_session_and_at_the_next_connect(
    oauth_server: OAuthServer, secrets: SecretStore
) -> None:
    oauth_server.set(access_lifetime=1)
    async with connection(target_for(oauth_server), secrets, HeadlessBrowser()) as (conn, _):
        await signed_in(conn)
        assert await text_of(conn, "wait_expiry") == "expired"
        assert await text_of(conn, "echo", message="after expiry") == "after expiry"
        assert conn.state == ConnectionState.READY
    assert oauth_server.stats()["refreshes"] >= 1
    before = await read_status(secrets, NAME)

    # The stored access token has run out by now (wait_expiry again makes sure): the next connect
    # refreshes it without a browser.
    async with connection(target_for(oauth_server), secrets) as (conn, _):
        conn.start()
        assert await settle(conn) == ConnectionState.READY, conn.reason
        await text_of(conn, "wait_expiry")
    refreshes = oauth_server.stats()["refreshes"]
    async with connection(target_for(oauth_server), secrets) as (conn, _):
        conn.start()
        assert await settle(conn) == ConnectionState.READY, conn.reason
        assert await text_of(conn, "whoami") == "alice@example.test"
    stats = oauth_server.stats()
    assert stats["refreshes"] > refreshes and stats["authorizations"] == 1
    after = await read_status(secrets, NAME)
    assert (
        after.expires_at is not None
        and before.expires_at is not None
        and after.expires_at > before.expires_at
    )


async def test_revoked_refresh_token_returns_to_needs_sign_in_with_the_reason(
    oauth_server: OAuthServer, secrets: SecretStore
) -> None:
    oauth_server.set(access_lifetime=1)
    async with connection(target_for(oauth_server), secrets, HeadlessBrowser()) as (conn, _):
        await signed_in(conn)
        await text_of(conn, "wait_expiry")
    assert oauth_server.revoke_refresh_tokens() >= 1

    browser = HeadlessBrowser(follow=False)
    async with connection(target_for(oauth_server), secrets, browser) as (conn, _):
        conn.start()
        assert await settle(conn) == ConnectionState.NEEDS_SIGN_IN
        assert conn.reason == "your sign-in has expired: sign in again"
    assert browser.visits == []
    assert oauth_server.stats()["refresh_failures"] >= 1


async def test_refresh_failing_during_a_session_returns_to_needs_sign_in(
    oauth_server: OAuthServer, secrets: SecretStore
) -> None:
    oauth_server.set(access_lifetime=1)
    browser = HeadlessBrowser()
    async with connection(target_for(oauth_server), secrets, browser) as (conn, log):
        await signed_in(conn)
        oauth_server.revoke_refresh_tokens()
        await text_of(conn, "wait_expiry")
        with pytest.raises(Exception):  # noqa: B017  # the call fails: whichever error the engine maps
            await conn.call_tool("echo", {"message": "x"})
        await log.wait_until(lambda: conn.state == ConnectionState.NEEDS_SIGN_IN, SETTLE)
        assert conn.reason and "sign in" in conn.reason
    assert len(browser.visits) == 1, "no browser opened by itself after the first sign-in"


async def test_sign_out_forgets_the_tokens(
    oauth_server: OAuthServer, secrets: SecretStore, memory_keyring: MemoryKeyring
) -> None:
    async with connection(target_for(oauth_server), secrets, HeadlessBrowser()) as (conn, _):
        await signed_in(conn)
        await conn.sign_out()
        assert conn.state == ConnectionState.NEEDS_SIGN_IN and conn.reason == "signed out"
    assert oauth_entries(memory_keyring) == []
    assert not (await read_status(secrets, NAME)).signed_in
    async with connection(target_for(oauth_server), secrets) as (conn, _):
        conn.start()
        assert await settle(conn) == ConnectionState.NEEDS_SIGN_IN


@pytest.mark.parametrize("who", ["server", "browser"])
async def test_declined_consent(oauth_server: OAuthServer, secrets: SecretStore, who: str) -> None:
    if who == "server":
        oauth_server.set(deny=True)
    browser = HeadlessBrowser(decline=who == "browser")
    async with connection(target_for(oauth_server), secrets, browser) as (conn, _):
        conn.start()
        assert await settle(conn) == ConnectionState.NEEDS_SIGN_IN
        await conn.sign_in()
        assert await settle(conn) == ConnectionState.NEEDS_SIGN_IN
        assert conn.reason and ("declined" in conn.reason or "cancelled" in conn.reason), conn.reason
    assert not (await read_status(secrets, NAME)).signed_in
    assert oauth_server.stats()["code_exchanges"] == 0


async def test_closed_tab_then_cancel(oauth_server: OAuthServer, secrets: SecretStore) -> None:
    browser = HeadlessBrowser(follow=False)
    async with connection(target_for(oauth_server), secrets, browser) as (conn, log):
        conn.start()
        assert await settle(conn) == ConnectionState.NEEDS_SIGN_IN
        signing_in = asyncio.ensure_future(conn.sign_in())
        await log.wait_for(lambda e: isinstance(e, SignInWaiting), SETTLE)
        assert conn.state == ConnectionState.CONNECTING
        conn.cancel_sign_in()
        await asyncio.wait_for(signing_in, SETTLE)
        assert await settle(conn) == ConnectionState.NEEDS_SIGN_IN
        assert conn.reason == "sign-in was cancelled"
    assert oauth_server.stats()["authorizations"] == 0


async def test_issuer_with_a_path(
    oauth_server_factory: Callable[..., OAuthServer], secrets: SecretStore
) -> None:
    server = oauth_server_factory(issuer_path="/tenant/a")
    async with connection(target_for(server), secrets, HeadlessBrowser()) as (conn, _):
        await signed_in(conn)
        assert await text_of(conn, "whoami") == "alice@example.test"
    assert (await read_status(secrets, NAME)).issuer == server.issuer == server.as_url + "/tenant/a"


async def test_wrong_iss_in_the_answer_is_refused(oauth_server: OAuthServer, secrets: SecretStore) -> None:
    oauth_server.set(iss_mode="wrong")
    async with connection(target_for(oauth_server), secrets, HeadlessBrowser()) as (conn, _):
        conn.start()
        assert await settle(conn) == ConnectionState.NEEDS_SIGN_IN
        await conn.sign_in()
        assert await settle(conn) in (ConnectionState.NEEDS_SIGN_IN, ConnectionState.FAILED)
    assert oauth_server.stats()["code_exchanges"] == 0
    assert not (await read_status(secrets, NAME)).signed_in


@pytest.mark.parametrize("client_auth", ["client_secret_basic", "client_secret_post"])
async def test_pre_registered_client(
    oauth_server_factory: Callable[..., OAuthServer], secrets: SecretStore, client_auth: str
) -> None:
    server = oauth_server_factory(
        client_id="desk-client", client_secret="pre-secret-1", registration=False, client_auth=client_auth
    )
    target = target_for(server, client_id="desk-client", client_secret="pre-secret-1")
    browser = HeadlessBrowser()
    async with connection(target, secrets, browser) as (conn, _):
        await signed_in(conn)
        assert await text_of(conn, "whoami") == "alice@example.test"
    assert "client_id=desk-client" in browser.urls[0]
    assert server.stats()["registrations"] == 0
    status = await read_status(secrets, NAME)
    assert status.signed_in and status.client == "pre-registered"


async def test_another_account(
    oauth_server_factory: Callable[..., OAuthServer], secrets: SecretStore
) -> None:
    server = oauth_server_factory(subject="bob@example.test", opaque=True)
    async with connection(target_for(server), secrets, HeadlessBrowser()) as (conn, _):
        await signed_in(conn)
        assert await text_of(conn, "whoami") == "bob@example.test"
    # An opaque token says nothing about its owner: the account is unknown, never guessed.
    assert (await read_status(secrets, NAME)).account is None


async def test_step_up_asks_the_browser_again_for_the_missing_scope(
    oauth_server: OAuthServer, secrets: SecretStore
) -> None:
    browser = HeadlessBrowser()
    async with connection(target_for(oauth_server), secrets, browser) as (conn, log):
        await signed_in(conn)
        assert (await read_status(secrets, NAME)).scopes == ("mcp",)
        since = len(log.events)
        assert await text_of(conn, "admin_report") == "admin report: all well"
        # The browser was shown again, and the server is back to "connected" afterwards.
        assert any(isinstance(e, SignInWaiting) for e in log.events[since:])
        await log.wait_until(lambda: conn.state == ConnectionState.READY, SETTLE)
    assert oauth_server.stats()["insufficient_scope"] == 1
    assert len(browser.visits) == 2 and "admin" in browser.urls[1]
    assert set((await read_status(secrets, NAME)).scopes) == {"mcp", "admin"}


async def test_the_manager_passes_secrets_and_browser_to_its_connections(
    oauth_server: OAuthServer, secrets: SecretStore
) -> None:
    from app.mcp.manager import ConnectionManager

    browser = HeadlessBrowser()
    log = EventLog()
    manager = ConnectionManager(sink=log, secrets=secrets, browser=browser)
    manager.set_target(target_for(oauth_server))
    try:
        manager.connect(NAME)
        assert (await manager.wait_settled(SETTLE))[NAME] == ConnectionState.NEEDS_SIGN_IN
        assert await manager.sign_in(NAME) == ConnectionState.READY
        conn = manager.get(NAME)
        assert conn is not None and await text_of(conn, "whoami") == "alice@example.test"
        await manager.sign_out(NAME)
        assert conn.state == ConnectionState.NEEDS_SIGN_IN and conn.reason == "signed out"
    finally:
        await manager.shutdown()
    assert not (await read_status(secrets, NAME)).signed_in
