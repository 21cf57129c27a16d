"""macOS's way of opening a .mcpb file or an mcp-desk: link in the running app (app/ui/file_open.py):
a QFileOpenEvent on the application reaches the window's opener as the command line would (a
path, a link as written); the ones that come before the window is ready wait for it."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, QUrl
from PySide6.QtGui import QFileOpenEvent

from app.ui.file_open import FileOpenEvents


def test_file_and_link_events_reach_the_opener_in_order(qapp: Any, tmp_path: Any) -> None:
    events = FileOpenEvents(qapp)
    try:
        package = tmp_path / "weather.mcpb"
        QCoreApplication.sendEvent(qapp, QFileOpenEvent(str(package)))
        got: list[list[str]] = []
        events.deliver_to(got.append)
        assert got == [[str(package)]]  # it waited for the window
        link = "mcp-desk://install?name=weather&config=e30"
        QCoreApplication.sendEvent(qapp, QFileOpenEvent(QUrl(link)))
        assert got[-1] == [QUrl(link).toString()] and got[-1][0].startswith("mcp-desk://install?")
    finally:
        qapp.removeEventFilter(events)
        events.deleteLater()
