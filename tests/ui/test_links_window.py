"""Install links in the window: Servers → "Open an install link…" (a bad link keeps the box open
with the reason), Ctrl+V of a link on the server list, and `open_argument` sending a link to the
install dialog and a server package path to h-bundles' `install_bundle_file`."""

from __future__ import annotations

import asyncio
import base64
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication

from tests.ui.conftest import open_desk, run

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")

ENTRY = {"command": sys.executable, "args": ["-c", "pass"], "env": {"API_KEY": "${ask:API_KEY}"}}
LINK = "mcp-desk://install?name=linked&config=" + base64.b64encode(json.dumps(ENTRY).encode()).decode()


def wait_install_dialog(qtbot: Any, window: Any) -> Any:
    qtbot.waitUntil(
        lambda: getattr(window, "install_dialog", None) is not None and window.install_dialog.isVisible(),
        timeout=10000,
    )
    return window.install_dialog


def close_install_dialog(qtbot: Any, window: Any) -> None:
    window.install_dialog.reject()
    qtbot.waitUntil(lambda: window.install_dialog is None)


def test_the_menu_opens_a_box_that_keeps_a_bad_link_with_its_reason(qtbot: Any, aloop: Any) -> None:
    with open_desk(qtbot) as window:
        assert window.open_link_action.text() == "Open an install &link…"
        window.open_link_action.trigger()
        qtbot.waitUntil(
            lambda: getattr(window, "link_dialog", None) is not None and window.link_dialog.isVisible()
        )
        box = window.link_dialog
        assert not box.open_button.isEnabled()
        box.edit.setPlainText("cursor://anysphere.cursor-deeplink/mcp/install?name=x&config=%%%")
        assert box.open_button.isEnabled()
        box.open_button.click()
        assert box.isVisible() and "not valid base64" in box.problem.text()
        box.edit.setPlainText(LINK)
        box.open_button.click()
        dialog = wait_install_dialog(qtbot, window)
        assert window.link_dialog is None
        assert dialog.name_edit.text() == "linked" and "API_KEY" in dialog.fields
        close_install_dialog(qtbot, window)


def test_ctrl_v_of_a_link_on_the_server_list_opens_it(qtbot: Any, aloop: Any) -> None:
    with open_desk(qtbot) as window:
        QGuiApplication.clipboard().setText(LINK)
        view = window.servers.view
        view.setFocus()
        qtbot.waitUntil(view.hasFocus)
        qtbot.keyClick(view, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
        wait_install_dialog(qtbot, window)
        close_install_dialog(qtbot, window)
        # Other text pasted on the list is left alone.
        QGuiApplication.clipboard().setText("hello")
        qtbot.keyClick(view, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
        run(qtbot, asyncio.sleep(0))
        assert window.install_dialog is None


def test_open_argument_dispatches_links_and_packages(
    qtbot: Any, aloop: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from app.ui.open_target import open_argument

    opened: list[Path] = []

    async def install_bundle_file(window: Any, path: Path) -> str | None:
        opened.append(path)
        return "bundled"

    # h-bundles' install, as far as this dispatch needs it (its own tests cover the rest).
    monkeypatch.setattr("app.ui.bundle_dialog.install_bundle_file", install_bundle_file)
    package = tmp_path / "My Server.mcpb"
    with open_desk(qtbot) as window:
        task = asyncio.ensure_future(open_argument(window, LINK))
        wait_install_dialog(qtbot, window)
        close_install_dialog(qtbot, window)
        qtbot.waitUntil(task.done)
        assert task.result() is None

        assert run(qtbot, open_argument(window, str(package))) == "bundled"
        assert run(qtbot, open_argument(window, package.as_uri())) == "bundled"  # as %U gives it
        assert run(qtbot, open_argument(window, str(tmp_path / "old.DXT"))) == "bundled"
        assert opened == [package, package, tmp_path / "old.DXT"]

        # Something else: said so, in a message box (the text itself is not shown: it may hold a key).
        task = asyncio.ensure_future(open_argument(window, "cursor://anysphere.cursor-deeplink/mcp/install"))
        qtbot.waitUntil(lambda: getattr(window, "open_problem", None) is not None)
        assert "no config" in window.open_problem
        from PySide6.QtWidgets import QMessageBox

        boxes = [b for b in window.findChildren(QMessageBox) if b.isVisible()]
        assert len(boxes) == 1 and "cursor://" not in boxes[0].text()
        boxes[0].reject()
        qtbot.waitUntil(task.done)
