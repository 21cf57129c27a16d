"""The baseline for the conformance figures: a plain client on the same SDK with the SDK's own
OAuth providers (no MCP Desk code in the flow), run by the suite like adapter.py:

    tests/conformance/run.sh --client sdk     # every client scenario against this client

The authorize step is completed by following the authorization server's redirect with httpx2
and reading the code from it (no listener); tokens in memory; pre-registered and
client-credentials clients from MCP_CONFORMANCE_CONTEXT. Exit 0 when everything succeeded.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urljoin, urlsplit

import httpx2
import mcp_types as types
from mcp.client.auth import OAuthClientProvider
from mcp.client.auth.extensions.client_credentials import (
    ClientCredentialsOAuthProvider,
    PrivateKeyJWTOAuthProvider,
    SignedJWTParameters,
)
from mcp.client.auth.extensions.identity_assertion import IdentityAssertionOAuthProvider
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import (
    AuthorizationCodeResult,
    OAuthClientInformationFull,
    OAuthClientMetadata,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repo root, for the leg-1 helper

from tests.support.token_storage import MemoryStorage

REDIRECT = "http://127.0.0.1:3000/callback"
CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json"


class FollowRedirect:
    """redirect_handler/callback_handler that GET the authorize URL and read the code from the
    Location it answers with."""

    def __init__(self) -> None:
        self.answer: AuthorizationCodeResult | None = None

    async def redirect(self, url: str) -> None:
        async with httpx2.AsyncClient(follow_redirects=False) as client:
            response = await client.get(url)
        location = response.headers.get("location")
        if not location:
            raise RuntimeError(f"authorize answered {response.status_code} without a redirect")
        query = {k: v[0] for k, v in parse_qs(urlsplit(urljoin(url, location)).query).items()}
        if "code" not in query:
            raise RuntimeError(f"authorize redirect without a code: {query.get('error')}")
        self.answer = AuthorizationCodeResult(
            code=query["code"], state=query.get("state"), iss=query.get("iss")
        )

    async def callback(self) -> AuthorizationCodeResult:
        assert self.answer is not None
        answer, self.answer = self.answer, None
        return answer


async def auth_for(url: str, scenario: str, context: dict[str, Any]) -> httpx2.Auth | None:
    if not scenario.startswith("auth/"):
        return None
    storage = MemoryStorage()
    client_id = context.get("client_id")
    if scenario == "auth/client-credentials-jwt":
        params = SignedJWTParameters(
            issuer=client_id,
            subject=client_id,
            signing_key=context["private_key_pem"],
            signing_algorithm=context.get("signing_algorithm", "ES256"),
        )
        return PrivateKeyJWTOAuthProvider(url, storage, client_id, params.create_assertion_provider())
    if scenario == "auth/client-credentials-basic":
        return ClientCredentialsOAuthProvider(url, storage, client_id, context["client_secret"])
    if scenario == "auth/cross-app-access-complete-flow":
        from app.mcp.auth import discover_issuer, exchange_id_token

        issuer = await discover_issuer(url)

        async def id_jag(audience: str, resource: str) -> str:
            return await exchange_id_token(
                context["idp_token_endpoint"],
                context["idp_client_id"],
                context["idp_id_token"],
                audience,
                resource,
            )

        return IdentityAssertionOAuthProvider(
            url,
            storage,
            client_id,
            context["client_secret"],
            issuer,
            id_jag,
            token_endpoint_auth_method="client_secret_basic",
        )
    if client_id:
        storage.client = OAuthClientInformationFull(
            client_id=client_id,
            client_secret=context.get("client_secret"),
            redirect_uris=[REDIRECT],  # type: ignore[list-item]
            token_endpoint_auth_method="client_secret_basic" if context.get("client_secret") else "none",
        )
    follow = FollowRedirect()
    return OAuthClientProvider(
        url,
        OAuthClientMetadata(client_name="sdk-baseline", redirect_uris=[REDIRECT]),  # type: ignore[list-item]
        storage,
        redirect_handler=follow.redirect,
        callback_handler=follow.callback,
        client_metadata_url=CLIENT_METADATA_URL,
    )


async def elicit_defaults(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
    schema = getattr(params, "requested_schema", None) or {}
    content = {k: v["default"] for k, v in (schema.get("properties") or {}).items() if "default" in v}
    return types.ElicitResult(action="accept", content=content)


async def run(url: str, scenario: str) -> int:
    context = json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT") or "{}")
    auth = await auth_for(url, scenario, context)
    async with (
        httpx2.AsyncClient(auth=auth, timeout=httpx2.Timeout(30.0, read=300.0)) as http,
        streamable_http_client(url, http_client=http) as (read, write),
        ClientSession(read, write, elicitation_callback=elicit_defaults) as session,
    ):
        await session.initialize()
        tools = (await session.list_tools()).tools
        calls: dict[str, dict[str, Any]] = {
            "tools_call": {"add_numbers": {"a": 5, "b": 3}},
            "initialize": {},
        }.get(scenario, {t.name: {} for t in tools})
        for name, arguments in calls.items():
            result = await session.call_tool(name, arguments)
            print(f"{name}: {'error' if result.is_error else 'ok'}")
    return 0


def main() -> int:
    logging.basicConfig(level=logging.WARNING, format="sdk-client %(levelname)s %(name)s: %(message)s")
    scenario = os.environ.get("MCP_CONFORMANCE_SCENARIO", "")
    try:
        return asyncio.run(run(sys.argv[-1], scenario))
    except Exception as exc:
        print(f"sdk-client: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
