"""The crash dialog itself (app/ui/crash_dialog.py shows it): where the report is, and buttons
that open it and its folder."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QPushButton, QWidget

from app.ui.crash_dialog import open_local


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
