"""OAuth tokens and client registrations of a server, kept in the keyring.

Implements the SDK's `mcp.client.auth.TokenStorage` protocol (get/set tokens and client info).
Values are JSON in two secrets of the server (`oauth.tokens`, `oauth.client`); tokens are often
longer than Windows' credential blob limit, which the store's chunking takes care of. The SDK's
models are imported only when a value is read, so importing this module stays cheap.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from app.secrets.store import SecretStore

logger = logging.getLogger(__name__)

TOKENS = "oauth.tokens"
CLIENT = "oauth.client"


class KeyringTokenStorage:
    """TokenStorage for one server; every keyring call runs in a worker thread."""

    def __init__(self, store: SecretStore, server: str) -> None:
        self.store = store
        self.server = server

    async def get_tokens(self) -> Any:
        from mcp.shared.auth import OAuthToken

        return await self._read(TOKENS, OAuthToken)

    async def set_tokens(self, tokens: Any) -> None:
        await self.store.aset(self.server, TOKENS, tokens.model_dump_json(exclude_none=True))

    async def get_client_info(self) -> Any:
        from mcp.shared.auth import OAuthClientInformationFull

        return await self._read(CLIENT, OAuthClientInformationFull)

    async def set_client_info(self, client_info: Any) -> None:
        await self.store.aset(self.server, CLIENT, client_info.model_dump_json(exclude_none=True))

    async def clear(self) -> None:
        """Forget tokens and registration (sign out)."""
        await self.store.adelete(self.server, TOKENS)
        await self.store.adelete(self.server, CLIENT)

    async def _read(self, name: str, model: Any) -> Any:
        raw = await self.store.aget(self.server, name)
        if raw is None:
            return None
        try:
            return model.model_validate(json.loads(raw))
        except ValueError:
            # Unreadable (an older format): behave as signed out rather than fail the connection.
            logger.warning("stored OAuth %s of %r is unreadable; signing in again", name, self.server)
            return None
