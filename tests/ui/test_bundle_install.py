"""Installing server packages in the window: the Node package (a key and a folder in the form, the
trust prompt, connected, a tool run) and the Python one (on uv), update with values kept, Remove
deleting the files, a refused package, and drag and drop onto the window."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent

from app.bundles import installed
from tests.bundles.builders import node_bundle, python_bundle, write_zip
from tests.support.memory_keyring import MemoryKeyring
from tests.ui.conftest import fill_text_field, open_desk, run_tool_and_wait, select_tool, wait_state

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")

KEY = "sk-bundle-key-0123456789"
WAIT = 30000


def start_install(qtbot: Any, window: Any, path: Path) -> tuple[Any, asyncio.Future[str | None]]:
    from app.ui.bundle_dialog import install_bundle_file

    task = asyncio.ensure_future(install_bundle_file(window, path))
    qtbot.waitUntil(
        lambda: getattr(window, "install_dialog", None) is not None and window.install_dialog.isVisible(),
        timeout=WAIT,
    )
    return window.install_dialog, task


def allow(qtbot: Any, window: Any, server: str) -> Any:
    def shown() -> bool:
        d = window.trust_prompter.dialog
        return d is not None and d.isVisible() and d.request.server == server

    qtbot.waitUntil(shown, timeout=WAIT)
    prompt = window.trust_prompter.dialog
    prompt.allow_button.click()
    return prompt


def fill_node_form(qtbot: Any, dialog: Any, folder: Path) -> None:
    qtbot.keyClicks(dialog.fields["api_key"].edit, KEY)
    dialog.fields["folder"].edit.setText(str(folder))


def run_whoami(qtbot: Any, window: Any) -> str:
    select_tool(qtbot, window, "whoami", server="folder-helper")
    run_tool_and_wait(qtbot, window)
    return str(window.tool_panel.result.json_text())


@pytest.mark.slow
def test_node_package_form_trust_connect_call_update_remove(
    qtbot: Any, aloop: Any, config_dir: Path, tmp_path: Path, memory_keyring: MemoryKeyring
) -> None:
    work = tmp_path / "work"
    work.mkdir()
    v1 = node_bundle(tmp_path / "folder-helper.mcpb")
    with open_desk(qtbot, approve=False) as window:
        dialog, task = start_install(qtbot, window, v1)
        # The summary: the package's own words and icon, what it declares and needs, unsigned.
        assert dialog.title_label.text() == "Folder Helper"
        assert dialog.facts_label.text() == "version 1.0.0 · by MCP Desk tests"
        shown = dialog.description
        text = shown.text() if hasattr(shown, "text") else shown.toPlainText()
        assert "Lists the files of a folder you choose." in text
        assert not dialog.icon_label.pixmap().isNull()
        notes = [label.text() for label in dialog.note_labels]
        assert "Tools: whoami, list_folder." in notes
        assert any(n.startswith("Needs Node.js >=16.0.0 — ") for n in notes)
        assert "This package is not signed: nothing says who made it." in notes
        assert (installed.bundles_dir() / "folder-helper" / "1.0.0" / "server" / "index.js").exists()
        # The form: the key masked and required, the folder required, Add waits for both.
        assert not dialog.add_button.isEnabled()
        fill_node_form(qtbot, dialog, work)
        assert dialog.add_button.isEnabled()
        dialog.add_button.click()
        prompt = allow(qtbot, window, "folder-helper")
        assert KEY not in prompt.command_view.toPlainText()
        wait_state(qtbot, window, "folder-helper", "ready")
        qtbot.waitUntil(task.done, timeout=WAIT)
        assert task.result() == "folder-helper"
        assert f"key_length={len(KEY)} mode=fast dir={work}" in run_whoami(qtbot, window)

        # Update: asked, files replaced, values and key kept, the trust prompt asks again.
        from app.ui.bundle_dialog import install_bundle_file

        v2 = node_bundle(tmp_path / "folder-helper-1.1.mcpb", version="1.1.0")
        update = asyncio.ensure_future(install_bundle_file(window, v2))
        qtbot.waitUntil(lambda: _message_box(window) is not None, timeout=WAIT)
        box = _message_box(window)
        assert "Update it to version 1.1.0?" in box.text()
        next(b for b in box.buttons() if b.text() == "Update").click()
        allow(qtbot, window, "folder-helper")
        qtbot.waitUntil(update.done, timeout=WAIT)
        assert update.result() == "folder-helper"
        wait_state(qtbot, window, "folder-helper", "ready")
        assert not (installed.bundles_dir() / "folder-helper" / "1.0.0").exists()
        assert f"version=1.1.0 key_length={len(KEY)} mode=fast dir={work}" in run_whoami(qtbot, window)

        # Remove: entry, files (and, ticked, the key) go.
        remove = asyncio.ensure_future(window.remove_server("folder-helper"))
        qtbot.waitUntil(lambda: _message_box(window) is not None, timeout=WAIT)
        box = _message_box(window)
        box.checkBox().setChecked(True)
        next(b for b in box.buttons() if b.text() == "Remove").click()
        qtbot.waitUntil(remove.done, timeout=WAIT)
        remove.result()
        assert "folder-helper" not in window.controller.store
        assert not (installed.bundles_dir() / "folder-helper").exists()
    assert KEY not in memory_keyring.store.values()
    saved = json.loads((config_dir / "servers.json").read_text(encoding="utf-8"))
    assert "folder-helper" not in saved["mcpServers"]


def _message_box(window: Any) -> Any:
    from PySide6.QtWidgets import QMessageBox

    boxes = [b for b in window.findChildren(QMessageBox) if b.isVisible()]
    return boxes[0] if boxes else None


@pytest.mark.slow
def test_python_package_connects_on_uv(
    qtbot: Any, aloop: Any, config_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app import runtimes

    if runtimes.runtime_for("uv") is None:
        pytest.skip("no uv, own or built in")
    monkeypatch.setenv("VIRTUAL_ENV", sys.prefix)  # uv runs it in the test's env (it has `mcp`)
    monkeypatch.setenv("UV_OFFLINE", "1")
    with open_desk(qtbot, approve=False) as window:
        dialog, task = start_install(qtbot, window, python_bundle(tmp_path / "greeter.mcpb"))
        assert "uv" in dialog.runtime_label.text()
        assert dialog.fields["greeting"].answer() == "Hello"  # the manifest's default
        dialog.fields["greeting"].edit.setText("Salut")
        dialog.add_button.click()
        allow(qtbot, window, "greeter-python")
        wait_state(qtbot, window, "greeter-python", "ready", timeout=60)
        qtbot.waitUntil(task.done, timeout=WAIT)
        select_tool(qtbot, window, "greet", server="greeter-python")
        fill_text_field(qtbot, window.tool_panel.form, 0, "Ada")
        run_tool_and_wait(qtbot, window)
        assert "Salut, Ada! (limit 5)" in window.tool_panel.result.json_text()


def test_cancel_removes_the_unpacked_files(qtbot: Any, aloop: Any, config_dir: Path, tmp_path: Path) -> None:
    with open_desk(qtbot, approve=False) as window:
        dialog, task = start_install(qtbot, window, node_bundle(tmp_path / "n.mcpb"))
        assert (installed.bundles_dir() / "folder-helper" / "1.0.0").exists()
        dialog.cancel_button.click()
        qtbot.waitUntil(task.done, timeout=WAIT)
        assert task.result() is None
        assert not (installed.bundles_dir() / "folder-helper").exists()
        assert "folder-helper" not in window.controller.store


def test_a_refused_package_says_why(qtbot: Any, aloop: Any, config_dir: Path, tmp_path: Path) -> None:
    from app.ui.bundle_dialog import install_bundle_file

    evil = write_zip(tmp_path / "evil.mcpb", {"manifest.json": "{}", "../../evil": "x"})
    with open_desk(qtbot, approve=False) as window:
        task = asyncio.ensure_future(install_bundle_file(window, evil))
        qtbot.waitUntil(lambda: _message_box(window) is not None, timeout=WAIT)
        box = _message_box(window)
        assert box.text() == "This server package cannot be installed."
        assert "outside its folder" in box.informativeText()
        box.accept()
        qtbot.waitUntil(task.done, timeout=WAIT)
        assert task.result() is None
        assert getattr(window, "install_dialog", None) is None


def test_dropping_a_package_on_the_window_installs_it(
    qtbot: Any, aloop: Any, config_dir: Path, tmp_path: Path
) -> None:
    path = node_bundle(tmp_path / "dropped.mcpb")
    with open_desk(qtbot, approve=False) as window:
        mime = QMimeData()
        mime.setUrls([QUrl.fromLocalFile(str(tmp_path / "notes.txt"))])
        ignored = QDropEvent(
            QPointF(10, 10),
            Qt.DropAction.CopyAction,
            mime,
            Qt.MouseButton.NoButton,
            Qt.KeyboardModifier.NoModifier,
        )
        window.dropEvent(ignored)
        assert not ignored.isAccepted()
        mime = QMimeData()
        mime.setUrls([QUrl.fromLocalFile(str(path))])
        event = QDropEvent(
            QPointF(10, 10),
            Qt.DropAction.CopyAction,
            mime,
            Qt.MouseButton.NoButton,
            Qt.KeyboardModifier.NoModifier,
        )
        window.dropEvent(event)
        assert event.isAccepted()
        qtbot.waitUntil(
            lambda: getattr(window, "install_dialog", None) is not None and window.install_dialog.isVisible(),
            timeout=WAIT,
        )
        assert window.install_dialog.title_label.text() == "Folder Helper"
        window.install_dialog.reject()
        qtbot.waitUntil(lambda: window.install_dialog is None, timeout=WAIT)


def test_the_servers_menu_offers_packages(qtbot: Any, aloop: Any, config_dir: Path) -> None:
    with open_desk(qtbot, approve=False) as window:
        action = window.install_bundle_action
        assert action.text() == "Install a server package (.mcpb)…"
        action.trigger()
        qtbot.waitUntil(lambda: getattr(window, "bundle_file_dialog", None) is not None, timeout=WAIT)
        dialog = window.bundle_file_dialog
        assert "Server packages (*.mcpb *.dxt)" in dialog.nameFilters()
        dialog.reject()
        qtbot.waitUntil(lambda: window.bundle_file_dialog is None, timeout=WAIT)


def test_a_package_given_on_the_command_line_opens_the_install_form(
    qtbot: Any, aloop: Any, config_dir: Path, tmp_path: Path
) -> None:
    # What a double-click does: the desktop file's MIME types hand the path (or file:// URL) over.
    from app.ui.open_target import open_argument

    path = node_bundle(tmp_path / "Folder Helper.mcpb")
    with open_desk(qtbot, approve=False) as window:
        task = asyncio.ensure_future(open_argument(window, path.as_uri()))
        qtbot.waitUntil(
            lambda: getattr(window, "install_dialog", None) is not None and window.install_dialog.isVisible(),
            timeout=WAIT,
        )
        assert window.install_dialog.title_label.text() == "Folder Helper"
        window.install_dialog.reject()
        qtbot.waitUntil(task.done, timeout=WAIT)
        assert task.result() is None
