"""Targets from the config (secrets resolved through the keyring) and from the command line."""

from __future__ import annotations

import copy
import sys
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.config.model import ServerEntry, ServerSettings
from app.mcp.events import ConnectionState, Traffic
from app.mcp.masking import MASK, mask_text, scrub, scrub_fresh
from app.mcp.target import Target, target_from_command_line, target_from_config
from app.secrets.resolve import MissingSecretError
from app.secrets.store import SecretStore
from tests.mcp.conftest import SDK_SERVER, connected
from tests.servers.harness import EventLog


def test_target_from_config_resolves_secrets_and_applies_settings() -> None:
    store = SecretStore()
    store.set("weather", "API_KEY", "sk-live-123456")
    store.set("weather", "TOKEN", "tok-999999")
    entry = ServerEntry(
        name="weather",
        command="weather-mcp",
        args=["--fast"],
        env={"API_KEY": "${secret:API_KEY}", "PLAIN": "x"},
        cwd="/tmp",
    )
    settings = ServerSettings(timeout=12.5, protocol_mode="legacy", roots=["/data"])
    target = target_from_config(entry, settings, store)
    assert target.transport == "stdio" and target.command == "weather-mcp" and target.args == ("--fast",)
    assert dict(target.env) == {"API_KEY": "sk-live-123456", "PLAIN": "x"}
    assert (target.timeout, target.mode, target.roots, target.cwd) == (12.5, "legacy", ("/data",), "/tmp")
    assert target.secret_values == frozenset({"sk-live-123456"})

    http = ServerEntry(
        name="weather",
        transport="http",
        url="https://x.test/mcp",
        headers={"Authorization": "Bearer ${secret:TOKEN}"},
    )
    t2 = target_from_config(http, ServerSettings(), store)
    assert dict(t2.headers) == {"Authorization": "Bearer tok-999999"}
    assert t2.secret_values == frozenset({"tok-999999"}) and t2.mode == "auto" and t2.timeout == 60.0


def test_target_from_config_missing_secret_and_broken_entry() -> None:
    entry = ServerEntry(name="s", command="x", env={"K": "${secret:NOPE}"})
    with pytest.raises(MissingSecretError):
        target_from_config(entry, ServerSettings(), SecretStore())
    broken = ServerEntry(name="b", command=None, problem="no command")
    with pytest.raises(ValueError, match="no command"):
        target_from_config(broken, ServerSettings(), SecretStore())


def test_target_from_command_line() -> None:
    t = target_from_command_line('npx -y "@scope/server x"', None)
    assert (t.transport, t.command, t.args, t.name) == ("stdio", "npx", ("-y", "@scope/server x"), "npx")
    assert target_from_command_line(None, "http://h/mcp").transport == "http"
    assert target_from_command_line(None, "http://h/sse").transport == "sse"
    assert target_from_command_line(None, "http://h/sse", transport="http").transport == "http"
    with pytest.raises(ValueError):
        target_from_command_line("x", "http://h")
    with pytest.raises(ValueError):
        target_from_command_line(None, None)


def test_target_validation_and_equality() -> None:
    with pytest.raises(ValueError):
        Target(name="x", transport="stdio")
    with pytest.raises(ValueError):
        Target(name="x", transport="http")
    a = Target(name="x", transport="stdio", command="c", env={"A": "1"}, roots=("/a",))
    b = Target(name="x", transport="stdio", command="c", env={"A": "1"}, roots=("/b",))
    assert a != b and a.same_connection(b)
    assert not a.same_connection(Target(name="x", transport="stdio", command="c", env={"A": "2"}))
    assert a.describe() == "c"


def test_masking() -> None:
    secrets = frozenset({"abc", "abcdef"})
    assert mask_text("key=abcdef and abc", secrets) == f"key={MASK} and {MASK}"
    value = {"a": ["xx abc", {"b": "abcdef"}], "n": 1}
    assert scrub(value, secrets) == {"a": [f"xx {MASK}", {"b": MASK}], "n": 1}
    long = scrub("y" * 100, frozenset(), limit=10)
    assert long.startswith("y" * 10) and "90 more characters" in long


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=20,
)


@given(value=_JSON, secrets=st.frozensets(st.text(min_size=1, max_size=3), max_size=2))
def test_scrub_fresh_is_scrub_in_place(value: Any, secrets: frozenset[str]) -> None:
    # The traffic tap masks a message it has just dumped in place; the result must be scrub's.
    expected = scrub(value, secrets, limit=12)
    assert scrub_fresh(copy.deepcopy(value), secrets, limit=12) == expected


@pytest.mark.anyio
async def test_child_environment_is_the_allowlist_plus_the_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MCP_DESK_SHOULD_NOT_LEAK", "leaked")
    events = EventLog()
    # The stderr tool prints whatever we pass; the child prints its own environment at start.
    code = (
        "import os, sys, runpy; "
        "print('ENV ' + ','.join(sorted(os.environ)), file=sys.stderr, flush=True); "
        f"sys.argv = ['s']; runpy.run_path({str(SDK_SERVER)!r}, run_name='__main__')"
    )
    target = Target(
        name="env", transport="stdio", command=sys.executable, args=("-c", code), env={"ADDED": "1"}
    )
    async with connected(target, events) as conn:
        assert conn.state == ConnectionState.READY
        line = next(line for line in conn.log if line.text.startswith("ENV "))
        names = set(line.text[4:].split(","))
        assert "ADDED" in names and "PATH" in names
        assert "MCP_DESK_SHOULD_NOT_LEAK" not in names and "MCP_DESK_CONFIG_DIR" not in names
    assert events.of(Traffic)
