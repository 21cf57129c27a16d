"""The dialogs' file choosers are opened and awaited (no static exec()-style calls), and the
dialogs speak Simplified Chinese when its translation is installed (issue 11, sections 4 and 5)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication, QTranslator
from PySide6.QtWidgets import QApplication, QLineEdit

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")

ROOT = Path(__file__).resolve().parents[2]
QM = ROOT / "resources" / "i18n" / "mcp-desk_zh_CN.qm"


def choose(qtbot: Any, window: Any, path: Path) -> None:
    """Type a path into the open file dialog, as a person would, and accept it."""
    qtbot.waitUntil(
        lambda: getattr(window, "file_dialog", None) is not None and window.file_dialog.isVisible()
    )
    window.file_dialog.findChild(QLineEdit, "fileNameEdit").setText(str(path))
    window.file_dialog.accept()


def test_export_asks_for_the_file_in_an_awaited_dialog(qtbot: Any, desk: Any, tmp_path: Path) -> None:
    target = tmp_path / "exported.json"
    desk.export_servers()  # starts the flow and returns at once: the dialog is awaited, not exec()'d
    choose(qtbot, desk, target)
    qtbot.waitUntil(target.exists, timeout=10000)
    assert "demo" in json.loads(target.read_text(encoding="utf-8"))["mcpServers"]


def test_the_working_folder_is_chosen_in_an_awaited_dialog(qtbot: Any, desk: Any, tmp_path: Path) -> None:
    desk.add_server()
    qtbot.waitUntil(
        lambda: getattr(desk, "server_dialog", None) is not None and desk.server_dialog.isVisible()
    )
    d = desk.server_dialog
    d.advanced.set_expanded(True)
    d._browse_cwd()  # the Browse… button's slot
    choose(qtbot, d, tmp_path)
    qtbot.waitUntil(lambda: d.cwd.text() == str(tmp_path))
    d.reject()
    qtbot.waitUntil(lambda: desk.server_dialog is None)


@pytest.fixture
def chinese(qapp: Any) -> Iterator[None]:
    if not QM.exists():  # run-tests.sh builds it; a bare pytest run builds it here
        subprocess.run([sys.executable, str(ROOT / "packaging" / "translations.py"), "release"], check=True)
    translator = QTranslator()
    assert translator.load(str(QM))
    QCoreApplication.installTranslator(translator)
    try:
        yield
    finally:
        QCoreApplication.removeTranslator(translator)


def test_the_add_dialog_and_diagnose_in_chinese(qtbot: Any, desk: Any, chinese: None) -> None:
    from app.cli.doctor import Step
    from app.ui.diagnose_words import shown_step

    desk.add_server()
    qtbot.waitUntil(
        lambda: getattr(desk, "server_dialog", None) is not None and desk.server_dialog.isVisible()
    )
    d = desk.server_dialog
    assert d.windowTitle() == "添加服务器"
    assert d.advanced.text() == "高级"
    assert d.transport.itemText(0) == "在本机运行"
    d.advanced.set_expanded(True)
    QApplication.processEvents()
    assert d.mode.itemText(0) == "自动（推荐）"
    d.reject()
    qtbot.waitUntil(lambda: desk.server_dialog is None)
    step = shown_step(Step("ok", "start the process", ["pid 1"]), developer=False)
    assert step.title == "启动程序" and step.details == []
