"""The open window follows outside edits of servers.json and settings.json (an editor, the CLI,
another window) in place: the list updates, the selection and an open dialog stay, a changed
server reconnects as after an Edit, and our own saves are not mistaken for outside ones."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from app.config.model import ServerEntry
from app.config.store import ConfigStore
from tests.ui.conftest import DEMO, wait_state
from tests.ui.test_manage import open_dialog, save

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")

ROOT = Path(__file__).resolve().parents[2]
WAIT = 10000


def outside() -> ConfigStore:
    store = ConfigStore()
    store.load()
    return store


def on_disk(config_dir: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((config_dir / "servers.json").read_text(encoding="utf-8"))
    return data["mcpServers"]


def seed(desk: Any) -> None:
    # First run: the list is only in memory until the window saves it once.
    desk.controller.store.add(ServerEntry(name="second", command=sys.executable, args=["-c", "pass"]))
    desk.controller.save()
    assert desk.servers.select("second")


def test_server_added_by_another_store_appears_and_selection_stays(qtbot: Any, desk: Any) -> None:
    seed(desk)
    other = outside()
    other.add(ServerEntry(name="elsewhere", command="x"))
    other.save()
    qtbot.waitUntil(lambda: "elsewhere" in desk.server_model.names(), timeout=WAIT)
    assert desk.server_model.names() == ["demo", "second", "elsewhere"]
    assert desk.servers.current() == "second"

    other.remove("elsewhere")
    other.save()
    qtbot.waitUntil(lambda: "elsewhere" not in desk.server_model.names(), timeout=WAIT)
    assert desk.servers.current() == "second"


def test_server_added_by_the_cli_appears(qtbot: Any, desk: Any, config_dir: Path) -> None:
    seed(desk)
    env = dict(os.environ, PYTHON_KEYRING_BACKEND="keyring.backends.null.Keyring")
    done = subprocess.run(
        [sys.executable, "-m", "app", "servers", "add", "from-cli", "--command", "true"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    qtbot.waitUntil(lambda: "from-cli" in desk.server_model.names(), timeout=WAIT)
    assert desk.servers.current() == "second"
    # The window's next save keeps the CLI's server (it is not a stale snapshot written over it).
    desk.controller.store.remove("second")
    desk.controller.save()
    assert list(on_disk(config_dir)) == ["demo", "from-cli"]


def test_open_dialog_survives_a_reload_and_its_save_keeps_both(
    qtbot: Any, desk: Any, config_dir: Path
) -> None:
    seed(desk)
    d = open_dialog(qtbot, desk)
    qtbot.keyClicks(d.name, "typed")
    qtbot.keyClicks(d.command, "echo")
    other = outside()
    other.add(ServerEntry(name="meanwhile", command="x"))
    other.save()
    qtbot.waitUntil(lambda: "meanwhile" in desk.server_model.names(), timeout=WAIT)
    assert desk.server_dialog is d and d.isVisible()
    assert d.name.text() == "typed"
    save(qtbot, desk, d)
    assert list(on_disk(config_dir)) == ["demo", "second", "meanwhile", "typed"]


def test_changed_server_reconnects_with_the_new_settings(qtbot: Any, desk: Any, config_dir: Path) -> None:
    desk.controller.store.add(ServerEntry(name="live", command=DEMO["command"], args=list(DEMO["args"])))
    desk.controller.save()
    desk.servers.select("live")
    desk.servers.buttons["connect"].click()
    wait_state(qtbot, desk, "live", "ready")
    first = desk.controller.connection("live")
    states: list[str] = []
    desk.controller.bridge.state_changed.connect(
        lambda name, state, _r: name == "live" and states.append(state)
    )
    other = outside()
    changed = other.get("live")
    changed.env = {"CHANGED_OUTSIDE": "1"}
    other.update(changed)
    other.save()

    def reconnected() -> bool:
        conn = desk.controller.connection("live")
        env = getattr(getattr(conn, "target", None), "env", None) or {}
        row = desk.server_model.server("live")
        return (
            env.get("CHANGED_OUTSIDE") == "1"
            and "connecting" in states
            and states[-1] == "ready"
            and row is not None
            and row.state == "ready"
        )

    # Restarted as after an Edit: a new connection, through connecting, back to ready.
    qtbot.waitUntil(reconnected, timeout=30000)
    assert desk.controller.connection("live") is not first
    assert desk.servers.current() == "live"


def test_settings_changed_outside_are_taken_in(qtbot: Any, desk: Any, config_dir: Path) -> None:
    seed(desk)
    other = outside()
    other.settings("second").timeout = 7.0
    other.save()
    qtbot.waitUntil(lambda: desk.controller.settings("second").timeout == 7.0, timeout=WAIT)


def test_own_saves_are_not_taken_for_outside_edits(qtbot: Any, desk: Any) -> None:
    seed(desk)
    assert desk.controller.reload_from_disk() is False
    with qtbot.waitSignal(desk.controller.servers_changed, timeout=WAIT):
        other = outside()
        other.add(ServerEntry(name="elsewhere", command="x"))
        other.save()
    assert desk.controller.reload_from_disk() is False


def test_broken_outside_edit_keeps_the_list_then_the_fix_loads(
    qtbot: Any, desk: Any, config_dir: Path
) -> None:
    seed(desk)
    with qtbot.waitSignal(desk.controller.config_failed, timeout=WAIT) as failed:
        (config_dir / "servers.json").write_text('{\n  "mcpServers": {,\n}', encoding="utf-8")
    assert "servers.json:2:" in failed.args[0]
    assert desk.server_model.names() == ["demo", "second"]
    assert desk.servers.current() == "second"
    (config_dir / "servers.json").write_text(
        json.dumps({"mcpServers": {"demo": DEMO, "second": {"command": "y"}, "fixed": {"command": "z"}}}),
        encoding="utf-8",
    )
    qtbot.waitUntil(lambda: "fixed" in desk.server_model.names(), timeout=WAIT)
    assert desk.servers.current() == "second"


def test_unusable_name_written_outside_is_reported_not_listed(
    qtbot: Any, desk: Any, config_dir: Path
) -> None:
    seed(desk)
    data = json.loads((config_dir / "servers.json").read_text(encoding="utf-8"))
    data["mcpServers"]["../x"] = {"command": "evil"}
    with qtbot.waitSignal(desk.controller.config_warning, timeout=WAIT) as warned:
        (config_dir / "servers.json").write_text(json.dumps(data), encoding="utf-8")
    assert "'../x'" in warned.args[0]
    assert "'../x'" in desk.statusBar().currentMessage()
    assert "../x" not in desk.server_model.names()
    assert desk.servers.current() == "second"


def test_connected_server_removed_outside_is_disconnected_and_cleared(qtbot: Any, desk: Any) -> None:
    desk.controller.store.add(ServerEntry(name="live", command=DEMO["command"], args=list(DEMO["args"])))
    desk.controller.save()
    desk.servers.select("live")
    desk.servers.buttons["connect"].click()
    wait_state(qtbot, desk, "live", "ready")
    qtbot.waitUntil(lambda: len(desk.catalog.models["tools"].items_of("live")) > 0, timeout=WAIT)
    conn = desk.controller.connection("live")
    other = outside()
    other.remove("live")
    other.save()
    qtbot.waitUntil(lambda: desk.controller.connection("live") is None, timeout=30000)
    assert "live" not in desk.server_model.names()
    assert desk.catalog.models["tools"].items_of("live") == []
    qtbot.waitUntil(lambda: conn.state.value in ("closed", "idle"), timeout=30000)


def test_disk_full_on_save_is_shown_with_the_file_name(
    qtbot: Any, desk: Any, config_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno

    from app.config import atomic

    seed(desk)
    before = (config_dir / "servers.json").read_bytes()

    def full(*_args: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(atomic.os, "replace", full)
    desk.servers.buttons["duplicate"].click()
    qtbot.waitUntil(lambda: "could not save" in desk.statusBar().currentMessage(), timeout=WAIT)
    message = desk.statusBar().currentMessage()
    assert str(config_dir / "servers.json") in message and "the disk is full" in message
    assert (config_dir / "servers.json").read_bytes() == before
    # Kept in memory, not lost: once there is room the next save writes it.
    monkeypatch.undo()
    desk.controller.save()
    assert "second-copy" in on_disk(config_dir)


def test_watcher_sees_the_folder_created_later_and_each_replace(qtbot: Any, tmp_path: Path) -> None:
    from app.config.atomic import atomic_write
    from app.ui.config_watch import ConfigWatcher

    folder = tmp_path / "not-yet" / "config"
    watcher = ConfigWatcher(folder, ["servers.json"], debounce_ms=50)
    try:
        assert watcher.watched() == [str(tmp_path)]
        with qtbot.waitSignal(watcher.changed, timeout=WAIT):
            atomic_write(folder / "servers.json", b"{}")  # makes the folders too
        qtbot.waitUntil(lambda: str(folder / "servers.json") in watcher.watched(), timeout=WAIT)
        assert str(tmp_path) not in watcher.watched()
        # Every atomic replace is a new file: the watch follows it, again and again.
        for i in range(3):
            with qtbot.waitSignal(watcher.changed, timeout=WAIT):
                atomic_write(folder / "servers.json", f'{{"n": {i}}}'.encode())
    finally:
        watcher.deleteLater()


def test_unusable_name_at_start_is_shown(qtbot: Any, aloop: Any, config_dir: Path) -> None:
    from app.ui.controller import DeskController
    from app.ui.window import MainWindow

    (config_dir / "servers.json").write_text(
        json.dumps({"mcpServers": {"ok": {"command": "x"}, "a/b": {"command": "y"}}}), encoding="utf-8"
    )
    controller = DeskController()
    controller.load_config()
    window = MainWindow(controller)
    qtbot.addWidget(window)
    assert window.server_model.names() == ["ok"]
    assert "'a/b'" in window.statusBar().currentMessage()
    assert "cannot be used" in window.statusBar().currentMessage()


def test_file_broken_at_start_loads_once_fixed(qtbot: Any, aloop: Any, config_dir: Path) -> None:
    from app.ui.controller import DeskController
    from app.ui.window import MainWindow

    (config_dir / "servers.json").write_text("{ not json", encoding="utf-8")
    controller = DeskController()
    controller.load_config()
    window = MainWindow(controller)
    qtbot.addWidget(window)
    assert controller.config_error is not None and window.server_model.names() == []
    (config_dir / "servers.json").write_text(json.dumps({"mcpServers": {"ok": {"command": "x"}}}), "utf-8")
    qtbot.waitUntil(lambda: window.server_model.names() == ["ok"], timeout=WAIT)
    assert controller.config_error is None
    # Saving works again (it was refused while the file was broken).
    controller.store.add(ServerEntry(name="more", command="y"))
    assert controller.save()
    assert list(on_disk(config_dir)) == ["ok", "more"]


def test_outside_change_merged_by_our_own_save_still_reaches_the_list(qtbot: Any, desk: Any) -> None:
    # The window's store saves (the keyring profile id is made on first use of secrets) after
    # another program wrote but before the watcher fired: the save merges the other change in,
    # so a content comparison alone finds nothing new; the list must show it all the same.
    seed(desk)
    other = outside()
    other.add(ServerEntry(name="meanwhile", command="x"))
    other.save()
    desk.controller.store.app_settings["unrelated"] = True
    desk.controller.store.save()
    qtbot.waitUntil(lambda: "meanwhile" in desk.server_model.names(), timeout=WAIT)
    assert desk.servers.current() == "second"
