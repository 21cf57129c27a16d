"""A hostile server through the real window: its HTML is never rendered (so nothing is fetched),
its bidi and invisible characters are shown, wherever its text ends up.

The server (`tests/servers/faults/spoof_server.py`) puts `<b>`, `<img src="http://127.0.0.1:PORT/...">`
and `<a href>` in every name, title, description, URI, result, log line, error and request it
sends; a listener on PORT counts fetches. The test opens every panel its text can reach, then
walks every widget (`QApplication.allWidgets()`) and every item model's data.
"""

from __future__ import annotations

import asyncio
import socket
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QAbstractItemModel, QModelIndex, Qt
from PySide6.QtGui import Qt as QtGui
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QTextEdit,
)

from tests.servers.faults.spoof_server import INVISIBLE, MARK, SPOOF_NAME
from tests.ui.conftest import open_desk, wait_state, write_servers

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")

SERVER = Path(__file__).resolve().parent.parent / "servers" / "faults" / "spoof_server.py"
ROLES = {
    "display": Qt.ItemDataRole.DisplayRole,
    "tooltip": Qt.ItemDataRole.ToolTipRole,
    "statustip": Qt.ItemDataRole.StatusTipRole,
    "whatsthis": Qt.ItemDataRole.WhatsThisRole,
    "accessible": Qt.ItemDataRole.AccessibleTextRole,
}
RICH_ROLES = ("tooltip", "statustip", "whatsthis")


class Listener:
    """A TCP listener on 127.0.0.1 that counts connections (a rendered `<img>` would be one)."""

    def __init__(self) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.hits = 0
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.hits += 1
            conn.close()

    def close(self) -> None:
        self.sock.close()
        self._thread.join(5)


@pytest.fixture
def listener() -> Iterator[Listener]:
    lst = Listener()
    yield lst
    lst.close()


@pytest.fixture
def spoofed(qtbot: Any, aloop: Any, config_dir: Path, listener: Listener) -> Iterator[Any]:
    """The real window on the hostile server ("spoof") and its exiting twin ("broken"), connected."""
    argv = [str(SERVER), "--port", str(listener.port)]
    write_servers(
        config_dir,
        {
            "spoof": {"command": sys.executable, "args": argv},
            "broken": {"command": sys.executable, "args": [*argv, "--exit-at-once"]},
        },
    )
    with open_desk(qtbot, connect_enabled=True) as window:
        wait_state(qtbot, window, "spoof", "ready")
        wait_state(qtbot, window, "broken", "failed")
        yield window


# --- the walk ------------------------------------------------------------------------------------


def _shows_raw_html(text: str) -> bool:
    """Server HTML in a tooltip-like string, unescaped. Stricter than Qt's own test (mightBeRichText
    looks at the first line only, so "name\n<b>reason</b>" passes it by luck of the name)."""
    return f"<b>{MARK}" in text or "<img src=" in text


def _invisible(text: str) -> list[str]:
    return [f"U+{ord(c):04X}" for c in INVISIBLE if c in text]


def _columns(model: QAbstractItemModel, parent: QModelIndex) -> int:
    try:
        return max(1, model.columnCount(parent))
    except TypeError:  # a QAbstractListModel keeps columnCount private
        return 1


def _has_children(model: QAbstractItemModel, idx: QModelIndex) -> bool:
    try:
        return model.hasChildren(idx)
    except TypeError:  # flat models keep hasChildren private too
        return False


def _model_problems(where: str, model: QAbstractItemModel, parent: QModelIndex, out: list[str]) -> None:
    for row in range(model.rowCount(parent)):
        for col in range(_columns(model, parent)):
            idx = model.index(row, col, parent)
            for name, role in ROLES.items():
                value = idx.data(role)
                if not isinstance(value, str):
                    continue
                if name in RICH_ROLES and _shows_raw_html(value):
                    out.append(f"{where}[{row},{col}] {name} is rich text: {value[:80]!r}")
                if _invisible(value):
                    out.append(f"{where}[{row},{col}] {name} holds {_invisible(value)}: {value[:60]!r}")
            if col == 0 and _has_children(model, idx):
                _model_problems(where, model, idx, out)


