"""Sign-in end to end: the engine against a real OAuth-protected MCP server on 127.0.0.1
(tests/servers/oauth_server.py: the SDK's authorization server + a resource server), the browser
step driven headlessly (tests/support/headless_browser.py), tokens in the in-memory keyring."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import socket
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from app.mcp.auth import read_status
from app.mcp.connection import NotSignInServer, ServerConnection
from app.mcp.events import (
    SIGN_IN_CANCELLED,
    SIGN_IN_DECLINED,
    SIGN_IN_EXPIRED,
    SIGN_IN_NEEDED,
    SIGN_IN_TIMED_OUT,
    SIGNED_OUT,
    WAITING_FOR_BROWSER,
    ConnectionState,
    SignInWaiting,
    StateChanged,
)
from app.mcp.manager import ConnectionManager
from app.mcp.target import OAuthOptions, Target
from app.secrets.oauth import CLIENT, TOKENS
from app.secrets.store import SecretStore
from tests.servers.harness import EventLog
from tests.servers.oauth_fixtures import *  # noqa: F403
from tests.servers.oauth_server import OAuthServer
from tests.support.headless_browser import HeadlessBrowser
from tests.support.memory_keyring import MemoryKeyring

pytestmark = pytest.mark.anyio

SETTLE = 30.0
READY = ConnectionState.READY
NEEDS = ConnectionState.NEEDS_SIGN_IN


def web_target(server: OAuthServer, name: str = "web", **kw: Any) -> Target:
    return Target(name=name, transport="http", url=server.url, mode="legacy", timeout=20.0, **kw)


@asynccontextmanager
async def connection(
    target: Target, store: SecretStore, browser: Any = None, events: EventLog | None = None
) -> AsyncIterator[ServerConnection]:
    conn = ServerConnection(target, secrets=store, browser=browser, sink=events)
    try:
        yield conn
    finally:
        await conn.stop()


async def signed_in(conn: ServerConnection) -> None:
    state = await asyncio.wait_for(conn.sign_in(timeout=20.0), SETTLE)
    assert state == READY, conn.reason


async def settles_in(conn: ServerConnection, state: ConnectionState) -> None:
    """Wait (bounded) for the connection to reach `state`; a call's failure comes first."""

    async def reached() -> None:
        while conn.state != state:
            await conn._state_event.wait()

    await asyncio.wait_for(reached(), SETTLE)


def redirect_port(url: str) -> int:
    redirect = parse_qs(urlsplit(url).query)["redirect_uri"][0]
    return int(urlsplit(redirect).port or 0)


async def test_plain_connect_needs_sign_in_without_browser_or_registration(
    oauth_server: OAuthServer, memory_keyring: MemoryKeyring
) -> None:
    browser = HeadlessBrowser()
    events = EventLog()
    async with connection(web_target(oauth_server), SecretStore(), browser, events) as conn:
        conn.start()
        assert await conn.wait_settled(SETTLE) == NEEDS
        assert conn.reason == SIGN_IN_NEEDED
        assert not browser.visits  # a plain connect never opens a browser
        stats = oauth_server.stats()
        assert stats["registrations"] == 0 and stats["authorizations"] == 0  # nor registers
        assert [e.state for e in events.of(StateChanged)] == [ConnectionState.CONNECTING, NEEDS]
    assert memory_keyring.store == {}


async def test_sign_in_through_the_browser_then_silently_on_the_next_start(
    oauth_server_factory: Callable[..., OAuthServer], memory_keyring: MemoryKeyring
) -> None:
    server = oauth_server_factory(subject="alice@example.test")
    store = SecretStore()
    browser = HeadlessBrowser()
    events = EventLog()
    async with connection(web_target(server), store, browser, events) as conn:
        await signed_in(conn)
        assert (await conn.call_tool("whoami", {})).text() == "alice@example.test"
        waiting = events.of(SignInWaiting)
        assert len(waiting) == 1 and waiting[0].url == browser.urls[0]
        assert StateChanged("web", ConnectionState.CONNECTING, WAITING_FOR_BROWSER) in events.events
        assert "Signed in" in browser.pages[-1]
        query = parse_qs(urlsplit(browser.urls[0]).query)
        assert query["code_challenge_method"] == ["S256"] and query["resource"] == [server.url]
        assert query["redirect_uri"][0].startswith("http://127.0.0.1:")
    status = await read_status(store, "web")
    assert status.signed_in and status.can_refresh and status.client == "registered"
    assert status.account == "alice@example.test" and status.issuer == server.issuer
    assert status.expires_at is not None and "mcp" in status.scopes
    before = server.stats()
    # A new run (the app restarted): the stored tokens are used, no browser, no authorization.
    async with connection(web_target(server), store, HeadlessBrowser()) as again:
        again.start()
        assert await again.wait_settled(SETTLE) == READY, again.reason
        assert (await again.call_tool("whoami", {})).text() == "alice@example.test"
    assert server.stats()["authorizations"] == before["authorizations"]
    assert server.stats()["registrations"] == 1


