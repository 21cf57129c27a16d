"""Item 3 of issue 11: what a person typed into a tool's form is kept for the session.

Against the real window and the demo server (and `tests/servers/versioned_server.py`, whose tool
changes its form between two connections): the form is as it was left after looking at another
tool, a resource, a refreshed tool list or a reconnect; the History shows the draft; a key typed
into a form is written nowhere on disk.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QLineEdit

from tests.ui.conftest import (
    DEMO,
    connect,
    fill_text_field,
    open_desk,
    run,
    run_tool_and_wait,
    select_tool,
    wait_state,
    write_servers,
)

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")

REPO = Path(__file__).resolve().parents[2]


def history_rows(desk: Any) -> list[str]:
    m = desk.bottom.history_model
    return [m.index(i, 0).data() for i in range(m.rowCount())]


def drafts(desk: Any) -> list[str]:
    return [r for r in history_rows(desk) if r.endswith("[draft, not run yet]")]


def reconnect(qtbot: Any, desk: Any, server: str = "demo") -> None:
    assert desk.servers.select(server)
    desk.servers.buttons["disconnect"].click()
    wait_state(qtbot, desk, server, "closed")
    connect(qtbot, desk, server)


@pytest.mark.slow
def test_typed_input_survives_looking_at_other_tools_and_a_resource(qtbot: Any, desk: Any) -> None:
    connect(qtbot, desk)
    select_tool(qtbot, desk, "echo")
    fill_text_field(qtbot, desk.tool_panel.form, 0, "half a sentence")
    select_tool(qtbot, desk, "weather")
    fill_text_field(qtbot, desk.tool_panel.form, 0, "Lyon")
    assert desk.tool_panel.form_value() == {"city": "Lyon"}

    select_tool(qtbot, desk, "echo")
    assert desk.tool_panel.form_value() == {"message": "half a sentence"}
    # A resource in between: the tool panel is hidden, not rebuilt; coming back finds it all.
    assert desk.catalog.select("resources", "demo", "demo://readme")
    assert desk.right.currentWidget() is desk.resource_panel
    select_tool(qtbot, desk, "weather")
    assert desk.tool_panel.form_value() == {"city": "Lyon"}

    # The History shows both drafts, one row each, until the tool runs.
    assert sorted(r.split("  ", 1)[1] for r in drafts(desk)) == [
        "demo/echo  [draft, not run yet]",
        "demo/weather  [draft, not run yet]",
    ]
    run_tool_and_wait(qtbot, desk)
    assert [r.split("  ", 1)[1] for r in history_rows(desk)] == [
        "demo/weather  [done]",
        "demo/echo  [draft, not run yet]",
    ]
    # Leaving a tool as it was run leaves no draft row: the run's row says it all.
    select_tool(qtbot, desk, "echo")  # (echo's draft stays listed: it is still not run)
    select_tool(qtbot, desk, "weather")
    assert [r.split("  ", 1)[1] for r in drafts(desk)] == ["demo/echo  [draft, not run yet]"]

    # A tool opened and left untouched has no draft.
    select_tool(qtbot, desk, "draw_badge")
    select_tool(qtbot, desk, "weather")
    assert not any("draw_badge" in r for r in history_rows(desk))


def test_open_the_draft_from_history(qtbot: Any, desk: Any) -> None:
    connect(qtbot, desk)
    select_tool(qtbot, desk, "echo")
    fill_text_field(qtbot, desk.tool_panel.form, 0, "come back to me")
    select_tool(qtbot, desk, "weather")
    dock = desk.bottom
    dock.setCurrentWidget(dock._history_page)
    (row,) = [i for i, r in enumerate(history_rows(desk)) if "demo/echo" in r]
    dock.history_view.setCurrentIndex(dock.history_filter.index(row, 0))
    assert dock.rerun.text() == "Open the draft"
    assert desk.tool_panel.tool.name == "weather"  # selecting the row alone goes nowhere
    dock.rerun.click()
    assert desk.tool_panel.tool.name == "echo"
    assert desk.tool_panel.form_value() == {"message": "come back to me"}


@pytest.mark.slow
def test_draft_survives_a_tool_list_refresh_and_a_reconnect(qtbot: Any, desk: Any) -> None:
    connect(qtbot, desk)
    select_tool(qtbot, desk, "echo")
    fill_text_field(qtbot, desk.tool_panel.form, 0, "before the refresh")
    select_tool(qtbot, desk, "weather")
    conn = desk.controller.connection("demo")
    with qtbot.waitSignal(desk.notice_shown, timeout=20000):
        run(qtbot, conn.call_tool("toggle_bonus_tool", {}))  # the server's tool list changes
    select_tool(qtbot, desk, "echo")
    assert desk.tool_panel.tool is desk.controller.connection("demo").catalog.tools["echo"]
    assert desk.tool_panel.form_value() == {"message": "before the refresh"}

    fill_text_field(qtbot, desk.tool_panel.form, 0, "before the reconnect")
    reconnect(qtbot, desk)
    select_tool(qtbot, desk, "echo")
    assert desk.tool_panel.tool is desk.controller.connection("demo").catalog.tools["echo"]
    assert desk.tool_panel.form_value() == {"message": "before the reconnect"}


@pytest.mark.slow
def test_after_a_reconnect_with_a_changed_form_what_still_fits_is_kept(
    qtbot: Any, aloop: Any, config_dir: Path, tmp_path: Path
) -> None:
    version = tmp_path / "version"
    version.write_text("1", encoding="utf-8")
    server = {
        "command": sys.executable,
        "args": ["-m", "tests.servers.versioned_server", str(version)],
        "cwd": str(REPO),
    }
    write_servers(config_dir, {"trips": server})
    with open_desk(qtbot) as desk:
        connect(qtbot, desk, "trips")
        select_tool(qtbot, desk, "book_trip", "trips")
        desk.tool_panel.form.set_value({"city": "Oslo", "nights": 3})
        assert desk.tool_panel.form_value() == {"city": "Oslo", "nights": 3}

        # The same form after a reconnect: everything comes back.
        reconnect(qtbot, desk, "trips")
        select_tool(qtbot, desk, "book_trip", "trips")
        assert desk.tool_panel.form_value() == {"city": "Oslo", "nights": 3}

        # Version 2: "nights" is now a choice (3 no longer fits), "guests" is new and required.
        version.write_text("2", encoding="utf-8")
        reconnect(qtbot, desk, "trips")
        select_tool(qtbot, desk, "book_trip", "trips")
        props = desk.tool_panel.tool.input_schema["properties"]
        assert "guests" in props
        assert desk.tool_panel.form_value() == {"city": "Oslo"}


def test_a_key_typed_into_a_form_is_written_nowhere(
    qtbot: Any, aloop: Any, config_dir: Path, tmp_path: Path, memory_keyring: Any
) -> None:
    secret = "sk-draft-7f3c9a1e5b"
    write_servers(config_dir, {"demo": DEMO})
    with open_desk(qtbot) as desk:
        connect(qtbot, desk)
        select_tool(qtbot, desk, "configure_service")
        form = desk.tool_panel.form
        if hasattr(form, "finish_building"):
            form.finish_building()
        (key_box,) = [
            e
            for e in form.findChildren(QLineEdit)
            if e.echoMode() == QLineEdit.EchoMode.Password and e.isVisibleTo(form)
        ]
        key_box.setFocus()
        qtbot.keyClicks(key_box, secret)
        key_box.editingFinished.emit()
        select_tool(qtbot, desk, "echo")
        select_tool(qtbot, desk, "configure_service")
        value = desk.tool_panel.form_value()
        assert value["settings"]["api_key"] == secret  # kept for the session…
        assert any("configure_service  [draft, not run yet]" in r for r in history_rows(desk))
        select_tool(qtbot, desk, "echo")
        desk.close()  # the window saves its state (window.ini) as it closes
    # …but in memory only: not in the config or data folders, not in the keychain.
    for path in tmp_path.rglob("*"):
        if path.is_file():
            assert secret.encode() not in path.read_bytes(), path
    assert all(secret not in v for v in memory_keyring.store.values())


def test_history_model_keeps_one_draft_row_per_tool_until_it_runs(qtmodeltester: Any) -> None:
    from app.ui.models.history import HistoryEntry, HistoryModel

    h = HistoryModel()
    qtmodeltester.check(h)
    h.set_draft("s", "echo", {"message": "a"})
    h.set_draft("s", "echo", {"message": "ab"})  # replaced, not added
    h.set_draft("t", "echo", {"message": "other server"})  # names are per server
    assert [(e.server, e.tool, e.draft) for e in h.entries()] == [("t", "echo", True), ("s", "echo", True)]
    assert h.draft("s", "echo").arguments == {"message": "ab"}
    h.add(HistoryEntry("s", "echo", {"message": "ab"}))  # the run takes the draft's place
    assert h.draft("s", "echo") is None and h.rowCount() == 2
    h.set_draft("s", "echo", {"message": "ab"})  # left as it was run: nothing new to say
    assert h.draft("s", "echo") is None
    h.set_draft("t", "echo", None)  # back to the untouched form: the draft row goes
    assert [e.outcome() for e in h.entries()] == ["running"]
    qtmodeltester.check(h)
