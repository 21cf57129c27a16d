"""Help → "Open the log file" / "Show the log folder" (app/ui/help_actions.py): the desktop's app
opens the log file in the platform's log folder; with no log file yet, the person is told where
it will be. The desktop's file handler is replaced for the test (nothing really opens)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QMessageBox

from app import logfile
from app.config.locations import log_dir
from tests.ui.test_help_crash_dialog import Opened, opened  # noqa: F401  (the fixture)

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")


@pytest.fixture
def log_file() -> Iterator[Any]:
    level = logging.getLogger("app").level
    try:
        yield logfile.install()
    finally:
        logfile.uninstall()
        logging.getLogger("app").setLevel(level)


def help_actions(window: Any) -> list[str]:
    menu = next(m for m in window.menuBar().findChildren(QMenu) if window.guide_action in m.actions())
    return [a.objectName() for a in menu.actions() if a.objectName()]


def test_help_opens_the_log_file_and_its_folder(desk: Any, qtbot: Any, opened: Opened, log_file: Any) -> None:  # noqa: F811
    assert help_actions(desk) == ["welcomeGuideAction", "openLogFileAction", "openLogFolderAction"]
    desk.findChild(QAction, "openLogFileAction").trigger()
    assert [u.toLocalFile() for u in opened.urls] == [str(log_file)]
    assert log_file.parent == log_dir() and log_file.is_file()
    desk.findChild(QAction, "openLogFolderAction").trigger()
    assert opened.urls[-1].toLocalFile() == str(log_dir())


def test_no_log_file_yet_says_where_it_will_be(desk: Any, qtbot: Any, opened: Opened) -> None:  # noqa: F811
    assert not logfile.log_path().exists()
    desk.findChild(QAction, "openLogFileAction").trigger()

    def told() -> list[QMessageBox]:
        return [b for b in desk.findChildren(QMessageBox) if b.isVisible()]

    qtbot.waitUntil(lambda: len(told()) == 1, timeout=5000)
    (box,) = told()
    assert "no log file yet" in box.text() and box.informativeText() == str(log_dir())
    assert opened.urls == []
    box.button(QMessageBox.StandardButton.Ok).click()
    qtbot.waitUntil(lambda: not told(), timeout=5000)