async def test_stored_client_keeps_its_issuer_binding(
    oauth_server_factory: Callable[..., OAuthServer], memory_keyring: MemoryKeyring
) -> None:
    server = oauth_server_factory(issuer_path="/tenant/a")
    store = SecretStore()
    async with connection(web_target(server), store, HeadlessBrowser()) as conn:
        await signed_in(conn)  # an issuer with a path: path-aware metadata discovery
    import json

    client = json.loads(store.get("web", CLIENT) or "{}")
    assert client["issuer"] == server.issuer and server.issuer.endswith("/tenant/a")


async def test_expired_token_is_refreshed_silently(
    oauth_server_factory: Callable[..., OAuthServer], memory_keyring: MemoryKeyring
) -> None:
    server = oauth_server_factory(access_lifetime=1)
    store = SecretStore()
    async with connection(web_target(server), store, HeadlessBrowser()) as conn:
        await signed_in(conn)
        await conn.call_tool("wait_expiry", {})  # answers once the token is over by our clock
        assert (await conn.call_tool("whoami", {})).text()
        assert conn.state == READY
    assert server.stats()["refreshes"] >= 1
    assert server.stats()["authorizations"] == 1
    # The refreshed token's absolute expiry was stored: a restart refreshes before sending it.
    async with connection(web_target(server), store, HeadlessBrowser()) as again:
        again.start()
        assert await again.wait_settled(SETTLE) == READY, again.reason
    assert server.stats()["authorizations"] == 1


async def test_refresh_failure_needs_sign_in_again(
    oauth_server_factory: Callable[..., OAuthServer], memory_keyring: MemoryKeyring
) -> None:
    server = oauth_server_factory(access_lifetime=1)
    store = SecretStore()
    browser = HeadlessBrowser()
    async with connection(web_target(server), store, browser) as conn:
        await signed_in(conn)
        await conn.call_tool("wait_expiry", {})
        server.revoke_refresh_tokens()
        with pytest.raises(Exception):  # noqa: B017 - the call fails; the state says why
            await conn.call_tool("whoami", {})
        await settles_in(conn, NEEDS)
        assert conn.reason == SIGN_IN_EXPIRED
        assert len(browser.visits) == 1  # no browser for an expired sign-in
    assert server.stats()["refresh_failures"] >= 1
    assert (await read_status(store, "web")).signed_in is False


async def test_401_after_ready_needs_sign_in(
    oauth_server_factory: Callable[..., OAuthServer], memory_keyring: MemoryKeyring
) -> None:
    server = oauth_server_factory(refresh=False)
    async with connection(web_target(server), SecretStore(), HeadlessBrowser()) as conn:
        await signed_in(conn)
        server.expire_access_tokens()
        with pytest.raises(Exception):  # noqa: B017
            await conn.call_tool("whoami", {})
        await settles_in(conn, NEEDS)
        assert conn.reason == SIGN_IN_EXPIRED


