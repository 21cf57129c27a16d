"""Sign-in status and settings, without a server: `read_status`, `forget`, `Target.oauth` from
the settings, the account shown from token claims, the log filter."""

from __future__ import annotations

import base64
import json
import logging
import time

import pytest

from app.config.model import ServerEntry, ServerSettings
from app.mcp.auth import (
    SecretLogFilter,
    SignInNeeded,
    account_from_token,
    forget,
    jwt_claims,
    read_status,
    scrub_text,
)
from app.mcp.target import OAuthOptions, Target, target_from_config
from app.secrets.oauth import CLIENT, CLIENT_SECRET, TOKENS
from app.secrets.store import SecretStore
from tests.support.memory_keyring import MemoryKeyring

pytestmark = pytest.mark.anyio


def jwt(claims: dict[str, object]) -> str:
    part = base64.urlsafe_b64encode(json.dumps(claims).encode()).decode().rstrip("=")
    return f"eyJhbGciOiJub25lIn0.{part}.sig"


def test_account_from_jwt_claims_display_only() -> None:
    assert account_from_token(jwt({"sub": "u-1", "email": "ann@example.test"})) == "ann@example.test"
    assert account_from_token(jwt({"sub": "u-1"})) == "u-1"
    assert account_from_token("opaque-token") is None
    assert jwt_claims("a.!!!.c") == {}


async def test_read_status_and_forget(memory_keyring: MemoryKeyring) -> None:
    store = SecretStore()
    assert (await read_status(store, "web")).signed_in is False
    expires = time.time() + 600
    tokens = {
        "access_token": jwt({"preferred_username": "ann"}),
        "token_type": "Bearer",
        "refresh_token": "rt",
        "scope": "mcp admin",
        "expires_at": expires,
        "issuer": "https://as.example",
        "client_kind": "registered",
    }
    store.set("web", TOKENS, json.dumps(tokens))
    store.set("web", CLIENT, json.dumps({"client_id": "cid", "issuer": "https://as.example"}))
    store.set("web", CLIENT_SECRET, "pre-registered stays")
    status = await read_status(store, "web")
    assert status.signed_in and status.can_refresh and status.client == "registered"
    assert status.account == "ann" and status.issuer == "https://as.example"
    assert status.scopes == ("mcp", "admin") and status.expires_at == expires
    await forget(store, "web")
    assert store.get("web", TOKENS) is None and store.get("web", CLIENT) is None
    assert store.get("web", CLIENT_SECRET) == "pre-registered stays"


async def test_expired_without_refresh_is_not_signed_in(memory_keyring: MemoryKeyring) -> None:
    store = SecretStore()
    store.set("web", TOKENS, json.dumps({"access_token": "x", "expires_at": time.time() - 5}))
    status = await read_status(store, "web")
    assert not status.signed_in and not status.can_refresh and status.account is None


def test_target_from_config_reads_oauth_settings_and_the_client_secret(memory_keyring: MemoryKeyring) -> None:
    store = SecretStore()
    store.set("gh", CLIENT_SECRET, "s3cret-value")
    entry = ServerEntry.from_json("gh", {"type": "http", "url": "https://mcp.example/mcp"})
    settings = ServerSettings.from_json(
        {"oauth": {"client_id": "desk-app", "scope": "repo read", "redirect_port": 8765}}
    )
    target = target_from_config(entry, settings, store)
    assert target.oauth == OAuthOptions(
        client_id="desk-app", client_secret="s3cret-value", scope="repo read", redirect_port=8765
    )
    assert "s3cret-value" in target.secret_values and "s3cret-value" not in repr(target.oauth)
    assert target.uses_oauth
    plain = target_from_config(entry, None, store)
    assert plain.oauth is None and plain.uses_oauth


def test_credential_headers_mean_no_oauth() -> None:
    base = {"name": "w", "transport": "http", "url": "https://x/mcp"}
    assert not Target(**base, headers={"Authorization": "Bearer t"}).uses_oauth  # type: ignore[arg-type]
    assert not Target(  # type: ignore[arg-type]
        **base, headers={"X-API-Key": "k-123456"}, secret_values=frozenset({"k-123456"})
    ).uses_oauth
    assert Target(**base, headers={"X-Trace": "on"}).uses_oauth  # type: ignore[arg-type]
    assert not Target(name="s", transport="stdio", command="x").uses_oauth


def test_log_filter_masks_and_drops() -> None:
    text = "GET http://127.0.0.1:5/callback?code=abc123&state=xyz HTTP; Authorization: Bearer tok.en-1"
    masked = scrub_text(text)
    assert "abc123" not in masked and "xyz" not in masked and "tok.en-1" not in masked
    assert scrub_text('{"refresh_token": "rt-secret"}') == '{"refresh_token": "••••••"}'
    record = logging.LogRecord("x", logging.ERROR, __file__, 1, "OAuth flow error", (), None)
    try:
        raise SignInNeeded()
    except SignInNeeded:
        import sys

        record.exc_info = sys.exc_info()
    assert SecretLogFilter().filter(record) is False  # a signed-out server is not an error to log
