"""The Servers menu's "Browse the server directory…": one line in `window.py`; the browser's module
(and with it the registry client) is imported only when the person opens it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu

if TYPE_CHECKING:
    from app.ui.window import MainWindow


def add_browse_action(window: MainWindow, menu: QMenu) -> QAction:
    action = QAction(QCoreApplication.translate("RegistryBrowser", "&Browse the server directory…"), window)
    action.setObjectName("browseRegistryAction")

    def open_browser() -> None:
        from app.ui.registry_browser import open_registry

        open_registry(window)

    action.triggered.connect(open_browser)
    menu.addAction(action)
    return action
