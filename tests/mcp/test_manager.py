"""ConnectionManager: many servers at once, a bad one hurts only itself, reconnect, shutdown."""

from __future__ import annotations

import sys
import time

import pytest

from app.mcp.events import ConnectionState, StateChanged
from app.mcp.manager import ConnectionManager
from app.mcp.target import Target
from tests.mcp.conftest import demo_target, sdk_target
from tests.servers.harness import EventLog
from tests.servers.process import TOKEN_VAR, wait_no_processes

pytestmark = pytest.mark.anyio


def hanging_target(token: str, name: str = "hangs") -> Target:
    # Starts, reads nothing, answers nothing: the handshake never completes.
    return Target(
        name=name,
        transport="stdio",
        command=sys.executable,
        args=("-c", "import time; time.sleep(120)"),
        env={TOKEN_VAR: token},
        timeout=60.0,
    )


async def test_a_hanging_server_does_not_delay_another(token: str) -> None:
    events = EventLog()
    manager = ConnectionManager(sink=events)
    manager.set_target(hanging_target(token))
    manager.set_target(sdk_target("good", token=token))
    manager.set_target(Target(name="broken", transport="stdio", command="no-such-command-mcp-desk"))
    started = time.monotonic()
    manager.connect_all()
    try:
        good = manager.get("good")
        assert good is not None
        assert await good.wait_settled(30) == ConnectionState.READY, good.reason
        ready_after = time.monotonic() - started
        hanging = manager.get("hangs")
        assert hanging is not None and hanging.state == ConnectionState.CONNECTING
        broken = manager.get("broken")
        assert broken is not None and await broken.wait_settled(5) == ConnectionState.FAILED
        assert ready_after < 30  # well before the hanging server's 60 s connect timeout
        result = await good.call_tool("echo", {"text": "works"})
        assert result.text() == "echo: works"
        # Qualified names across servers.
        found = manager.find_tool("good/echo")
        assert found is not None and found[0] is good and found[1].name == "echo"
        assert manager.find_tool("hangs/echo") is None
        assert manager.find_tool("echo") is None
        names = [q for q, _ in manager.all_tools()]
        assert "good/echo" in names and all(q.startswith("good/") for q in names)
    finally:
        await manager.shutdown()
    assert {manager.get(n).state for n in manager.names()} == {ConnectionState.CLOSED}  # type: ignore[union-attr]
    assert wait_no_processes(token, 5) == []