async def test_manager_sign_in_and_sign_out(oauth_server: OAuthServer, memory_keyring: MemoryKeyring) -> None:
    events = EventLog()
    store = SecretStore()
    manager = ConnectionManager(sink=events, secrets=store, browser=HeadlessBrowser())
    try:
        conn = manager.set_target(web_target(oauth_server))
        manager.connect("web")
        assert await conn.wait_settled(SETTLE) == NEEDS
        assert await manager.sign_in("web", timeout=20.0) == READY
        assert store.get("web", TOKENS) is not None
        await manager.sign_out("web")
        assert conn.state == NEEDS and conn.reason == SIGNED_OUT
        assert store.get("web", TOKENS) is None and store.get("web", CLIENT) is None
        assert not manager._reconnects  # needs sign-in is never retried by itself
    finally:
        await manager.shutdown()
    assert memory_keyring.store == {}


async def test_cancel_a_sign_in(oauth_server: OAuthServer, memory_keyring: MemoryKeyring) -> None:
    store = SecretStore()
    browser = HeadlessBrowser(follow=False)  # the person never comes back
    async with connection(web_target(oauth_server), store, browser) as conn:
        task = asyncio.ensure_future(conn.sign_in(timeout=60.0))
        await asyncio.wait_for(browser.opened.wait(), SETTLE)
        assert conn.signing_in
        assert conn.cancel_sign_in()
        assert await asyncio.wait_for(task, SETTLE) == NEEDS
        assert conn.reason == SIGN_IN_CANCELLED
        assert not conn.cancel_sign_in()  # nothing left to cancel


async def test_a_cancelled_sign_in_takes_nothing_away(
    oauth_server: OAuthServer, memory_keyring: MemoryKeyring
) -> None:
    store = SecretStore()
    async with connection(web_target(oauth_server), store, HeadlessBrowser()) as conn:
        await signed_in(conn)
    closed_tab = HeadlessBrowser(follow=False)
    async with connection(web_target(oauth_server), store, closed_tab) as conn:
        task = asyncio.ensure_future(conn.sign_in(timeout=60.0))  # e.g. to switch accounts
        await asyncio.wait_for(closed_tab.opened.wait(), SETTLE)
        conn.cancel_sign_in()
        assert await asyncio.wait_for(task, SETTLE) == NEEDS
        conn.start()
        assert await conn.wait_settled(SETTLE) == READY, conn.reason  # the old sign-in still works


async def test_sign_in_timeout_is_its_own_not_the_connect_timeout(
    oauth_server: OAuthServer, memory_keyring: MemoryKeyring
) -> None:
    browser = HeadlessBrowser(follow=False)
    # The connect timeout (0.5 s) is shorter than the sign-in's (1 s): it must not fire while
    # the person is in the browser.
    target = dataclasses.replace(web_target(oauth_server), timeout=0.5)
    async with connection(target, SecretStore(), browser) as conn:
        assert await asyncio.wait_for(conn.sign_in(timeout=1.0), SETTLE) == NEEDS
        assert conn.reason == SIGN_IN_TIMED_OUT


async def test_declined_consent(oauth_server: OAuthServer, memory_keyring: MemoryKeyring) -> None:
    browser = HeadlessBrowser(decline=True)
    async with connection(web_target(oauth_server), SecretStore(), browser) as conn:
        assert await asyncio.wait_for(conn.sign_in(timeout=20.0), SETTLE) == NEEDS
        assert conn.reason == SIGN_IN_DECLINED
        assert "You declined the sign-in" in browser.pages[-1]


async def test_wrong_iss_is_refused(oauth_server: OAuthServer, memory_keyring: MemoryKeyring) -> None:
    oauth_server.set(iss_mode="wrong")
    async with connection(web_target(oauth_server), SecretStore(), HeadlessBrowser()) as conn:
        assert await asyncio.wait_for(conn.sign_in(timeout=20.0), SETTLE) == NEEDS
        assert conn.reason is not None and "iss mismatch" in conn.reason
    assert oauth_server.stats()["code_exchanges"] == 0


async def test_the_registered_port_is_reused_or_registered_again(
    oauth_server: OAuthServer, memory_keyring: MemoryKeyring
) -> None:
    store = SecretStore()
    browser = HeadlessBrowser()
    async with connection(web_target(oauth_server), store, browser) as conn:
        await signed_in(conn)
        await signed_in(conn)
        first, second = (redirect_port(u) for u in browser.urls)
        assert first == second and oauth_server.stats()["registrations"] == 1
        with socket.socket() as squatter:  # another program took the port meanwhile
            squatter.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # past TIME_WAIT
            squatter.bind(("127.0.0.1", first))
            squatter.listen()
            await signed_in(conn)
        assert redirect_port(browser.urls[-1]) != first
        assert oauth_server.stats()["registrations"] == 2


