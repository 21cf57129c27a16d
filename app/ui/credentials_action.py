"""The window's way into the credentials view: a menu entry, a toolbar button, and the wiring.

Kept apart from `window.py` so the window needs one line: the view is built on first use (its
module is not imported at start), shares the controller's SecretStore (a choice of session-only
keys made here holds for the whole app), follows the server list, and its sign-out requests go to
`DeskController.sign_out` when the controller has it, else straight to the keyring.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QObject, Slot
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu, QToolBar

if TYPE_CHECKING:
    from app.ui.credentials import CredentialsView
    from app.ui.window import MainWindow

logger = logging.getLogger(__name__)

TOOLBAR_NAME = "mainToolBar"


def _tr(text: str) -> str:
    return QCoreApplication.translate("Credentials", text)


class CredentialsOpener(QObject):
    """Owns the action that opens the view and the view itself (one per window)."""

    def __init__(self, window: MainWindow, menu: QMenu) -> None:
        super().__init__(window)
        self.window = window
        self.view: CredentialsView | None = None
        self.action = QAction(QCoreApplication.translate("Credentials", "&Keys and sign-ins…"), window)
        self.action.setObjectName("credentialsAction")
        self.action.setShortcut(QKeySequence("Ctrl+Shift+K"))
        self.action.setToolTip(
            QCoreApplication.translate(
                "Credentials", "See and manage the keys MCP Desk keeps for your servers (Ctrl+Shift+K)"
            )
        )
        self.action.triggered.connect(self.open)
        menu.addAction(self.action)
        bar = window.findChild(QToolBar, TOOLBAR_NAME)
        if bar is None:
            bar = window.addToolBar(QCoreApplication.translate("Credentials", "Main toolbar"))
            bar.setObjectName(TOOLBAR_NAME)
            bar.setMovable(False)
        bar.addAction(self.action)
        window.controller.servers_changed.connect(self._servers_changed)

    @Slot()
    def open(self) -> CredentialsView:
        if self.view is None:
            from app.ui.credentials import CredentialsView

            c = self.window.controller
            view = self.view = CredentialsView(c.secrets, c.entries, self.window)
            view.sign_out_requested.connect(self._sign_out)
            view.keys_changed.connect(self.window.reload_servers)
        self.view.show()
        self.view.raise_()
        self.view.activateWindow()
        self.view.reload()
        return self.view

    @Slot()
    def _servers_changed(self) -> None:
        if self.view is not None and self.view.isVisible():
            self.view.reload()

    @Slot(str)
    def _sign_out(self, server: str) -> None:
        self.window.controller.spawn(self.sign_out(server), on_error=self._sign_out_failed)

    async def sign_out(self, server: str) -> None:
        from app.ui.credentials import forget_sign_in

        c = self.window.controller
        method = getattr(c, "sign_out", None)  # the sign-in helper's; absent in older builds
        try:
            if callable(method):
                await method(server)
            else:
                await forget_sign_in(c.secrets, server)
        finally:
            if self.view is not None:
                self.view.reload()

    def _sign_out_failed(self, exc: BaseException) -> None:
        logger.warning("sign-out of a server failed: %s", exc)
        if self.view is not None:
            self.view.status.setText(
                QCoreApplication.translate("Credentials", "Signing out did not work: %1").replace(
                    "%1", str(exc)
                )
            )
