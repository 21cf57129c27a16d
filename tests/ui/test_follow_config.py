"""Connections follow the server list during a session: a server added (Add dialog, paste, import,
duplicate) or switched on connects by itself, an edit that changes how to connect reconnects, one
switched off disconnects. Against the real demo server."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.ui.conftest import DEMO, run, wait_state
from tests.ui.test_manage import open_dialog, save

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")


def tools_of(desk: Any, name: str) -> int:
    row = desk.server_model.server(name)
    return row.tool_count if row is not None else -1


def test_server_added_through_the_dialog_connects_by_itself(qtbot: Any, desk: Any) -> None:
    d = open_dialog(qtbot, desk)
    qtbot.keyClicks(d.name, "mine")
    qtbot.keyClicks(d.command, sys.executable)
    d.set_args(["-m", "app", "demo-server"])
    save(qtbot, desk, d)
    # Nobody presses Connect: it gets there by itself, with its tools listed.
    wait_state(qtbot, desk, "mine", "ready")
    assert tools_of(desk, "mine") >= 10
    # The servers that were there before are left as they were (not connected in this fixture).
    assert desk.server_model.server("demo").state == "idle"


def test_disabled_server_added_stays_idle_until_switched_on(qtbot: Any, desk: Any) -> None:
    d = open_dialog(qtbot, desk)
    qtbot.keyClicks(d.name, "later")
    qtbot.keyClicks(d.command, sys.executable)
    d.set_args(["-m", "app", "demo-server"])
    d.enabled.setChecked(False)
    save(qtbot, desk, d)
    qtbot.waitUntil(lambda: "later" in desk.server_model.names())
    # Switching it on (Edit) connects it; nothing connected it before.
    assert desk.controller.connection("later") is None
    assert desk.server_model.server("later").state == "idle"
    d = open_dialog(qtbot, desk, "later")
    d.enabled.setChecked(True)
    save(qtbot, desk, d)
    wait_state(qtbot, desk, "later", "ready")
    # Switching it off disconnects it.
    d = open_dialog(qtbot, desk, "later")
    d.enabled.setChecked(False)
    save(qtbot, desk, d)
    qtbot.waitUntil(lambda: desk.server_model.server("later").state in ("closed", "idle"), timeout=20000)
    conn = desk.controller.connection("later")
    assert conn is None or conn.state.value in ("closed", "idle")


def test_pasted_imported_and_duplicated_servers_connect(qtbot: Any, desk: Any, tmp_path: Path) -> None:
    from app.ui.server_dialog import _import_file

    d = open_dialog(qtbot, desk)
    assert d.apply_snippet(json.dumps({"mcpServers": {"pasted": DEMO, "other": DEMO}})) == 2
    d.buttons.button(d.buttons.StandardButton.Save).click()
    wait_state(qtbot, desk, "pasted", "ready")
    wait_state(qtbot, desk, "other", "ready")

    f = tmp_path / "claude_desktop_config.json"
    f.write_text(json.dumps({"mcpServers": {"imported": DEMO}}), encoding="utf-8")
    run(qtbot, _import_file(desk, f, "auto"))
    wait_state(qtbot, desk, "imported", "ready")

    desk.servers.select("imported")
    desk.servers.buttons["duplicate"].click()
    wait_state(qtbot, desk, "imported-copy", "ready")
    assert tools_of(desk, "imported-copy") >= 10


def test_edit_that_changes_the_command_reconnects_with_it(qtbot: Any, desk: Any) -> None:
    # A server that failed (wrong command) and is then fixed: it tries again with the fix.
    d = open_dialog(qtbot, desk)
    qtbot.keyClicks(d.name, "fixme")
    qtbot.keyClicks(d.command, sys.executable)
    d.set_args(["-m", "app", "no-such-subcommand"])
    save(qtbot, desk, d)
    wait_state(qtbot, desk, "fixme", "failed")
    d = open_dialog(qtbot, desk, "fixme")
    d.set_args(["-m", "app", "demo-server"])
    save(qtbot, desk, d)
    wait_state(qtbot, desk, "fixme", "ready")
    first = desk.controller.connection("fixme")
    assert first.target.args == ("-m", "app", "demo-server")

    # A working server whose environment changed: a new connection with it.
    d = open_dialog(qtbot, desk, "fixme")
    d.env.add_row("DEMO_COLOUR", "teal", False)
    save(qtbot, desk, d)
    qtbot.waitUntil(
        lambda: (
            (c := desk.controller.connection("fixme")) is not None
            and c.target.env.get("DEMO_COLOUR") == "teal"
            and c.state.value == "ready"
        ),
        timeout=30000,
    )
    assert desk.controller.connection("fixme") is not first
    wait_state(qtbot, desk, "fixme", "ready")
