"""An SDK `TokenStorage` held in memory, for clients built on the SDK alone (the conformance
suite's plain-SDK baseline client, the OAuth test server's own tests): the app's storage is the
keyring one (`app.secrets.oauth.KeyringTokenStorage`)."""

from __future__ import annotations

from mcp.shared.auth import OAuthClientInformationFull, OAuthToken


class MemoryStorage:
    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client: OAuthClientInformationFull | None = None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client = client_info
