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

from PySide6.QtCore import QObject, Qt, QUrl, Signal, Slot
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QApplication, QMessageBox, QPushButton, QWidget

logger = logging.getLogger(__name__)


class CrashDialog(QMessageBox):
    """Something went wrong: where the report is, a button that opens it, one that opens its
    folder, and Close. Plain text only: the path and the count are the only variable parts."""

    def __init__(self, report: Path | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("crashDialog")
        self.setIcon(QMessageBox.Icon.Warning)
        self.setTextFormat(Qt.TextFormat.PlainText)
        # The path can be selected and copied (into a mail, a chat with whoever helps).
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setWindowTitle(self.tr("MCP Desk ran into a problem"))
        self.setText(self.tr("Something went wrong inside MCP Desk. Your servers and keys are not affected."))
        self.report = report
        self.crashes = 1
        self.open_report: QPushButton | None = None
        self.open_folder: QPushButton | None = None
        if report is not None:
            self.open_report = self.addButton(self.tr("Open the report"), QMessageBox.ButtonRole.ActionRole)
            self.open_folder = self.addButton(self.tr("Show the folder"), QMessageBox.ButtonRole.ActionRole)
            self.open_report.clicked.connect(lambda: open_local(report))
            self.open_folder.clicked.connect(lambda: open_local(report.parent))
        close = self.addButton(self.tr("Close"), QMessageBox.ButtonRole.RejectRole)
        self.setDefaultButton(close)
        self.setEscapeButton(close)
        self._explain()

    def another(self, report: Path | None) -> None:
        """One more crash while the dialog is open: count it, point at the newest report."""
        self.crashes += 1
        if report is not None and self.open_report is not None:
            self.report = report
            self.open_report.clicked.disconnect()
            self.open_report.clicked.connect(lambda: open_local(report))
        self._explain()

    def _explain(self) -> None:
        if self.report is None:
            text = self.tr(
                "A report could not be saved. The log file (Help → Open the log file) says what happened."
            )
        else:
            text = self.tr(
                "A report was saved, with your keys left out. "
                "You can send it to whoever helps you with MCP Desk:\n%1"
            ).replace("%1", str(self.report))
        if self.crashes > 1:
            text += "\n\n" + self.tr("This has happened %n time(s) so far.", "", self.crashes)
        self.setInformativeText(text)


def open_local(path: Path) -> bool:
    """Open a file or folder of ours with the desktop's own app for it (nothing is fetched)."""
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
