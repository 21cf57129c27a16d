"""Help → "Open the log file" and "Show the log folder" (the log file and the crash reports):
what a person asked "can you send me the log?" needs, without knowing where platforms keep logs.

The file is opened by the desktop's own app for text files (QDesktopServices: nothing is fetched).
When there is no such app (or no log file yet), the person is told the path instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu

if TYPE_CHECKING:
    from pathlib import Path

    from app.ui.window import MainWindow


class LogActions(QObject):
    def __init__(self, window: MainWindow, menu: QMenu) -> None:
        super().__init__(window)
        self.window = window
        self.open_log = QAction(self.tr("Open the &log file"), window)
        self.open_log.setObjectName("openLogFileAction")
        self.open_log.setToolTip(self.tr("What MCP Desk noted while it ran, with your keys left out"))
        self.open_log.triggered.connect(self.open_log_file)
        self.open_folder = QAction(self.tr("Show the log &folder"), window)
        self.open_folder.setObjectName("openLogFolderAction")
        self.open_folder.setToolTip(self.tr("The log files and the reports of unexpected errors"))
        self.open_folder.triggered.connect(self.open_log_folder)
        menu.addSeparator()
        menu.addAction(self.open_log)
        menu.addAction(self.open_folder)

    @Slot()
    def open_log_file(self) -> None:
        from app.logfile import log_path

        path = log_path()
        if not path.is_file():
            self._tell(self.tr("There is no log file yet. It will be in this folder:"), path.parent)
            return
        self._open(path)

    @Slot()
    def open_log_folder(self) -> None:
        from app.config.locations import log_dir

        folder = log_dir()
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError:
            self._tell(self.tr("The log folder cannot be made:"), folder)
            return
        self._open(folder)

    def _open(self, path: Path) -> None:
        from app.ui.crash_dialog import open_local

        if not open_local(path):
            self._tell(self.tr("No app on this computer could open it. It is here:"), path)

    def _tell(self, text: str, path: Path) -> None:
        from app.ui.async_dialogs import inform

        self.window.controller.spawn(inform(self.window, self.tr("Log file"), text, informative=str(path)))


def add_log_actions(window: MainWindow, menu: QMenu) -> LogActions:
    """The two actions at the end of `menu` (found by their object names; kept by the window)."""
    return LogActions(window, menu)
