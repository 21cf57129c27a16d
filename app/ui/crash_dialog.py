"""When MCP Desk meets an error it did not expect: a dialog that says so and points at the report.

app/crashreport.py writes the report (masked of every known secret) on any thread and tells the
notifier installed here; the notifier hands the news to the GUI thread through a queued signal,
and the dialog opens there without a nested event loop (`show()`, never `exec()`). While one such
dialog is open, a second crash only updates its count: a loop of errors is one dialog, not fifty.

`install(app, loop)` (app/ui/main.py) also makes the asyncio loop's exception handler write
reports: a task that failed with nobody awaiting it is a crash too.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, Signal, Slot
from PySide6.QtWidgets import QApplication

if TYPE_CHECKING:
    # The dialog itself (a QMessageBox) is imported when a crash first shows it: not on the way
    # to the first paint.
    from app.ui.crash_box import CrashDialog

logger = logging.getLogger(__name__)


def open_local(path: Path) -> bool:
    """Open a file or folder of ours with the desktop's own app for it (nothing is fetched)."""
    from PySide6.QtCore import QUrl
    from PySide6.QtGui import QDesktopServices

    return QDesktopServices.openUrl(QUrl.fromLocalFile(str(path)))


class CrashNotifier(QObject):
    """The bridge from crashreport's notifier (any thread) to one dialog on the GUI thread."""

    crashed = Signal(object, str)  # the report's Path or None, a masked one-line summary

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.dialog: CrashDialog | None = None
        self.crashed.connect(self._show, Qt.ConnectionType.QueuedConnection)

    def notify(self, report: Path | None, summary: str) -> None:
        """Called by app.crashreport on the thread that crashed: queue the dialog."""
        self.crashed.emit(report, summary)

    @Slot(object, str)
    def _show(self, report: Path | None, summary: str) -> None:
        logger.warning("unexpected error: %s (report: %s)", summary, report)
        try:
            self._open(report)
        except Exception:  # a failing dialog must not report itself in a loop
            logger.exception("the crash dialog could not be shown")

    def _open(self, report: Path | None) -> None:
        if self.dialog is not None:
            self.dialog.another(report)
            return
        from app.ui.crash_box import CrashDialog

        parent = QApplication.activeWindow()
        dialog = CrashDialog(report, parent)
        dialog.setWindowModality(Qt.WindowModality.NonModal)
        dialog.finished.connect(self._closed)
        self.dialog = dialog
        dialog.show()
        dialog.raise_()

    @Slot()
    def _closed(self) -> None:
        if self.dialog is not None:
            self.dialog.deleteLater()
            self.dialog = None


_notifier: CrashNotifier | None = None


def install(app: QApplication, loop: asyncio.AbstractEventLoop | None = None) -> CrashNotifier:
    """Show a dialog for each crash report from now on; with `loop`, its unhandled exceptions
    are reported too. Idempotent per application."""
    global _notifier
    from app import crashreport

    if _notifier is None:
        _notifier = CrashNotifier(app)
    crashreport.set_notifier(_notifier.notify)
    if loop is not None:
        loop.set_exception_handler(crashreport.loop_exception_handler)
    return _notifier
