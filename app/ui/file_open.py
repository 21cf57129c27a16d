"""macOS hands a running app the files and links it should open as events, not as arguments.

A double-click on a `.mcpb` package or a click on an `mcp-desk:` install link while MCP Desk runs
arrives as a QFileOpenEvent on the application (the Apple Event "open documents" / "get URL"); the
one that launched it arrives as an argument (the .app is built with PyInstaller's argv emulation,
packaging/macos/mcp-desk-macos.spec). This filter turns each event into what the command line
would have said and hands it to the window's opener (app/ui/main.py `Opener.received`), the same path
as on Linux and Windows. Other platforms never send the event; the filter costs nothing there.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QEvent, QObject
from PySide6.QtGui import QFileOpenEvent


class FileOpenEvents(QObject):
    def __init__(self, app: QCoreApplication) -> None:
        super().__init__(app)
        self.waiting: list[str] = []  # arrived before the window could take them
        self.receiver: Callable[[list[str]], None] | None = None
        app.installEventFilter(self)

    def deliver_to(self, receiver: Callable[[list[str]], None]) -> None:
        """From now on hand every file or link to `receiver`, those that came before first."""
        self.receiver = receiver
        if self.waiting:
            items, self.waiting = self.waiting, []
            receiver(items)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() != QEvent.Type.FileOpen or not isinstance(event, QFileOpenEvent):
            return False
        url = event.url()
        # A file is its local path; a link keeps its own spelling (mcp-desk://…).
        local = url.isLocalFile() or not url.scheme()
        item = (event.file() or url.toLocalFile()) if local else url.toString()
        if not item:
            return False
        if self.receiver is None:
            self.waiting.append(item)
        else:
            self.receiver([item])
        return True


_events: FileOpenEvents | None = None


def file_opens(app: QCoreApplication | None = None) -> FileOpenEvents:
    """The application's one filter (made on first use)."""
    global _events
    if _events is None:
        instance = app or QCoreApplication.instance()
        assert instance is not None, "a QApplication first"
        _events = FileOpenEvents(instance)
    return _events
