"""OAuth token storage over the keyring (the SDK's TokenStorage protocol)."""

from __future__ import annotations

import asyncio

from mcp.shared.auth import OAuthClientInformationFull, OAuthToken

from app.secrets.oauth import KeyringTokenStorage
from app.secrets.store import SecretStore
from tests.support.memory_keyring import MemoryKeyring


def test_tokens_and_client_round_trip_chunked(memory_keyring: MemoryKeyring) -> None:
    store = SecretStore()
    storage = KeyringTokenStorage(store, "remote")
    token = OAuthToken(access_token="a" * 3000, token_type="Bearer", refresh_token="r-1", expires_in=3600)
    client = OAuthClientInformationFull(
        client_id="cid", client_secret="cs", redirect_uris=["http://127.0.0.1:3333/cb"]
    )

    async def scenario() -> None:
        assert await storage.get_tokens() is None
        await storage.set_tokens(token)
        await storage.set_client_info(client)
        got = await storage.get_tokens()
        assert got is not None and got.access_token == "a" * 3000 and got.refresh_token == "r-1"
        info = await storage.get_client_info()
        assert info is not None and info.client_id == "cid" and info.client_secret == "cs"
        await storage.clear()
        assert await storage.get_tokens() is None

    asyncio.run(scenario())
    assert memory_keyring.store == {}


def test_unreadable_tokens_mean_signed_out(memory_keyring: MemoryKeyring) -> None:
    store = SecretStore()
    store.set("remote", "oauth.tokens", "{not json")
    assert asyncio.run(KeyringTokenStorage(store, "remote").get_tokens()) is None


def test_extras_are_stored_with_the_tokens(memory_keyring: MemoryKeyring) -> None:
    store = SecretStore()
    storage = KeyringTokenStorage(store, "remote")
    token = OAuthToken(access_token="at-1", token_type="Bearer", expires_in=600, scope="mcp")

    async def scenario() -> None:
        storage.pending_extras = {"issuer": "https://as.example/tenant", "account": "ann"}
        storage.pending_extras["client_kind"] = None
        await storage.set_tokens(token)
        assert storage.pending_extras == {}  # used once
        again = KeyringTokenStorage(store, "remote")
        got = await again.get_tokens()
        assert got is not None and got.access_token == "at-1"
        assert again.extras["issuer"] == "https://as.example/tenant" and again.extras["account"] == "ann"
        assert "client_kind" not in again.extras
        # An absolute expiry: the SDK only has expires_in, relative to a moment it forgets.
        assert again.extras["expires_at"] - again.extras["obtained_at"] == 600

    asyncio.run(scenario())


def test_client_registration_keeps_its_issuer_binding(memory_keyring: MemoryKeyring) -> None:
    store = SecretStore()
    storage = KeyringTokenStorage(store, "remote")
    client = OAuthClientInformationFull(
        client_id="cid", redirect_uris=["http://127.0.0.1:3333/callback"], issuer="https://as.example/a"
    )

    async def scenario() -> None:
        await storage.set_client_info(client)
        info = await KeyringTokenStorage(store, "remote").get_client_info()
        assert info is not None and info.issuer == "https://as.example/a"  # SEP-2352 binding kept

    asyncio.run(scenario())
