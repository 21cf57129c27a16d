"""No usable keyring: the Add dialog keeps what was typed, says what is missing in two lines, and
offers a real "Keep for this session only" with which the server connects using the key."""

from __future__ import annotations

import asyncio
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import keyring
import pytest
from keyring.backends import fail
from PySide6.QtWidgets import QMessageBox

from tests.ui.conftest import wait_state

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")

KEY = "BSAkey-typed-by-the-person-0123456789"
SERVER = Path(__file__).resolve().parents[1] / "servers" / "env_key_server.py"
SCREENSHOT = Path("/tmp/h2-nokeyring.png")


@pytest.fixture
def no_keyring() -> None:
    keyring.set_keyring(fail.Keyring())  # the conftest fixture puts the previous one back


def fill_brave(qtbot: Any, desk: Any) -> Any:
    desk.add_server()
    qtbot.waitUntil(
        lambda: getattr(desk, "server_dialog", None) is not None and desk.server_dialog.isVisible()
    )
    d = desk.server_dialog
    qtbot.keyClicks(d.name, "brave")
    qtbot.keyClicks(d.command, sys.executable)
    d.set_args([str(SERVER)])
    d.env.add_row()
    name_edit, value_edit, secret_box, _ = d.env.rows[0]
    qtbot.keyClicks(name_edit, "BRAVE_API_KEY")
    assert secret_box.isChecked()
    qtbot.keyClicks(value_edit, KEY)
    d.env.add_row("WANT_SHA256", hashlib.sha256(KEY.encode()).hexdigest(), secret=False)
    return d


def test_no_keyring_keeps_the_dialog_and_session_only_connects(
    qtbot: Any, desk: Any, config_dir: Path, no_keyring: None
) -> None:
    d = fill_brave(qtbot, desk)
    d.buttons.button(d.buttons.StandardButton.Save).click()

    def settled() -> bool:
        notice = getattr(d, "keyring_notice", None)
        return desk.server_dialog is None or (notice is not None and notice.isVisible())

    qtbot.waitUntil(settled, timeout=30000)
    # Still open, everything as typed, and no error box on top.
    assert desk.server_dialog is d and d.isVisible(), "the dialog closed: what was typed is gone"
    assert d.name.text() == "brave" and d.env.rows[0][1].text() == KEY
    assert [w for w in desk.findChildren(QMessageBox) if w.isVisible()] == []
    text = d.keyring_notice.text.text()
    assert "no usable keychain" in text and "keyring.md" in text
    assert "D-Bus" not in text and "keyringrc" not in text
    assert text.count("<br>") == 1  # two lines
    assert d.keyring_notice.session_button.isVisible()
    d.grab().save(str(SCREENSHOT))
    assert (
        not (config_dir / "servers.json").exists() or "brave" not in (config_dir / "servers.json").read_text()
    )

    d.keyring_notice.session_button.click()
    qtbot.waitUntil(lambda: desk.server_dialog is None, timeout=30000)
    qtbot.waitUntil(lambda: "brave" in desk.server_model.names(), timeout=30000)
    # Connects now, with the very value typed (the server exits unless its hash matches).
    qtbot.waitUntil(lambda: desk.server_model.server("brave").state in ("ready", "failed"), timeout=60000)
    assert desk.server_model.server("brave").state == "ready", desk.server_model.server("brave").reason
    row = desk.server_model.server("brave")
    assert "key kept for this session only" in row.status_text()
    saved = (config_dir / "servers.json").read_text(encoding="utf-8")
    assert KEY not in saved
    assert json.loads(saved)["mcpServers"]["brave"]["env"]["BRAVE_API_KEY"] == "${secret:BRAVE_API_KEY}"
    for path in config_dir.rglob("*"):
        assert not path.is_file() or KEY.encode() not in path.read_bytes()


def test_after_restart_the_missing_key_is_its_own_message(
    qtbot: Any, desk: Any, config_dir: Path, memory_keyring: Any
) -> None:
    from tests.ui.conftest import run

    c = desk.controller
    from app.config.model import ServerEntry

    c.store.add(
        ServerEntry(
            name="brave",
            command=sys.executable,
            args=[str(SERVER)],
            env={"BRAVE_API_KEY": "${secret:BRAVE_API_KEY}"},
            disabled=True,
        )
    )
    c.save()
    run(qtbot, c.connect_server("brave"))
    wait_state(qtbot, desk, "brave", "failed")
    reason = desk.server_model.server("brave").reason
    assert reason.startswith("the key BRAVE_API_KEY is not in this computer's keychain: set it")

    keyring.set_keyring(fail.Keyring())  # as after a restart on a machine with no keychain
    run(qtbot, c.connect_server("brave"))
    qtbot.waitUntil(lambda: "no usable keychain" in desk.server_model.server("brave").reason, timeout=30000)
    reason = desk.server_model.server("brave").reason
    assert "BRAVE_API_KEY" in reason and "cannot store" not in reason.lower()


def test_window_import_without_keyring_imports_the_rest_and_lists_the_skipped(
    qtbot: Any, desk: Any, tmp_path: Path, no_keyring: None
) -> None:
    from app.ui.server_dialog import _import_file

    servers: dict[str, Any] = {f"tool-{i:02d}": {"command": "npx", "disabled": True} for i in range(16)}
    servers["github"] = {"command": "npx", "disabled": True, "env": {"GITHUB_TOKEN": "ghp_window_import"}}
    source = tmp_path / "claude_desktop_config.json"
    source.write_text(json.dumps({"mcpServers": servers}))
    task = asyncio.ensure_future(_import_file(desk, source, "auto"))
    qtbot.waitUntil(lambda: any(w.isVisible() for w in desk.findChildren(QMessageBox)), timeout=30000)
    box = next(w for w in desk.findChildren(QMessageBox) if w.isVisible())
    assert "16 server(s)" in box.text() and "github: its key GITHUB_TOKEN cannot be stored" in box.text()
    assert "keyring.md" in box.informativeText()
    assert "ghp_window_import" not in box.text() + box.informativeText()
    assert len([n for n in desk.server_model.names() if n.startswith("tool-")]) == 16
    assert "github" not in desk.server_model.names()
    box.buttons()[0].click()
    qtbot.waitUntil(task.done, timeout=30000)


def test_locked_keyring_brings_the_dialog_back_with_what_was_typed(
    qtbot: Any, desk: Any, config_dir: Path, memory_keyring: Any
) -> None:
    import keyring.errors

    def locked(service: str, user: str, value: str) -> None:
        raise keyring.errors.KeyringLocked("the collection is locked")

    memory_keyring.set_password = locked
    d = fill_brave(qtbot, desk)
    d.buttons.button(d.buttons.StandardButton.Save).click()
    qtbot.waitUntil(lambda: d.keyring_notice.isVisible() and d.isVisible(), timeout=30000)
    assert desk.server_dialog is d
    assert d.name.text() == "brave" and d.env.rows[0][1].text() == KEY
    assert "locked" in d.keyring_notice.text.text()
    assert not d.keyring_notice.session_button.isVisible()  # the keychain exists: no memory-only offer
    assert "brave" not in desk.server_model.names()
    d.reject()
    qtbot.waitUntil(lambda: desk.server_dialog is None, timeout=30000)
