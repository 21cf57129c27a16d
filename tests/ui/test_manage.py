"""Managing servers through the window: secrets to the keyring, edit/rename, remove, paste, import."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QMessageBox

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")

TOKEN = "ghp_secretvalue_1234567890"


def open_dialog(qtbot: Any, desk: Any, edit: str | None = None) -> Any:
    if edit is None:
        desk.add_server()
    else:
        desk.edit_server(edit)
    qtbot.waitUntil(
        lambda: getattr(desk, "server_dialog", None) is not None and desk.server_dialog.isVisible()
    )
    return desk.server_dialog


def save(qtbot: Any, desk: Any, d: Any) -> None:
    d.buttons.button(d.buttons.StandardButton.Save).click()
    qtbot.waitUntil(lambda: desk.server_dialog is None, timeout=10000)


def message_box(desk: Any) -> QMessageBox | None:
    boxes = [w for w in desk.findChildren(QMessageBox) if w.isVisible()]
    return boxes[0] if boxes else None


def test_secret_env_row_goes_to_keyring_not_file(
    qtbot: Any, desk: Any, config_dir: Path, memory_keyring: Any
) -> None:
    d = open_dialog(qtbot, desk)
    qtbot.keyClicks(d.name, "gh")
    qtbot.keyClicks(d.command, sys.executable)
    d.env.add_row()
    name_edit, value_edit, secret_box, _ = d.env.rows[0]
    qtbot.keyClicks(name_edit, "GITHUB_TOKEN")
    assert secret_box.isChecked()  # a name that looks secret switches the toggle on
    qtbot.keyClicks(value_edit, TOKEN)
    assert value_edit.echoMode() == value_edit.EchoMode.Password  # shown masked
    save(qtbot, desk, d)
    qtbot.waitUntil(lambda: "gh" in desk.server_model.names())
    text = (config_dir / "servers.json").read_text(encoding="utf-8")
    assert TOKEN not in text
    assert json.loads(text)["mcpServers"]["gh"]["env"]["GITHUB_TOKEN"] == "${secret:GITHUB_TOKEN}"
    assert desk.controller.secrets.get("gh", "GITHUB_TOKEN") == TOKEN

    # Edit: the secret is shown as "stored", left alone it stays; rename moves it.
    d = open_dialog(qtbot, desk, "gh")
    _, value_edit, secret_box, _ = d.env.rows[0]
    assert value_edit.text() == "" and "keychain" in value_edit.placeholderText()
    d.name.clear()
    qtbot.keyClicks(d.name, "github")
    save(qtbot, desk, d)
    qtbot.waitUntil(lambda: "github" in desk.server_model.names() and "gh" not in desk.server_model.names())
    assert desk.controller.secrets.get("github", "GITHUB_TOKEN") == TOKEN
    assert desk.controller.secrets.get("gh", "GITHUB_TOKEN") is None
    assert TOKEN not in (config_dir / "servers.json").read_text(encoding="utf-8")

    # Remove asks, and deletes the secrets only when told to.
    desk.servers.select("github")
    desk.servers.buttons["remove"].click()
    qtbot.waitUntil(lambda: message_box(desk) is not None)
    box = message_box(desk)
    assert "github" in box.text()
    box.checkBox().setChecked(True)
    next(b for b in box.buttons() if b.text() == "Remove").click()
    qtbot.waitUntil(lambda: "github" not in desk.server_model.names())
    qtbot.waitUntil(lambda: desk.controller.secrets.get("github", "GITHUB_TOKEN") is None)
    assert "github" not in json.loads((config_dir / "servers.json").read_text())["mcpServers"]


def test_remove_keep_secrets_and_cancel(qtbot: Any, desk: Any) -> None:
    desk.controller.secrets.set("demo", "API_KEY", "k")
    desk.servers.select("demo")
    desk.servers.buttons["remove"].click()
    qtbot.waitUntil(lambda: message_box(desk) is not None)
    next(b for b in message_box(desk).buttons() if b.text() == "Keep").click()
    qtbot.waitUntil(lambda: message_box(desk) is None)
    assert "demo" in desk.server_model.names()
    desk.servers.buttons["remove"].click()
    qtbot.waitUntil(lambda: message_box(desk) is not None)
    next(b for b in message_box(desk).buttons() if b.text() == "Remove").click()  # box unticked
    qtbot.waitUntil(lambda: "demo" not in desk.server_model.names())
    assert desk.controller.secrets.get("demo", "API_KEY") == "k"


def test_paste_snippet_with_several_servers_imports_them(qtbot: Any, desk: Any, config_dir: Path) -> None:
    snippet = json.dumps(
        {
            "mcpServers": {
                "fs": {"command": sys.executable, "args": ["-m", "app", "demo-server"]},
                "remote": {
                    "url": "https://example.com/mcp",
                    "headers": {"Authorization": "Bearer sk-live-abcdef"},
                },
            }
        }
    )
    d = open_dialog(qtbot, desk)
    assert d.apply_snippet(snippet) == 2
    d.buttons.button(d.buttons.StandardButton.Save).click()  # fields not needed for a multi-server paste
    qtbot.waitUntil(lambda: {"fs", "remote"} <= set(desk.server_model.names()), timeout=10000)
    text = (config_dir / "servers.json").read_text(encoding="utf-8")
    assert "sk-live-abcdef" not in text
    assert desk.controller.secrets.get("remote", "Authorization") == "Bearer sk-live-abcdef"


def test_paste_single_entry_fills_fields(qtbot: Any, desk: Any) -> None:
    d = open_dialog(qtbot, desk)
    assert (
        d.apply_snippet('"weather": {"url": "https://w.example/mcp", "headers": {"X-Api-Key": "abc"}}') == 1
    )
    assert d.name.text() == "weather"
    assert d.transport_value() == "http"
    assert d.url.text() == "https://w.example/mcp"
    name_edit, value_edit, secret_box, _ = d.headers.rows[0]
    assert name_edit.text() == "X-Api-Key" and value_edit.text() == "abc" and secret_box.isChecked()
    d.reject()
    qtbot.waitUntil(lambda: desk.server_dialog is None)


def test_import_from_file(qtbot: Any, desk: Any, tmp_path: Path) -> None:
    from app.ui.server_dialog import _import_file
    from tests.ui.conftest import run

    f = tmp_path / "claude_desktop_config.json"
    f.write_text(
        json.dumps(
            {"mcpServers": {"demo": {"command": sys.executable, "args": ["-m", "app", "demo-server"]}}}
        )
    )
    run(qtbot, _import_file(desk, f, "auto"))
    assert "demo-2" in desk.server_model.names()  # a clash gets a suffix, nothing is overwritten


def test_log_shows_a_failing_servers_stderr(qtbot: Any, desk: Any) -> None:
    from app.config.model import ServerEntry

    desk.controller.store.add(
        ServerEntry(
            name="noisy",
            command=sys.executable,
            args=[
                "-c",
                "import sys; print('missing API key: set WEATHER_KEY', file=sys.stderr); sys.exit(2)",
            ],
        )
    )
    desk.controller.save()
    qtbot.waitUntil(lambda: "noisy" in desk.server_model.names())
    desk.servers.select("noisy")
    desk.servers.buttons["connect"].click()
    qtbot.waitUntil(lambda: desk.server_model.server("noisy").state == "failed", timeout=30000)
    log = desk.bottom.log_model

    def logged() -> bool:
        return any("missing API key" in log.index(i, 4).data() for i in range(log.rowCount()))

    qtbot.waitUntil(logged, timeout=10000)
    desk.bottom.log_server.setCurrentText("noisy")
    assert desk.bottom.log_filter.rowCount() >= 1
    desk.bottom.log_server.setCurrentText("demo")
    assert desk.bottom.log_filter.rowCount() == 0


def test_roots_saved_from_dialog(qtbot: Any, desk: Any, tmp_path: Path) -> None:
    d = open_dialog(qtbot, desk, "demo")
    d.roots.addItem(str(tmp_path))
    d.timeout.setValue(12)
    save(qtbot, desk, d)
    settings = desk.controller.settings("demo")
    assert settings.roots == [str(tmp_path)]
    assert settings.timeout == 12


def test_broken_config_is_shown_and_never_overwritten(qtbot: Any, aloop: Any, config_dir: Path) -> None:
    from app.ui.controller import DeskController
    from app.ui.window import MainWindow

    broken = b'{"mcpServers": {"a": {"command": "x",}}'
    (config_dir / "servers.json").write_bytes(broken)
    c = DeskController()
    c.load_config()
    w = MainWindow(c)
    qtbot.addWidget(w)
    message = w.statusBar().currentMessage()
    assert "servers.json:1:" in message, message
    assert c.save() is False
    w.add_server()  # refused with a reason, no dialog that could save over the file
    assert "Fix the server list file first" in w.statusBar().currentMessage()
    assert getattr(w, "server_dialog", None) is None
    assert (config_dir / "servers.json").read_bytes() == broken


def test_server_icon_from_data_uri_only() -> None:
    import base64

    from PySide6.QtCore import QBuffer, QIODevice
    from PySide6.QtGui import QColor, QImage

    from app.ui.window import icon_from_server

    img = QImage(8, 8, QImage.Format.Format_RGB32)
    img.fill(QColor("teal"))
    buf = QBuffer()
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    img.save(buf, "PNG")
    uri = "data:image/png;base64," + base64.b64encode(bytes(buf.data().data())).decode()
    icon = icon_from_server([{"src": "https://tracker.example/icon.png"}, {"src": uri}])
    assert icon is not None and not icon.isNull()
    assert icon_from_server([{"src": "https://tracker.example/icon.png"}]) is None


def test_import_file_through_the_menu(qtbot: Any, desk: Any, tmp_path: Path) -> None:
    f = tmp_path / "mcp.json"
    f.write_text(
        json.dumps({"servers": {"vs": {"type": "stdio", "command": sys.executable, "args": ["-V"]}}})
    )
    desk.import_from("file")
    qtbot.waitUntil(lambda: getattr(desk, "file_dialog", None) is not None and desk.file_dialog.isVisible())
    from PySide6.QtWidgets import QLineEdit

    name = desk.file_dialog.findChild(QLineEdit, "fileNameEdit")  # typed as a person would
    name.setText(str(f))
    desk.file_dialog.accept()
    qtbot.waitUntil(lambda: "vs" in desk.server_model.names(), timeout=10000)


def test_duplicate_copies_secrets_under_the_new_name(qtbot: Any, desk: Any, config_dir: Path) -> None:
    from app.config.model import ServerEntry

    desk.controller.store.add(
        ServerEntry(
            name="api",
            url="https://api.example/mcp",
            transport="http",
            headers={"Authorization": "${secret:Authorization}"},
        )
    )
    desk.controller.save()
    desk.controller.secrets.set("api", "Authorization", "Bearer t0k3n")
    qtbot.waitUntil(lambda: "api" in desk.server_model.names())
    desk.servers.select("api")
    desk.servers.buttons["duplicate"].click()
    qtbot.waitUntil(lambda: "api-copy" in desk.server_model.names(), timeout=10000)
    assert desk.controller.secrets.get("api-copy", "Authorization") == "Bearer t0k3n"
    assert "t0k3n" not in (config_dir / "servers.json").read_text(encoding="utf-8")
