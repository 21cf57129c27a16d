"""The canary: every private part of the SDK the engine uses (app/mcp/sdk_private.py) is still there.

An SDK upgrade that removes or renames one fails here, by name, instead of deep in a connection
(a listing that silently keeps invalid tools, a call that never answers). The pin in
pyproject.toml keeps upgrades to the minor version these were checked against.
"""

from __future__ import annotations

import importlib.metadata
from typing import Any

import pytest

from app.mcp import sdk_private
from app.mcp.connection import ServerConnection
from app.mcp.events import ConnectionState
from app.mcp.target import Target
from tests.mcp.sdk_server import build_server
from tests.servers.harness import EventLog

pytestmark = pytest.mark.anyio

TARGET = Target(name="canary", transport="stdio", command="unused", mode="auto")


def test_the_installed_sdk_is_the_tested_minor() -> None:
    version = importlib.metadata.version("mcp")
    assert version.split(".")[:2] == sdk_private.TESTED_SDK.split("."), (
        f"mcp {version} is installed; app/mcp/sdk_private.py was checked against {sdk_private.TESTED_SDK}"
    )


def test_nothing_private_is_missing_from_the_classes() -> None:
    assert sdk_private.missing() == []


@pytest.mark.parametrize(
    ("module", "owner", "name"),
    [
        ("mcp.client.session", "ClientSession", "_absorb_tool_listing"),
        ("mcp.shared.jsonrpc_dispatcher", "JSONRPCDispatcher", "send_raw_request"),
    ],
)
def test_the_canary_notices_a_removed_method(monkeypatch: Any, module: str, owner: str, name: str) -> None:
    """The check can fail: an SDK without one of them is reported by name."""
    import importlib

    cls = getattr(importlib.import_module(module), owner)
    monkeypatch.delattr(cls, name)
    assert f"{module}.{owner}.{name}" in sdk_private.missing()


def test_the_canary_notices_a_removed_driver(monkeypatch: Any) -> None:
    import mcp.client._input_required as driver

    monkeypatch.delattr(driver, "run_input_required_driver")
    assert "mcp.client._input_required.run_input_required_driver" in sdk_private.missing()


async def test_a_live_session_has_every_private_part_and_they_work() -> None:
    """Against a real (in-process, 2026-07-28) SDK server: the session's instance attributes are
    there, a raw listing through them answers, and the listing is absorbed."""
    server, _ = build_server()
    conn = ServerConnection(TARGET, sink=EventLog(), server=server)
    conn.start()
    try:
        assert await conn.wait_settled(10) == ConnectionState.READY, conn.reason
        session = conn._require_client().session
        assert sdk_private.missing(session) == []
        page = await sdk_private.send_raw(session, "tools/list", None)
        assert any(tool["name"] == "echo" for tool in page["tools"])
        import mcp_types as types

        kept = sdk_private.absorb_tool_listing(
            session, types.ListToolsResult.model_validate(page), complete=True
        )
        assert {t.name for t in kept.tools} == {t["name"] for t in page["tools"]}
        assert sdk_private.http_pool(_shared_client()) is not None
    finally:
        await conn.stop()


def _shared_client() -> Any:
    from app.mcp.http import new_shared_client

    return new_shared_client()


def test_the_canary_notices_a_session_without_its_stamp() -> None:
    class Bare:
        pass

    assert set(sdk_private.missing(Bare())) >= {"ClientSession._stamp", "ClientSession._dispatcher"}


def test_our_copy_of_the_inherited_environment_is_the_sdks(monkeypatch: pytest.MonkeyPatch) -> None:
    # app.mcp.process copies the SDK's allowlist so the CLI can start a server before the SDK loads.
    from mcp.client.stdio import DEFAULT_INHERITED_ENV_VARS, get_default_environment

    from app.mcp.process import INHERITED_ENV_VARS, inherited_environment

    assert tuple(DEFAULT_INHERITED_ENV_VARS) == INHERITED_ENV_VARS
    first, second = INHERITED_ENV_VARS[0], INHERITED_ENV_VARS[1]
    monkeypatch.setenv(first, "() { echo a shell function; }")
    monkeypatch.delenv(second, raising=False)
    monkeypatch.setenv("NOT_INHERITED", "x")
    assert inherited_environment() == get_default_environment()
    assert first not in inherited_environment() and "NOT_INHERITED" not in inherited_environment()