def problems(seen: set[str]) -> list[str]:
    """Every place server text is shown in a rich-text context or with invisible characters.
    `seen` collects the kinds of widget that showed server text (the walk must reach them)."""
    out: list[str] = []
    models: dict[int, tuple[str, QAbstractItemModel]] = {}
    for w in QApplication.allWidgets():
        where = f"{type(w).__name__}#{w.objectName() or '?'}"
        texts: dict[str, str] = {"tooltip": w.toolTip(), "statustip": w.statusTip(), "title": w.windowTitle()}
        if isinstance(w, QLabel):
            texts["text"] = w.text()
            if MARK in w.text():
                seen.add("label")
                if w.textFormat() != Qt.TextFormat.PlainText and QtGui.mightBeRichText(w.text()):
                    out.append(f"{where} renders rich text: {w.text()[:80]!r}")
        elif isinstance(w, QAbstractButton):
            texts["text"] = w.text()
        elif isinstance(w, QLineEdit):
            texts["placeholder"] = w.placeholderText()
        elif isinstance(w, QPlainTextEdit | QTextEdit):
            texts["text"] = w.toPlainText()
            if isinstance(w, QPlainTextEdit) and w.isReadOnly() and MARK in w.toPlainText():
                seen.add("text view")
        if isinstance(w, QAbstractItemView) and w.model() is not None:
            models[id(w.model())] = (where, w.model())
        for kind, value in texts.items():
            if MARK in value:
                seen.add(kind)
            if kind in RICH_ROLES and _shows_raw_html(value):
                out.append(f"{where} {kind} is rich text: {value[:80]!r}")
            if _invisible(value):
                out.append(f"{where} {kind} holds {_invisible(value)}: {value[:60]!r}")
    for where, model in models.values():
        _model_problems(f"{where}.model", model, QModelIndex(), out)
        if any(
            MARK in str(model.index(r, c).data(ROLES["display"]) or "")
            for r in range(model.rowCount())
            for c in range(_columns(model, QModelIndex()))
        ):
            seen.add("model")
    return out


# --- the test ------------------------------------------------------------------------------------


def _open_dialogs(window: Any) -> list[Any]:
    return [d for d in window.controller.handlers.open_dialogs if d.isVisible()]


def _run(qtbot: Any, window: Any, tool: str) -> None:
    window.servers.select("spoof")
    assert window.catalog.select("tools", "spoof", tool), tool
    qtbot.waitUntil(lambda: getattr(window.tool_panel.tool, "name", None) == tool, timeout=5000)
    with qtbot.waitSignal(window.call_finished, timeout=20000):
        window.tool_panel.run_button.click()


def _answer_request(qtbot: Any, window: Any, tool: str, seen: set[str], found: list[str]) -> None:
    """Run `tool`, walk the window while its server's request (elicitation/sampling) is open,
    then decline."""
    window.servers.select("spoof")
    assert window.catalog.select("tools", "spoof", tool), tool
    qtbot.waitUntil(lambda: getattr(window.tool_panel.tool, "name", None) == tool, timeout=5000)
    window.tool_panel.run_button.click()
    qtbot.waitUntil(lambda: bool(_open_dialogs(window)), timeout=20000)
    (dialog,) = _open_dialogs(window)
    found += problems(seen)
    with qtbot.waitSignal(window.call_finished, timeout=20000):
        dialog.decline_button.click()