async def test_pre_registered_client(
    oauth_server_factory: Callable[..., OAuthServer], memory_keyring: MemoryKeyring
) -> None:
    server = oauth_server_factory(client_id="desk", client_secret="pre-s3cret-value", registration=False)
    target = web_target(server, oauth=OAuthOptions(client_id="desk", client_secret="pre-s3cret-value"))
    assert "pre-s3cret-value" in target.secret_values
    store = SecretStore()
    async with connection(target, store, HeadlessBrowser()) as conn:
        await signed_in(conn)
    status = await read_status(store, "web")
    assert status.client == "pre-registered" and status.signed_in
    assert store.get("web", CLIENT) is None  # nothing registered, the settings hold the client


async def test_step_up_in_a_sign_in_run_opens_the_browser_again(
    oauth_server: OAuthServer, memory_keyring: MemoryKeyring
) -> None:
    browser = HeadlessBrowser()
    async with connection(web_target(oauth_server), SecretStore(), browser) as conn:
        await signed_in(conn)
        # A call needing more permissions right after signing in: the browser again, once.
        assert (await conn.call_tool("admin_report", {})).is_error is False
        assert len(browser.visits) == 2
        assert "admin" in parse_qs(urlsplit(browser.urls[1]).query)["scope"][0].split()
        assert conn.state == READY


async def test_a_declined_step_up_fails_the_call_not_the_connection(
    oauth_server: OAuthServer, memory_keyring: MemoryKeyring
) -> None:
    browser = HeadlessBrowser()
    async with connection(web_target(oauth_server), SecretStore(), browser) as conn:
        await signed_in(conn)
        browser.decline = True  # "Deny" on the consent page for the extra permissions
        with pytest.raises(Exception, match="you declined the sign-in"):
            await conn.call_tool("admin_report", {})
        assert conn.state == READY
        assert (await conn.call_tool("whoami", {})).text()


async def test_step_up_after_a_plain_connect_needs_sign_in_then_asks_for_more(
    oauth_server: OAuthServer, memory_keyring: MemoryKeyring
) -> None:
    store = SecretStore()
    browser = HeadlessBrowser()
    async with connection(web_target(oauth_server), store, browser) as conn:
        await signed_in(conn)
    async with connection(web_target(oauth_server), store, browser) as conn:
        conn.start()
        assert await conn.wait_settled(SETTLE) == READY
        with pytest.raises(Exception):  # noqa: B017 - no browser outside a sign-in
            await conn.call_tool("admin_report", {})
        await settles_in(conn, NEEDS)
        assert conn.reason == "this server asks for more permissions: sign in again"
        assert len(browser.visits) == 1
        await signed_in(conn)
        assert "admin" in parse_qs(urlsplit(browser.urls[-1]).query)["scope"][0].split()
        assert (await conn.call_tool("admin_report", {})).is_error is False


async def test_bearer_header_target_does_not_sign_in(
    oauth_server: OAuthServer, memory_keyring: MemoryKeyring
) -> None:
    target = web_target(
        oauth_server,
        headers={"Authorization": "Bearer not-a-token"},
        secret_values=frozenset({"not-a-token"}),
    )
    browser = HeadlessBrowser()
    async with connection(target, SecretStore(), browser) as conn:
        assert not conn.uses_sign_in
        conn.start()
        assert await conn.wait_settled(SETTLE) == ConnectionState.FAILED
        assert conn.reason is not None and "check the API key" in conn.reason
        with pytest.raises(NotSignInServer):
            await conn.sign_in()
    assert oauth_server.stats()["registrations"] == 0 and not browser.visits


