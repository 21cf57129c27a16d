"""Client adapter for the official MCP conformance suite (npm `@modelcontextprotocol/conformance`),
built on MCP Desk's engine (`app.mcp.ServerConnection`), not on the raw SDK.

The suite starts a test server per scenario and runs `python adapter.py <server url>` with the
scenario's name in MCP_CONFORMANCE_SCENARIO. The adapter connects as the app does (auto protocol
mode: discover, falling back to initialize; every catalog page), does what the scenario asks, and
disconnects. Exit 0 when everything it did succeeded; 1 with one line on stderr otherwise.

Auth scenarios go through the app's sign-in exactly as a person's would: a plain connect first
(which settles in "needs sign-in"), then `sign_in()` with a headless browser that follows the
authorization server's redirect to the loopback listener itself. Tokens live in an in-memory
SecretStore. What a person would type into the Edit dialog (a pre-registered client id and
secret, a client-credentials client, a client metadata document URL) comes from
MCP_CONFORMANCE_CONTEXT and the scenario's name, as `Target.oauth`.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repo root, for `app`

import dataclasses
import json

from app.mcp.target import OAuthOptions, target_from_command_line

# The tool calls each scenario needs; a scenario not listed here calls every tool it finds with
# arguments made from the tool's schema (defaults, else simple values).
SCENARIO_CALLS: dict[str, list[tuple[str, dict[str, Any]]]] = {
    "initialize": [],
    "tools_call": [("add_numbers", {"a": 5, "b": 3})],
    "elicitation-sep1034-client-defaults": [("test_client_elicitation_defaults", {})],
    "sse-retry": [("test_reconnection", {})],
}
# Scenarios whose server asks for input: answer with the schema's defaults (the CLI's --accept-defaults).
ACCEPT_DEFAULTS = {"elicitation-sep1034-client-defaults"}
# The client metadata document URL the suite's CIMD authorization server knows (auth/basic-cimd).
CONFORMANCE_CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json"
SIMPLE_VALUES: dict[str, Any] = {
    "string": "test",
    "number": 1,
    "integer": 1,
    "boolean": True,
    "array": [],
    "object": {},
}


def arguments_for(schema: dict[str, Any]) -> dict[str, Any]:
    """Defaults where given, simple values for the other required properties."""
    props = schema.get("properties") or {}
    args: dict[str, Any] = {}
    for name, sub in props.items():
        if not isinstance(sub, dict):
            continue
        if "default" in sub:
            args[name] = sub["default"]
        elif name in (schema.get("required") or []):
            kind = sub.get("type")
            args[name] = SIMPLE_VALUES.get(kind if isinstance(kind, str) else "string", "test")
    return args


def oauth_options(scenario: str, context: dict[str, Any]) -> OAuthOptions | None:
    """The sign-in settings a person would have entered for this scenario's server."""
    if not scenario.startswith("auth/"):
        return None
    client_id = context.get("client_id")
    if "client-credentials" in scenario:
        return OAuthOptions(
            client_id=client_id,
            client_secret=context.get("client_secret"),
            grant="client_credentials",
            private_key=context.get("private_key_pem"),
            signing_algorithm=context.get("signing_algorithm") or "RS256",
        )
    return OAuthOptions(
        client_id=client_id,
        client_secret=context.get("client_secret"),
        client_metadata_url=CONFORMANCE_CLIENT_METADATA_URL,
    )


async def run(url: str, scenario: str) -> int:
    from app.mcp.auth import HeadlessBrowser
    from app.mcp.connection import ServerConnection
    from app.mcp.events import ConnectionState
    from app.mcp.handlers import HeadlessHandlers
    from app.mcp.results import CallFailed
    from app.secrets.store import SecretStore

    context = json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT") or "{}")
    target = target_from_command_line(None, url, name="conformance", timeout=20.0)
    target = dataclasses.replace(target, oauth=oauth_options(scenario, context))
    conn = ServerConnection(
        target,
        handlers=HeadlessHandlers(accept_defaults=scenario in ACCEPT_DEFAULTS),
        secrets=SecretStore(session_only=True),
        browser=HeadlessBrowser(),
    )
    conn.start()
    try:
        state = await conn.wait_settled(30.0)
        if state == ConnectionState.NEEDS_SIGN_IN:
            print(f"needs sign-in: {conn.reason}; signing in")
            state = await conn.sign_in(timeout=20.0)
        if state != ConnectionState.READY:
            print(f"adapter: could not connect: {conn.reason}", file=sys.stderr)
            return 1
        print(f"connected: protocol {conn.protocol_version}, {len(conn.catalog.tools)} tools")
        calls = SCENARIO_CALLS.get(scenario)
        if calls is None:
            calls = [(name, arguments_for(tool.input_schema)) for name, tool in conn.catalog.tools.items()]
        failed = 0
        for name, arguments in calls:
            try:
                result = await conn.call_tool(name, arguments)
            except CallFailed as exc:
                print(f"adapter: {name} failed: {exc}", file=sys.stderr)
                failed += 1
                continue
            print(f"{name}: {'error: ' if result.is_error else ''}{result.text()}")
        return 1 if failed else 0
    finally:
        await conn.stop()


def main() -> int:
    # ADAPTER_DEBUG=1: the engine's info lines too (why a sign-in did not happen).
    level = logging.INFO if os.environ.get("ADAPTER_DEBUG") else logging.WARNING
    logging.basicConfig(level=level, format="adapter %(levelname)s %(name)s: %(message)s")
    if len(sys.argv) < 2:
        print("usage: adapter.py SERVER_URL (scenario in MCP_CONFORMANCE_SCENARIO)", file=sys.stderr)
        return 2
    scenario = os.environ.get("MCP_CONFORMANCE_SCENARIO", "")
    return asyncio.run(run(sys.argv[-1], scenario))


if __name__ == "__main__":
    sys.exit(main())
