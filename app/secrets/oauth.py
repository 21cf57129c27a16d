"""OAuth tokens and client registrations of a server, kept in the keyring.

Implements the SDK's `mcp.client.auth.TokenStorage` protocol (get/set tokens and client info).
Values are JSON in two secrets of the server (`oauth.tokens`, `oauth.client`); tokens are often
longer than Windows' credential blob limit, which the store's chunking takes care of. The SDK's
models are imported only when a value is read, so importing this module stays cheap.

Besides the SDK's fields, the tokens record carries what the SDK does not keep but a person (and
the next start) needs: `expires_at` (epoch seconds: the SDK only has `expires_in`, relative to a
moment it forgets on restart), `issuer` (the authorization server that issued them: credentials
are keyed by server and issuer), `account` (a display name from the id_token or a JWT access
token, never trusted) and `client_kind`. The client record keeps the SDK's own `issuer` binding
(SEP-2352): a registration is only reused with the authorization server it was made with.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any

from app.secrets.store import SecretStore

logger = logging.getLogger(__name__)

TOKENS = "oauth.tokens"
CLIENT = "oauth.client"
CLIENT_SECRET = "oauth.client_secret"
"""A pre-registered client's secret (entered in the Edit dialog); not removed by sign-out."""
PRIVATE_KEY = "oauth.private_key"
"""A client-credentials client's private key (PEM, private_key_jwt); not removed by sign-out."""

EXTRA_FIELDS = (
    "expires_at",
    "obtained_at",
    "issuer",
    "account",
    "client_kind",
    "as_metadata",
    "resource_metadata",
)


class KeyringTokenStorage:
    """TokenStorage for one server; every keyring call runs in a worker thread."""

    def __init__(self, store: SecretStore, server: str) -> None:
        self.store = store
        self.server = server
        self.extras: dict[str, Any] = {}
        """The extra fields of the tokens last read or written (see the module docstring)."""
        self.pending_extras: dict[str, Any] = {}
        """Set by the OAuth provider just before `set_tokens`: written with those tokens."""

    async def get_tokens(self) -> Any:
        from mcp.shared.auth import OAuthToken

        data = await self._read_json(TOKENS)
        if data is None:
            self.extras = {}
            return None
        try:
            token = OAuthToken.model_validate(data)
        except ValueError:
            logger.warning("stored OAuth tokens of %r are unreadable; signing in again", self.server)
            self.extras = {}
            return None
        self.extras = {k: data[k] for k in EXTRA_FIELDS if data.get(k) is not None}
        return token

    async def set_tokens(self, tokens: Any) -> None:
        data: dict[str, Any] = json.loads(tokens.model_dump_json(exclude_none=True))
        now = time.time()
        extras: dict[str, Any] = {"obtained_at": now}
        if tokens.expires_in is not None:
            extras["expires_at"] = now + float(tokens.expires_in)
        extras.update({k: v for k, v in self.pending_extras.items() if v is not None})
        self.pending_extras = {}
        self.extras = extras
        await self.store.aset(self.server, TOKENS, json.dumps(data | extras))

    async def get_client_info(self) -> Any:
        from mcp.shared.auth import OAuthClientInformationFull

        data = await self._read_json(CLIENT)
        if data is None:
            return None
        try:
            return OAuthClientInformationFull.model_validate(data)
        except ValueError:
            logger.warning("stored OAuth client of %r is unreadable; registering again", self.server)
            return None

    async def set_client_info(self, client_info: Any) -> None:
        # The whole model, `issuer` included: it binds the registration to its server.
        await self.store.aset(self.server, CLIENT, client_info.model_dump_json(exclude_none=True))

    async def clear(self) -> None:
        """Forget tokens and registration (sign out)."""
        await self.store.adelete(self.server, TOKENS)
        await self.store.adelete(self.server, CLIENT)
        self.extras = {}

    async def _read_json(self, name: str) -> dict[str, Any] | None:
        raw = await self.store.aget(self.server, name)
        if raw is None:
            return None
        try:
            data = json.loads(raw)
        except ValueError:
            data = None
        if not isinstance(data, dict):
            # Unreadable (an older format): behave as signed out rather than fail the connection.
            logger.warning("stored OAuth %s of %r is unreadable; signing in again", name, self.server)
            return None
        return data


class MemoryTokenStorage(KeyringTokenStorage):
    """The same storage over a session-only store (no keyring): for ad-hoc targets and tests."""

    def __init__(self, server: str) -> None:
        super().__init__(SecretStore(session_only=True), server)