async def test_no_token_code_or_secret_in_logs_or_events(
    oauth_server_factory: Callable[..., OAuthServer],
    memory_keyring: MemoryKeyring,
    caplog: pytest.LogCaptureFixture,
) -> None:
    marker = "LEAKMARK-"
    server = oauth_server_factory(token_prefix=marker, access_lifetime=1, opaque=True)
    events = EventLog()
    caplog.set_level(logging.DEBUG)
    store = SecretStore()
    async with connection(web_target(server), store, HeadlessBrowser(), events) as conn:
        conn.start()
        await conn.wait_settled(SETTLE)
        await signed_in(conn)
        await conn.call_tool("wait_expiry", {})  # and a refresh
        await conn.call_tool("echo", {"message": "hi"})
        server.revoke_refresh_tokens()
        await conn.call_tool("wait_expiry", {})
        with pytest.raises(Exception):  # noqa: B017
            await conn.call_tool("whoami", {})
        await settles_in(conn, NEEDS)
        assert marker in (store.get("web", CLIENT) or "")  # the keyring has them, and only it
    assert server.stats()["refreshes"] >= 1
    published = repr(events.events) + repr([(e.state, e.reason) for e in events.of(StateChanged)])
    logged = "\n".join(r.getMessage() + (r.exc_text or "") for r in caplog.records) + caplog.text
    assert marker not in published
    assert marker not in logged


async def test_sse_transport_signs_in_too(memory_keyring: MemoryKeyring) -> None:
    """The legacy SSE transport's client carries the same OAuth provider: a 401 on its GET
    stream is a sign-in to do (discovery starts), not "HTTP 401"."""
    seen: list[str] = []

    async def answer_401(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await reader.readuntil(b"\r\n\r\n")
        seen.append(head.split(b"\r\n", 1)[0].decode())
        body = b'{"error":"invalid_token"}'
        writer.write(
            b"HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Bearer\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(body), body)
        )
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(answer_401, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        target = Target(name="legacy", transport="sse", url=f"http://127.0.0.1:{port}/sse", timeout=20.0)
        async with connection(target, SecretStore(), HeadlessBrowser()) as conn:
            conn.start()
            assert await conn.wait_settled(SETTLE) == NEEDS
            assert conn.reason == SIGN_IN_NEEDED
        assert seen[0] == "GET /sse HTTP/1.1"
        assert "GET /.well-known/oauth-protected-resource/sse HTTP/1.1" in seen
    finally:
        server.close()


async def test_another_server_or_authorization_server_means_signing_in_afresh(
    oauth_server_factory: Callable[..., OAuthServer], memory_keyring: MemoryKeyring
) -> None:
    first = oauth_server_factory()
    second = oauth_server_factory(token_prefix="second-")
    store = SecretStore()
    browser = HeadlessBrowser()
    async with connection(web_target(first), store, browser) as conn:
        await signed_in(conn)
    # The same server entry now points elsewhere (edited URL; another authorization server).
    async with connection(web_target(second), store, browser) as conn:
        conn.start()
        assert await conn.wait_settled(SETTLE) == NEEDS
        # Not "expired": the first server's token was never sent to this one.
        assert conn.reason == SIGN_IN_NEEDED
        await signed_in(conn)
    import json

    client = json.loads(store.get("web", CLIENT) or "{}")
    assert client["issuer"] == second.issuer  # registered again with the new issuer
    assert second.stats()["registrations"] == 1


async def test_an_ad_hoc_target_named_by_its_url_signs_in(
    oauth_server: OAuthServer, memory_keyring: MemoryKeyring
) -> None:
    # `mcp-desk tools --url URL`, the doctor: no configured name, no keyring (session memory).
    target = web_target(oauth_server, name=oauth_server.url)
    conn = ServerConnection(target, browser=HeadlessBrowser())
    try:
        conn.start()
        assert await conn.wait_settled(SETTLE) == NEEDS, conn.reason
        await signed_in(conn)
    finally:
        await conn.stop()
    assert memory_keyring.store == {}  # nothing reached the keyring


async def test_no_keychain_does_not_stop_a_server_that_needs_no_sign_in(
    oauth_server: OAuthServer,
) -> None:
    from keyring.backends.fail import Keyring as FailKeyring

    store = SecretStore(backend=FailKeyring())
    async with connection(web_target(oauth_server), store, HeadlessBrowser()) as conn:
        conn.start()
        assert await conn.wait_settled(SETTLE) == NEEDS  # not "the keychain is unavailable"
        await signed_in(conn)  # the sign-in lasts this session
