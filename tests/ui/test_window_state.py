"""One source of truth for a server's state: the engine's events (issue 11 §1.5).

The row, the overview's title and the middle's placeholder all read the state the engine
published; the window marks nothing itself. A server waiting for the trust prompt says so (not
"connecting…"); a target that cannot be prepared (a key missing) fails through the engine; Edit →
Save of a failed server tries again, without a stray "disconnected" from the replaced connection.
Real processes throughout: the demo server, a missing command, a server that touches a file.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support.trust import marking_server
from tests.ui.conftest import DEMO, open_desk, run, wait_state, write_servers

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")

WAIT = 30000


def views(window: Any, server: str) -> tuple[str, str, str]:
    """(the row's status, the overview's title, the middle's placeholder) for `server`."""
    assert window.servers.select(server)
    row = window.server_model.server(server)
    assert row is not None
    return row.status_text(), window.overview_title.text(), window.catalog.empty.text()


def record_states(window: Any) -> list[tuple[str, str, str]]:
    seen: list[tuple[str, str, str]] = []
    window.controller.bridge.state_changed.connect(lambda s, st, r: seen.append((s, st, r)))
    return seen


def test_servers_waiting_for_approval_at_start_do_not_say_connecting(
    qtbot: Any, aloop: Any, config_dir: Path
) -> None:
    first, second = config_dir.parent / "first", config_dir.parent / "second"
    write_servers(
        config_dir,
        {"first": marking_server(first), "second": marking_server(second), "demo": DEMO},
        approved=False,
    )
    with open_desk(qtbot, connect_enabled=True, approve=False) as window:
        qtbot.waitUntil(
            lambda: window.trust_prompter.dialog is not None and window.trust_prompter.dialog.isVisible(),
            timeout=WAIT,
        )
        asked = window.trust_prompter.dialog.request.server
        waiting = "second" if asked == "first" else "first"
        wait_state(qtbot, window, "demo", "ready")  # needs no approval: it connected meanwhile
        for name in (asked, waiting):
            row = window.server_model.server(name)
            assert row is not None and row.state == "idle", (name, row)
            status, title, middle = views(window, name)
            assert status == "waiting for your OK", status
            assert title == f"{name} — waiting for your OK", title
            assert "waits for your approval" in middle, middle
            assert "connecting" not in status + title + middle
        assert not first.exists() and not second.exists()
        window.trust_prompter.dialog.dont_run_button.click()
        qtbot.waitUntil(
            lambda: (
                window.trust_prompter.dialog is not None
                and window.trust_prompter.dialog.isVisible()
                and window.trust_prompter.dialog.request.server == waiting
            ),
            timeout=WAIT,
        )
        # Declined: not connected, with the note; the other still waits its turn.
        assert views(window, asked)[0].startswith("not connected · waiting for your approval: press Connect")
        assert views(window, waiting)[0] == "waiting for your OK"
        window.trust_prompter.dialog.allow_button.click()
        wait_state(qtbot, window, waiting, "ready")


def test_list_overview_and_middle_agree_while_connecting_and_after_a_failure(
    qtbot: Any, aloop: Any, config_dir: Path
) -> None:
    # Starts, prints nothing, never answers: "connecting…" until its 3 s timeout, then a failure.
    silent = {"command": sys.executable, "args": ["-c", "import time; time.sleep(120)"]}
    write_servers(config_dir, {"silent": silent})
    settings = config_dir / "settings.json"
    data = json.loads(settings.read_text(encoding="utf-8"))
    data["servers"]["silent"]["timeout"] = 3
    settings.write_text(json.dumps(data), encoding="utf-8")
    with open_desk(qtbot) as window:
        assert window.servers.select("silent")
        window.servers.buttons["connect"].click()
        wait_state(qtbot, window, "silent", "connecting")
        status, title, middle = views(window, "silent")
        assert status == "connecting…"
        assert title == "silent — connecting…"
        assert middle == "Connecting to silent… its tools will appear here."
        assert window.servers.buttons["disconnect"].isEnabled()
        wait_state(qtbot, window, "silent", "failed")
        row = window.server_model.server("silent")
        assert row is not None and row.reason
        status, title, middle = views(window, "silent")
        assert status == f"couldn't connect: {row.reason}"
        assert title == "silent — couldn't connect"
        assert row.reason in middle and "Press Connect" not in middle
        assert window.overview_reason.isVisible() or not window.isVisible()
        assert row.reason in window.overview_reason.text()
        assert "saving a change tries again by itself" in window.overview_reason.text()


def test_a_key_that_is_missing_fails_through_the_engine(qtbot: Any, aloop: Any, config_dir: Path) -> None:
    needs_key = {**DEMO, "env": {"API_KEY": "${secret:API_KEY}"}}
    write_servers(config_dir, {"keyed": needs_key})
    with open_desk(qtbot) as window:
        manager = run(qtbot, window.controller.ensure_engine())
        published: list[Any] = []
        manager.add_sink(published.append)
        assert window.servers.select("keyed")
        window.servers.buttons["connect"].click()
        wait_state(qtbot, window, "keyed", "failed")
        # The state came from the engine (its sinks saw it), not from a signal the window faked.
        from app.mcp.events import StateChanged

        states = [(e.server, e.state.value, e.reason) for e in published if isinstance(e, StateChanged)]
        assert [s[:2] for s in states] == [("keyed", "failed")], states
        assert "API_KEY" in (states[0][2] or "")
        status, title, middle = views(window, "keyed")
        assert status.startswith("couldn't connect: ") and "API_KEY" in status
        assert title == "keyed — couldn't connect"
        assert "API_KEY" in middle


def test_edit_and_save_of_a_failed_server_tries_again(qtbot: Any, aloop: Any, config_dir: Path) -> None:
    write_servers(config_dir, {"broken": {"command": "no-such-command-mcp-desk"}})
    with open_desk(qtbot) as window:
        c = window.controller
        assert window.servers.select("broken")
        window.servers.buttons["connect"].click()
        wait_state(qtbot, window, "broken", "failed")
        assert "tries again by itself" in window.overview_reason.text()
        seen = record_states(window)
        # Edit → Save, as the Edit dialog saves: the entry fixed (the demo's command), saved.
        from app.config.model import ServerEntry
        from app.ui.server_dialog import save_entry

        fixed = ServerEntry.from_json("broken", DEMO)
        assert run(qtbot, save_entry(window, "broken", fixed, {}))
        wait_state(qtbot, window, "broken", "ready")
        mine = [st for s, st, _ in seen if s == "broken"]
        assert mine[0] == "connecting", mine
        # No "disconnected" from the replaced connection after the new one started.
        assert "closed" not in mine, mine
        status, title, middle = views(window, "broken")
        assert status.startswith("connected") and title.startswith("broken — connected") and middle == ""
        assert c.connection("broken") is not None


def test_saving_a_failed_servers_settings_tries_again(qtbot: Any, aloop: Any, config_dir: Path) -> None:
    """Only its timeout changed (the same command): saving still tries again."""
    write_servers(config_dir, {"broken": {"command": "no-such-command-mcp-desk"}})
    with open_desk(qtbot) as window:
        c = window.controller
        assert window.servers.select("broken")
        window.servers.buttons["connect"].click()
        wait_state(qtbot, window, "broken", "failed")
        seen = record_states(window)
        c.settings("broken").timeout = 7.0
        c.save()
        qtbot.waitUntil(lambda: [st for s, st, _ in seen if s == "broken"][-1:] == ["failed"], timeout=WAIT)
        mine = [st for s, st, _ in seen if s == "broken"]
        assert mine[0] == "connecting" and "closed" not in mine, mine