def test_hostile_server_text_is_never_rich_and_never_invisible(
    qtbot: Any, spoofed: Any, listener: Listener
) -> None:
    w = spoofed
    seen: set[str] = set()
    found: list[str] = []
    # The failure reason (the server's stderr) on the overview and in the server list.
    w.servers.select("broken")
    qtbot.waitUntil(lambda: MARK in w.overview_reason.text(), timeout=5000)
    found += problems(seen)

    # Tools: the hostile one, one that fails with a hostile error, one that answers hostile text.
    w.servers.select("spoof")
    qtbot.waitUntil(lambda: w.catalog.models["tools"].find("spoof", SPOOF_NAME) >= 0, timeout=10000)
    assert w.catalog.select("tools", "spoof", SPOOF_NAME)
    _run(qtbot, w, "fail")
    assert MARK in w.tool_panel.result.status_text()
    found += problems(seen)
    _run(qtbot, w, "echo")
    from app.ui.results import TextBlock

    for block in w.tool_panel.result.findChildren(TextBlock):
        block.markdown_toggle.setChecked(True)  # the Markdown view too (it renders no HTML)
    w.bottom.setCurrentIndex(1)  # Traffic: its table and the selected message's JSON
    traffic = w.bottom.traffic_view
    qtbot.waitUntil(lambda: traffic.model().rowCount() > 0, timeout=5000)
    traffic.setCurrentIndex(traffic.model().index(traffic.model().rowCount() - 1, 0))
    qtbot.waitUntil(lambda: bool(w.bottom.log_model.rowCount()), timeout=10000)  # the stderr line
    found += problems(seen)

    # Read the resource link the answer holds (its own window), the resource, the template, the prompt.
    from PySide6.QtWidgets import QDialog, QPushButton

    link = next(b for b in w.tool_panel.result.findChildren(QPushButton) if b.text() == "Read resource")
    link.click()
    result_view = type(w.tool_panel.result)
    windows = [d for d in w.findChildren(QDialog) if d.isVisible() and d.findChildren(result_view)]
    assert windows
    qtbot.waitUntil(lambda: MARK in windows[0].findChild(result_view).json_text(), timeout=10000)
    found += problems(seen)
    windows[0].close()
    key = w.catalog.models["resources"].items_of("spoof")[0].key
    assert w.catalog.select("resources", "spoof", key)
    w.resource_panel.read_button.click()
    qtbot.waitUntil(lambda: MARK in w.resource_panel.result.json_text(), timeout=10000)
    found += problems(seen)
    tpl = w.catalog.models["resource_templates"].items_of("spoof")[0].key
    assert w.catalog.select("resource_templates", "spoof", tpl)
    found += problems(seen)
    assert w.catalog.select("prompts", "spoof", "greet")
    next(iter(w.prompt_panel.fields.values()))[0].setText("x")
    w.prompt_panel.get_button.click()
    qtbot.waitUntil(lambda: MARK in w.prompt_panel.result.json_text(), timeout=10000)
    found += problems(seen)

    # Requests from the server: an elicitation and a sampling dialog, walked while open.
    _answer_request(qtbot, w, "ask", seen, found)
    _answer_request(qtbot, w, "sample", seen, found)

    # The destructive-tool question and other message boxes hold server names: a box with them.
    from PySide6.QtWidgets import QMessageBox

    from app.ui.async_dialogs import ask

    task = asyncio.ensure_future(
        ask(w, SPOOF_NAME, f"Run <b>{MARK}</b> {SPOOF_NAME}?", informative=f"<b>{MARK}</b> {SPOOF_NAME}")
    )
    qtbot.waitUntil(lambda: any(b.isVisible() for b in w.findChildren(QMessageBox)), timeout=5000)
    found += problems(seen)
    next(b for b in w.findChildren(QMessageBox) if b.isVisible()).reject()
    qtbot.waitUntil(task.done, timeout=5000)

    assert found == [], "\n".join(dict.fromkeys(found))
    # The walk did reach server text of every kind it checks.
    assert {"label", "tooltip", "title", "text view", "model"} <= seen, seen
    assert listener.hits == 0


def test_cli_output_shows_invisible_characters(listener: Listener) -> None:
    """`mcp-desk tools/call` print server text with bidi controls and escapes made visible; a
    failure reason too; `--json` stays JSON that parses to what the server sent."""
    import json
    import subprocess

    server = f"{sys.executable} {SERVER} --port {listener.port}"

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "app", *args], capture_output=True, text=True, timeout=60, check=False
        )

    for out in (cli("tools", "--stdio", server), cli("call", "--stdio", server, "echo")):
        assert out.returncode == 0, out.stderr
        assert MARK in out.stdout
        assert _invisible(out.stdout) == [], out.stdout
        assert "⟨U+202E⟩" in out.stdout
    failed = cli("tools", "--stdio", server + " --exit-at-once")
    assert failed.returncode == 1 and MARK in failed.stderr
    assert _invisible(failed.stderr) == [], failed.stderr
    raw = cli("tools", "--json", "--stdio", server)
    assert _invisible(raw.stdout) == [] and "\\u202e" in raw.stdout
    names = [t["name"] for t in json.loads(raw.stdout)]
    assert SPOOF_NAME in names


def test_widget_walk_can_fail(qtbot: Any) -> None:
    """The walk finds a rich-text label, an unescaped tooltip and an invisible character."""
    label = QLabel(f"<b>{MARK}</b>")
    label.setToolTip(f"<b>{MARK}</b>")
    qtbot.addWidget(label)
    edit = QLineEdit()
    edit.setPlaceholderText(SPOOF_NAME)
    qtbot.addWidget(edit)
    found = problems(set())
    assert any("renders rich text" in p for p in found)
    assert any("tooltip is rich text" in p for p in found)
    assert any("U+202E" in p for p in found)