async def test_dropped_connection_reconnects_but_config_failure_does_not(
    token: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("app.mcp.manager.BACKOFF_FIRST", 0.05)
    events = EventLog()
    manager = ConnectionManager(sink=events)
    manager.set_target(sdk_target("drops", token=token))
    manager.set_target(Target(name="broken", transport="stdio", command="no-such-command-mcp-desk"))
    manager.connect_all()
    try:
        conn = manager.get("drops")
        assert conn is not None and await conn.wait_settled(30) == ConnectionState.READY
        with pytest.raises(Exception):  # noqa: B017 - the crash is the point, its type is not
            await conn.call_tool("exit", {"code": 9})

        def states(name: str) -> list[ConnectionState]:
            return [e.state for e in events.of(StateChanged) if e.server == name]

        await events.wait_until(lambda: states("drops").count(ConnectionState.READY) >= 2, timeout=30)
        assert states("drops") == [
            ConnectionState.CONNECTING,
            ConnectionState.READY,
            ConnectionState.FAILED,
            ConnectionState.CONNECTING,
            ConnectionState.READY,
        ]
        assert (await conn.call_tool("echo", {"text": "back"})).text() == "echo: back"
        assert states("broken") == [ConnectionState.CONNECTING, ConnectionState.FAILED]
    finally:
        await manager.shutdown()
    assert wait_no_processes(token, 5) == []


async def test_disconnect_reconnect_and_remove(token: str) -> None:
    manager = ConnectionManager()
    manager.set_target(sdk_target("one", token=token))
    manager.connect("one")
    conn = manager.get("one")
    assert conn is not None
    try:
        assert await conn.wait_settled(30) == ConnectionState.READY
        first_pid = conn.process.pid if conn.process else None
        await manager.reconnect("one")
        assert await conn.wait_settled(30) == ConnectionState.READY
        assert conn.process is not None and conn.process.pid != first_pid
        await manager.disconnect("one")
        assert conn.state == ConnectionState.CLOSED
        assert wait_no_processes(token, 5) == []
        manager.remove("one")
        assert manager.get("one") is None and manager.names() == []
    finally:
        await manager.shutdown()


async def test_changed_target_reconnects_roots_only_change_does_not(token: str, tmp_path: object) -> None:
    manager = ConnectionManager()
    target = sdk_target("cfg", token=token, roots=("/tmp/a",))
    manager.set_target(target)
    manager.connect("cfg")
    try:
        conn = manager.get("cfg")
        assert conn is not None and await conn.wait_settled(30) == ConnectionState.READY
        same = manager.set_target(sdk_target("cfg", token=token, roots=("/tmp/b",)))
        assert same is conn and conn.state == ConnectionState.READY
        changed = manager.set_target(sdk_target("cfg", "auto", token=token, roots=("/tmp/b",)))
        assert changed is not conn
        assert await changed.wait_settled(30) == ConnectionState.READY
        assert changed.protocol_version == "2026-07-28"
        await conn.wait_settled(10)
        assert conn.state == ConnectionState.CLOSED
    finally:
        await manager.shutdown()
    assert wait_no_processes(token, 5) == []


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_demo_server(mode: str) -> None:
    manager = ConnectionManager()
    manager.set_target(demo_target(mode=mode))
    manager.connect_all()
    try:
        states = await manager.wait_settled(60)
        conn = manager.get("demo")
        assert conn is not None
        assert states == {"demo": ConnectionState.READY}, conn.reason
        assert conn.protocol_version == {"legacy": "2025-11-25", "auto": "2026-07-28"}[mode]
        assert conn.catalog.tools
        assert manager.all_tools()[0][0].startswith("demo/")
    finally:
        await manager.shutdown()


async def test_roots_change_before_connecting_is_used(tmp_path: object, token: str) -> None:
    import json
    from pathlib import Path

    root = Path(str(tmp_path))
    manager = ConnectionManager()
    manager.set_target(sdk_target("r", token=token, roots=("/nowhere",)))
    manager.set_target(sdk_target("r", token=token, roots=(str(root),)))
    manager.connect("r")
    try:
        conn = manager.get("r")
        assert conn is not None and await conn.wait_settled(30) == ConnectionState.READY
        assert json.loads((await conn.call_tool("roots")).text()) == [root.as_uri()]
    finally:
        await manager.shutdown()


async def test_shutdown_waits_for_removed_servers(token: str) -> None:
    manager = ConnectionManager()
    manager.set_target(sdk_target("gone", token=token))
    manager.connect("gone")
    conn = manager.get("gone")
    assert conn is not None and await conn.wait_settled(30) == ConnectionState.READY
    manager.remove("gone")
    await manager.shutdown()
    assert conn.state == ConnectionState.CLOSED
    assert wait_no_processes(token, 5) == []


async def test_events_as_an_async_iterator() -> None:
    from app.mcp.events import EventStream

    manager = ConnectionManager()
    manager.set_target(sdk_target("it"))
    with EventStream(manager.add_sink) as stream:
        manager.connect("it")
        try:
            seen: list[ConnectionState] = []
            async for event in stream:
                if isinstance(event, StateChanged):
                    seen.append(event.state)
                    if event.state in (ConnectionState.READY, ConnectionState.FAILED):
                        break
            assert seen == [ConnectionState.CONNECTING, ConnectionState.READY]
        finally:
            await manager.shutdown()
    assert stream.dropped == 0


async def test_connect_all_skips_disabled_servers() -> None:
    manager = ConnectionManager()
    manager.set_target(sdk_target("on"))
    off = manager.set_target(sdk_target("off"), enabled=False)
    manager.connect_all()
    try:
        assert await manager.wait_settled(30) == {"on": ConnectionState.READY}
        assert off.state == ConnectionState.IDLE
    finally:
        await manager.shutdown()
