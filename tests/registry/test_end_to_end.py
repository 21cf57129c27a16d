"""From the directory to a connected server, with the real engine: the remote entry, a secret
answered, the header filled from the keychain at connect time, and a tool call that answers."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.install.plan import apply
from app.mcp.events import ConnectionState
from app.mcp.manager import ConnectionManager
from app.mcp.target import target_from_config
from app.registry.cache import ResponseCache
from app.registry.client import RegistryClient
from app.registry.convert import to_plan
from app.secrets.store import SecretStore
from tests.servers.harness import EventLog
from tests.servers.registry_fixtures import NOTES_TOKEN
from tests.servers.registry_server import RegistryFixture

pytestmark = pytest.mark.anyio


async def test_a_remote_entry_with_a_secret_header_connects(
    notes_server: str, registry: RegistryFixture, tmp_path: Path
) -> None:
    c = RegistryClient(registry.base, cache=ResponseCache(tmp_path / "cache"))
    (found,) = (await c.search("notes")).servers
    server = await c.latest(found.name)
    plan = to_plan(server, icon=await c.icon(server))
    await c.aclose()
    assert plan.icon is not None and plan.entry.url == notes_server

    done = apply(plan, {"api_key": NOTES_TOKEN})
    secrets = SecretStore()
    for name, value in done.secrets.items():
        secrets.set(plan.name, name, value)
    assert NOTES_TOKEN not in repr(done.entry.to_json())

    manager = ConnectionManager(sink=EventLog())
    try:
        conn = manager.set_target(target_from_config(done.entry, None, secrets))
        manager.connect(plan.name)
        assert await conn.wait_settled(30) == ConnectionState.READY, conn.reason
        assert (await conn.call_tool("echo", {"text": "hi"})).text() == "echo: hi"
    finally:
        await manager.shutdown()


async def test_a_wrong_key_does_not_connect(
    notes_server: str, registry: RegistryFixture, tmp_path: Path
) -> None:
    # The check above can fail: the server really wants the key.
    c = RegistryClient(registry.base, cache=ResponseCache(tmp_path / "cache"))
    plan = to_plan(await c.latest("com.example/notes"))
    await c.aclose()
    done = apply(plan, {"api_key": "not-the-key"})
    secrets = SecretStore()
    for name, value in done.secrets.items():
        secrets.set(plan.name, name, value)
    manager = ConnectionManager(sink=EventLog())
    try:
        conn = manager.set_target(target_from_config(done.entry, None, secrets))
        manager.connect(plan.name)
        assert await conn.wait_settled(30) != ConnectionState.READY
    finally:
        await manager.shutdown()
