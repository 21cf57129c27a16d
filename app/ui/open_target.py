"""What the window does with a thing it is handed: an install link (pasted, typed in "Open an
install link…", given by the browser's scheme handler) or a server package path (double-clicked,
dropped, given on the command line).

`open_argument(window, text)` dispatches: a link → `app.config.links.parse_link` → the install
dialog; a path or `file://` URL ending `.mcpb`/`.dxt` →
`app.ui.bundle_dialog.install_bundle_file` (imported when needed). Anything else is said to be
something MCP Desk cannot open, in a message the person can read; nothing is thrown away silently.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, Qt, QUrl, Slot
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QMenu,
    QMessageBox,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from app.config.links import MAX_LINK, LinkError, looks_like_link, parse_link
from app.install.plan import InstallPlan
from app.ui.async_dialogs import inform, run_dialog
from app.ui.safe_text import plain_label
from app.ui.theme import notice_style

logger = logging.getLogger(__name__)

BUNDLE_SUFFIXES = (".mcpb", ".dxt")


def bundle_path(text: str) -> Path | None:
    """The server package `text` names (a path or a `file://` URL ending .mcpb/.dxt), or None."""
    text = text.strip()
    if text.lower().startswith("file:"):
        local = QUrl(text).toLocalFile()
        if not local:
            return None
        text = local
    if "\n" in text or len(text) > 4096:
        return None
    return Path(text) if text.lower().endswith(BUNDLE_SUFFIXES) else None


async def open_argument(window: Any, text: str) -> str | None:
    """Open what `text` names; returns the name of the server added, or None."""
    path = bundle_path(text)
    if path is not None:
        try:
            from app.ui.bundle_dialog import install_bundle_file
        except ImportError:
            await _cannot(
                window,
                QCoreApplication.translate(
                    "OpenTarget", "Server packages (.mcpb) cannot be opened by this version of MCP Desk."
                ),
            )
            return None
        result: str | None = await install_bundle_file(window, path)
        return result
    if looks_like_link(text):
        return await open_link(window, text)
    await _cannot(
        window,
        QCoreApplication.translate(
            "OpenTarget",
            "MCP Desk cannot open this. It opens install links (mcp-desk://, cursor://, vscode:, "
            "lmstudio://) and server packages (.mcpb).",
        ),
    )
    return None


async def open_link(window: Any, text: str) -> str | None:
    """An install link → its plan → the install dialog; a bad link is said so, with the reason."""
    from app.ui.install_dialog import install_plan

    try:
        plan = parse_link(text)
    except LinkError as exc:
        await _cannot(
            window,
            QCoreApplication.translate("OpenTarget", "This install link cannot be used: %1.").replace(
                "%1", str(exc)
            ),
        )
        return None
    return await install_plan(window, plan)


async def _cannot(window: Any, message: str) -> None:
    # The text itself is not shown: a link may hold a key typed in clear.
    window.open_problem = message  # tests read it here
    await inform(
        window,
        QCoreApplication.translate("OpenTarget", "Cannot open"),
        message,
        icon=QMessageBox.Icon.Warning,
    )


class LinkDialog(QDialog):
    """ "Open an install link…": a box to paste the link into; Open is enabled for a link we read,
    and the reason a link cannot be used is shown here, the dialog kept open."""

    def __init__(self, parent: QWidget | None = None, text: str = "") -> None:
        super().__init__(parent)
        self.setWindowTitle(QCoreApplication.translate("OpenTarget", "Open an install link"))
        lay = QVBoxLayout(self)
        lay.addWidget(
            QLabel(
                QCoreApplication.translate(
                    "OpenTarget",
                    "Paste an install link from a web page or a README (mcp-desk://, cursor://, "
                    "vscode: or lmstudio://). You will see what it adds before anything is added.",
                ),
                self,
                wordWrap=True,
            )
        )
        self.edit = QPlainTextEdit(self)
        self.edit.setObjectName("installLink")
        self.edit.setPlaceholderText("mcp-desk://install?name=…&config=…")
        self.edit.setTabChangesFocus(True)
        self.edit.setPlainText(text)
        self.edit.textChanged.connect(self._changed)
        lay.addWidget(self.edit, 1)
        self.problem = plain_label("", self)
        self.problem.setObjectName("installError")
        self._restyle()
        self.problem.hide()
        lay.addWidget(self.problem)
        self.buttons = QDialogButtonBox(self)
        self.open_button = self.buttons.addButton(
            QCoreApplication.translate("OpenTarget", "Open"), QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        lay.addWidget(self.buttons)
        self.plan: InstallPlan | None = None
        self.resize(520, 220)
        self._changed()

    def _restyle(self) -> None:
        self.problem.setStyleSheet(notice_style("error", "QLabel#installError"))

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self._restyle()  # the system switched between light and dark

    def text(self) -> str:
        return self.edit.toPlainText().strip()

    @Slot()
    def _changed(self) -> None:
        text = self.text()
        self.problem.hide()
        self.open_button.setEnabled(bool(text) and len(text) <= MAX_LINK and looks_like_link(text))

    def accept(self) -> None:
        try:
            self.plan = parse_link(self.text())
        except LinkError as exc:
            self.problem.setText(
                QCoreApplication.translate("OpenTarget", "This install link cannot be used: %1.").replace(
                    "%1", str(exc)
                )
            )
            self.problem.show()
            return
        super().accept()


async def open_link_dialog(window: Any, text: str = "") -> str | None:
    """Servers → "Open an install link…"."""
    from app.ui.install_dialog import install_plan

    dialog = LinkDialog(window, text)
    window.link_dialog = dialog  # tests reach it here
    try:
        accepted = await run_dialog(dialog) == QDialog.DialogCode.Accepted.value
        plan = dialog.plan
    finally:
        window.link_dialog = None
        dialog.deleteLater()
    if not accepted or plan is None:
        return None
    return await install_plan(window, plan)


def add_link_actions(window: Any, menu: QMenu) -> None:
    """The Servers menu's "Open an install link…", and Ctrl+V on the server list opening a pasted
    install link (other pasted text is left alone)."""
    action = QAction(QCoreApplication.translate("OpenTarget", "Open an install &link…"), window)
    action.triggered.connect(lambda: window.controller.spawn(open_link_dialog(window)))
    menu.addAction(action)
    window.open_link_action = action
    view = window.servers.view
    paste = QShortcut(QKeySequence(QKeySequence.StandardKey.Paste), view)
    paste.setContext(Qt.ShortcutContext.WidgetShortcut)

    def pasted() -> None:
        text = QGuiApplication.clipboard().text()
        if text and looks_like_link(text):
            window.controller.spawn(open_link(window, text.strip()))

    paste.activated.connect(pasted)
    window.link_paste_shortcut = paste
