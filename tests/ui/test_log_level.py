"""The log pane's "Server sends at least:" control: the selected server's own log level, kept in
its settings and told to the connected server (tests/servers/log_level_server.py over stdio:
2026-07-28 in auto mode, the level in each request's `_meta`; 2025-11-25 with the legacy mode,
logging/setLevel)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.ui.conftest import connect, open_desk, run, write_servers

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")

CHATTY = {"command": sys.executable, "args": ["-m", "tests.servers.log_level_server"]}


def rows(dock: Any) -> list[Any]:
    model = dock.log_model
    return [model.row(i) for i in range(model.rowCount())]


def sent(dock: Any, method: str) -> list[dict[str, Any]]:
    """The requests for `method` in the Messages tab's rows (what went to the servers)."""
    model = dock.traffic_model
    messages = [model.row(i).message for i in range(model.rowCount())]
    return [m for m in messages if m.get("method") == method]


def legacy(config_dir: Path, name: str) -> None:
    """Set `name`'s protocol mode to legacy (2025 era) in settings.json, as the Edit dialog does."""
    path = config_dir / "settings.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data.setdefault("servers", {}).setdefault(name, {})["protocol_mode"] = "legacy"
    path.write_text(json.dumps(data), encoding="utf-8")


def choose(combo: Any, level: str) -> None:
    """Pick `level` as the person does (activated, not a programmatic change)."""
    index = combo.findData(level)
    assert index >= 0, level
    combo.setCurrentIndex(index)
    combo.activated.emit(index)


def test_the_selected_servers_level_is_kept_and_told_to_the_server(
    qtbot: Any, aloop: Any, config_dir: Path
) -> None:
    write_servers(config_dir, {"chatty": CHATTY, "quiet": dict(CHATTY)})
    with open_desk(qtbot) as desk:
        connect(qtbot, desk, "chatty")
        dock = desk.bottom
        combo = dock.server_log_level
        # All servers: nothing to set.
        assert dock.log_server.server() is None and not combo.isEnabled()
        dock.log_server.setCurrentIndex(dock.log_server.findData("chatty"))
        assert combo.isEnabled() and combo.currentData() == "info"  # never chosen: what is asked for
        choose(combo, "warning")
        qtbot.waitUntil(lambda: desk.controller.log_level("chatty") == "warning", timeout=10000)
        conn = desk.controller.connection("chatty")
        assert conn.protocol_version == "2026-07-28"
        qtbot.waitUntil(lambda: conn.log_level.chosen == "warning", timeout=10000)
        # Kept in settings.json with the server's other settings, not in the shared servers.json.
        settings = json.loads((config_dir / "settings.json").read_text(encoding="utf-8"))
        assert settings["servers"]["chatty"]["log_level"] == "warning"
        shared = json.loads((config_dir / "servers.json").read_text(encoding="utf-8"))
        assert "log_level" not in shared["mcpServers"]["chatty"]
        # The other server shows its own (never chosen) level; back on chatty, its choice.
        dock.log_server.setCurrentIndex(dock.log_server.findData("quiet"))
        assert combo.currentData() == "info"
        dock.log_server.setCurrentIndex(dock.log_server.findData("chatty"))
        assert combo.currentData() == "warning"
        # Only warning and above arrive in the log now.
        run(qtbot, conn.call_tool("chatter"))
        qtbot.waitUntil(lambda: any("emergency line" in r.text for r in rows(dock)), timeout=10000)
        levels = [r.level for r in rows(dock) if r.source == "server"]
        assert levels == ["warning", "error", "critical", "alert", "emergency"]
        call = sent(dock, "tools/call")[-1]
        assert call["params"]["_meta"]["io.modelcontextprotocol/logLevel"] == "warning"


def test_a_2025_server_is_told_on_connect_and_at_once(qtbot: Any, aloop: Any, config_dir: Path) -> None:
    write_servers(config_dir, {"chatty": CHATTY})
    legacy(config_dir, "chatty")
    with open_desk(qtbot) as desk:
        dock = desk.bottom
        dock.log_server.setCurrentIndex(dock.log_server.findData("chatty"))
        choose(dock.server_log_level, "error")  # not connected: only kept
        qtbot.waitUntil(lambda: desk.controller.log_level("chatty") == "error", timeout=10000)
        connect(qtbot, desk, "chatty")
        conn = desk.controller.connection("chatty")
        assert conn.protocol_version == "2025-11-25"
        assert run(qtbot, conn.call_tool("level")).text() == "error"  # logging/setLevel on connect
        choose(dock.server_log_level, "debug")
        qtbot.waitUntil(lambda: len(sent(dock, "logging/setLevel")) == 2, timeout=10000)
        assert sent(dock, "logging/setLevel")[-1]["params"]["level"] == "debug"


def test_settings_round_trip_and_ignore_a_wrong_value() -> None:
    from app.config.model import ServerSettings

    s = ServerSettings.from_json({"timeout": 30, "log_level": "Notice"})
    assert s.log_level == "notice"
    s.log_level = "debug"
    assert s.to_json() == {"timeout": 30, "log_level": "debug"}
    s.log_level = None
    assert s.to_json() == {"timeout": 30}
    assert ServerSettings.from_json({"log_level": "loud"}).log_level is None
    assert ServerSettings.from_json({"log_level": "loud"}).to_json() == {"log_level": "loud"}  # as written
