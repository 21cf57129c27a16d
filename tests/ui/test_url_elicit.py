"""A tool whose server answers -32042 (URL elicitation required), run from the window: the
person is shown the page and asked, the browser opens only after their yes, and the tool's
answer arrives once the server says the step is done (tests/servers/url_elicit_server.py,
2025-11-25 over stdio)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from PySide6.QtCore import QObject, QUrl, Slot
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QMessageBox

from tests.ui.conftest import connect, open_desk, run, select_tool, write_servers

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")

VAULT = {"command": sys.executable, "args": ["-m", "tests.servers.url_elicit_server"]}


class UrlCatcher(QObject):
    """Stands in for the web browser: records what QDesktopServices.openUrl was asked to open."""

    def __init__(self) -> None:
        super().__init__()
        self.opened: list[str] = []

    @Slot(QUrl)
    def open(self, url: QUrl) -> None:
        self.opened.append(url.toString())


@pytest.fixture
def browser() -> Iterator[UrlCatcher]:
    catcher = UrlCatcher()
    for scheme in ("http", "https"):
        QDesktopServices.setUrlHandler(scheme, catcher, "open")
    yield catcher
    for scheme in ("http", "https"):
        QDesktopServices.unsetUrlHandler(scheme)


def box(window: Any) -> QMessageBox | None:
    boxes = [w for w in window.findChildren(QMessageBox) if w.isVisible()]
    return boxes[0] if boxes else None


def click(b: QMessageBox, text: str) -> None:
    next(btn for btn in b.buttons() if btn.text() == text).click()


def legacy(config_dir: Path, name: str) -> None:
    path = config_dir / "settings.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data.setdefault("servers", {}).setdefault(name, {})["protocol_mode"] = "legacy"
    path.write_text(json.dumps(data), encoding="utf-8")


async def visit(url: str) -> int:
    async with httpx2.AsyncClient() as http:
        return (await http.get(url)).status_code


def test_the_page_is_asked_for_opened_and_the_tool_answers_after_it(
    qtbot: Any, aloop: Any, config_dir: Path, browser: UrlCatcher
) -> None:
    write_servers(config_dir, {"vault": VAULT})
    legacy(config_dir, "vault")
    with open_desk(qtbot) as desk:
        connect(qtbot, desk, "vault")
        select_tool(qtbot, desk, "open_vault", server="vault")
        with qtbot.waitSignal(desk.call_finished, timeout=30000):
            desk.tool_panel.run_button.click()
            qtbot.waitUntil(lambda: box(desk) is not None, timeout=20000)
            asked = box(desk)
            assert asked is not None
            text = asked.text()
            assert "Sign in to the vault on its web page" in text and "/visit/vault-1" in text
            assert "MCP Desk runs the request again by itself" in text
            assert browser.opened == []  # nothing opens before the person's yes
            click(asked, "Open in browser")
            qtbot.waitUntil(lambda: len(browser.opened) == 1, timeout=10000)
            assert run(qtbot, visit(browser.opened[0])) == 200  # the person finishes the page
        result = desk.tool_panel.result
        qtbot.waitUntil(lambda: "vault open" in result_text(result), timeout=10000)


def test_a_declined_page_ends_the_call_as_failed(
    qtbot: Any, aloop: Any, config_dir: Path, browser: UrlCatcher
) -> None:
    write_servers(config_dir, {"vault": VAULT})
    legacy(config_dir, "vault")
    with open_desk(qtbot) as desk:
        connect(qtbot, desk, "vault")
        select_tool(qtbot, desk, "open_vault", server="vault")
        with qtbot.waitSignal(desk.call_finished, timeout=30000):
            desk.tool_panel.run_button.click()
            qtbot.waitUntil(lambda: box(desk) is not None, timeout=20000)
            asked = box(desk)
            assert asked is not None
            click(asked, "Decline")
        assert browser.opened == []
        qtbot.waitUntil(lambda: "web page" in result_text(desk.tool_panel.result), timeout=10000)


def result_text(view: Any) -> str:
    """Everything the result area shows as text (labels and text views)."""
    from PySide6.QtWidgets import QLabel, QPlainTextEdit, QTextEdit

    parts = [w.text() for w in view.findChildren(QLabel) if w.isVisibleTo(view)]
    edits = [*view.findChildren(QPlainTextEdit), *view.findChildren(QTextEdit)]
    parts += [w.toPlainText() for w in edits if w.isVisibleTo(view)]
    return "\n".join(parts)
