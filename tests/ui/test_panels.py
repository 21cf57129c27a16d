"""Resources, templates, prompts, history re-run, keyboard, remembered state, --smoke-test."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QModelIndex, Qt

from tests.support.trust import write_approved_servers
from tests.ui.conftest import connect, fill_text_field, run_tool_and_wait, select_tool

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")


def test_resource_read_and_image_resource(qtbot: Any, desk: Any) -> None:
    from app.ui.results import ImageBlock

    connect(qtbot, desk)
    assert desk.catalog.select("resources", "demo", "demo://readme")
    assert desk.right.currentWidget() is desk.resource_panel
    desk.resource_panel.read_button.click()
    qtbot.waitUntil(lambda: "demo://readme" in desk.resource_panel.result.status_text(), timeout=20000)
    assert "MCP Desk" in desk.resource_panel.result.json_text()
    assert desk.catalog.select("resources", "demo", "demo://badge.png")
    desk.resource_panel.read_button.click()
    qtbot.waitUntil(lambda: bool(desk.resource_panel.result.findChildren(ImageBlock)), timeout=20000)


def test_template_form_reads_a_note(qtbot: Any, desk: Any) -> None:
    connect(qtbot, desk)
    select_tool(qtbot, desk, "add_note")
    fill_text_field(qtbot, desk.tool_panel.form, 0, "groceries")
    fill_text_field(qtbot, desk.tool_panel.form, 1, "milk, bread")
    run_tool_and_wait(qtbot, desk)
    assert desk.catalog.select("resource_templates", "demo", "demo://notes/{name}")
    panel = desk.resource_panel
    assert list(panel.fields) == ["name"]
    qtbot.keyClicks(panel.fields["name"], "groceries")
    assert panel.current_uri() == "demo://notes/groceries"
    panel.read_button.click()
    qtbot.waitUntil(lambda: "milk, bread" in panel.result.json_text(), timeout=20000)


def test_prompt_arguments_and_messages(qtbot: Any, desk: Any) -> None:
    connect(qtbot, desk)
    assert desk.catalog.select("prompts", "demo", "write_email")
    panel = desk.prompt_panel
    assert desk.right.currentWidget() is panel
    panel.get_button.click()  # required arguments missing: said at the field, nothing sent
    assert "recipient" in panel.error.text()
    qtbot.keyClicks(panel.fields["recipient"][0], "Ana")
    qtbot.keyClicks(panel.fields["topic"][0], "the picnic")
    panel.get_button.click()
    qtbot.waitUntil(
        lambda: "Write a friendly email to Ana about the picnic" in panel.result.json_text(), timeout=20000
    )


def test_history_rerun_prefills_form(qtbot: Any, desk: Any) -> None:
    connect(qtbot, desk)
    select_tool(qtbot, desk, "echo")
    fill_text_field(qtbot, desk.tool_panel.form, 0, "first call")
    run_tool_and_wait(qtbot, desk)
    select_tool(qtbot, desk, "list_notes")
    run_tool_and_wait(qtbot, desk)
    hist = desk.bottom.history_view
    first = desk.bottom.history_filter.index(1, 0)  # newest first: the echo call is second
    assert "demo/echo" in first.data()
    hist.setCurrentIndex(first)
    assert "first call" in desk.tool_panel.result.json_text()
    desk.bottom.rerun.click()
    assert desk.tool_panel.tool.name == "echo"
    assert desk.tool_panel.form_value() == {"message": "first call"}


def test_ctrl_enter_runs_and_validation_points_at_field(qtbot: Any, desk: Any) -> None:
    connect(qtbot, desk)
    select_tool(qtbot, desk, "echo")
    desk.activateWindow()
    # Required field empty: Run does not call, says why.
    qtbot.keyClick(desk.tool_panel.form, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: "correct" in desk.tool_panel.result.status_text())
    assert desk.bottom.history_model.rowCount() == 0
    fill_text_field(qtbot, desk.tool_panel.form, 0, "by keyboard")
    with qtbot.waitSignal(desk.call_finished, timeout=20000):
        qtbot.keyClick(desk.tool_panel.form, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert "by keyboard" in desk.tool_panel.result.json_text()


def test_window_remembers_splitters_selection_and_geometry(qtbot: Any, aloop: Any, config_dir: Path) -> None:
    from app.ui.controller import DeskController
    from app.ui.window import MainWindow

    c = DeskController()
    c.load_config()
    w = MainWindow(c)
    qtbot.addWidget(w)
    w.resize(900, 650)
    w.show()
    w.splitter.setSizes([300, 300, 300])
    w.save_state()
    assert (config_dir / "window.ini").is_file()
    w2 = MainWindow(c)
    qtbot.addWidget(w2)
    w2.restore_state()
    s = w2.ui_settings()
    assert s.value("geometry") == w.saveGeometry()
    assert w2.splitter.saveState() == w.splitter.saveState()
    assert w2.current_server() == "demo"


def test_smoke_test_command(tmp_path: Path) -> None:
    cfg = tmp_path / "smoke"
    cfg.mkdir()
    demo = {"command": sys.executable, "args": ["-m", "app", "demo-server"]}
    servers = {
        "demo": demo,
        "broken": {"command": "no-such-command-mcp-desk"},
        "resting": {**demo, "disabled": True},
    }
    write_approved_servers(cfg, servers)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    shot = tmp_path / "main.png"
    out = subprocess.run(
        [sys.executable, "-m", "app", "--config-dir", str(cfg), "--screenshot", str(shot)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    assert len(lines) == 3, lines  # the disabled server is not connected, so not reported
    broken, demo_line = sorted(lines[:2])
    assert broken.startswith("broken: failed: "), lines
    assert demo_line.startswith("demo: ready, ") and demo_line.endswith(" tools"), lines
    assert lines[2] == "demo: echo answered 'hello from the smoke test'", lines  # a tool call, last
    assert shot.stat().st_size > 10_000
    # The offscreen plugin's resize chatter is not shown to the person running the command.
    assert "propagateSizeHints" not in out.stderr, out.stderr


def test_search_all_servers_shows_qualified_names(qtbot: Any, desk: Any) -> None:
    from app.config.model import ServerEntry

    desk.controller.store.add(
        ServerEntry(name="second", command=sys.executable, args=["-m", "app", "demo-server"])
    )
    desk.controller.save()
    qtbot.waitUntil(lambda: "second" in desk.server_model.names())
    connect(qtbot, desk, "demo")
    connect(qtbot, desk, "second")
    desk.activateWindow()
    qtbot.keyClick(desk, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)  # Ctrl+F: the search box
    qtbot.waitUntil(desk.catalog.search.hasFocus)
    qtbot.keyClicks(desk.catalog.search, "echo")
    proxy = desk.catalog.proxies["tools"]
    # the title alone (the name is for developer mode)
    assert [proxy.index(i, 0).data() for i in range(proxy.rowCount())] == ["Echo"]
    desk.catalog.all_servers.setChecked(True)
    shown = [proxy.index(i, 0).data() for i in range(proxy.rowCount())]
    # Servers' items come in the order their catalogs arrived ("second" connects by itself on save).
    assert sorted(shown) == ["Echo (demo)", "Echo (second)"]
    # picking the other server's tool shows it, named with its server
    view = desk.catalog.views["tools"]
    view.setCurrentIndex(QModelIndex())  # a fresh pick below, whatever was current before
    view.setCurrentIndex(proxy.index(shown.index("Echo (demo)"), 0))
    assert desk.tool_panel.name.text() == "demo/echo"
    view.setCurrentIndex(proxy.index(shown.index("Echo (second)"), 0))
    assert desk.tool_panel.name.text() == "second/echo"
