"""The window's side of a crash (app/ui/crash_dialog.py): a report is written with no secret in it
and a dialog points at it — for an exception on another thread, a Qt slot's exception (which
PySide6 hands to sys.excepthook) and a callback on the asyncio loop; a second crash while the
dialog is open is counted in it, not a second dialog. Nothing opens a real app: the desktop's
file handler is replaced for the test."""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QObject, QTimer, QUrl, Slot
from PySide6.QtGui import QDesktopServices

from app import crashreport
from app.mcp.masking import MASK, remember_secrets

SECRET = "dialog-secret-7%x"
pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")  # offscreen: raise(), size hints


class Opened(QObject):
    """Stands in for the desktop's app for file:// URLs."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[QUrl] = []

    @Slot(QUrl)
    def open(self, url: QUrl) -> None:
        self.urls.append(url)


@pytest.fixture
def opened() -> Iterator[Opened]:
    catcher = Opened()
    QDesktopServices.setUrlHandler("file", catcher, "open")
    try:
        yield catcher
    finally:
        QDesktopServices.unsetUrlHandler("file")


@pytest.fixture
def crash_dialogs(qapp: Any, aloop: Any) -> Iterator[Any]:
    from app.ui import crash_dialog

    before = sys.excepthook, threading.excepthook
    crashreport.install()
    notifier = crash_dialog.install(qapp, aloop)
    try:
        yield notifier
    finally:
        if notifier.dialog is not None:
            notifier.dialog.reject()
        crashreport.set_notifier(None)
        aloop.set_exception_handler(None)
        sys.excepthook, threading.excepthook = before


def reports() -> list[Path]:
    return sorted(crashreport.crash_dir().glob("crash-*.txt"))


@pytest.mark.qt_no_exception_capture
def test_a_crash_shows_one_dialog_that_opens_the_masked_report(
    qtbot: Any, aloop: Any, crash_dialogs: Any, opened: Opened
) -> None:
    remember_secrets([SECRET])
    worker = threading.Thread(target=lambda: 1 / 0, name="worker")
    worker.start()
    worker.join()
    qtbot.waitUntil(
        lambda: crash_dialogs.dialog is not None and crash_dialogs.dialog.isVisible(), timeout=5000
    )
    dialog = crash_dialogs.dialog
    (first,) = reports()
    assert str(first) in dialog.informativeText()
    assert "keys left out" in dialog.informativeText()

    # A Qt slot that raises (PySide6 hands it to sys.excepthook), and a callback on the loop.
    def broken_slot() -> None:
        raise ValueError(f"the key is {SECRET}")

    QTimer.singleShot(0, broken_slot)
    qtbot.waitUntil(lambda: dialog.crashes == 2, timeout=5000)

    def broken_callback() -> None:
        raise KeyError(f"no {SECRET}")

    aloop.call_soon(broken_callback)
    qtbot.waitUntil(lambda: dialog.crashes == 3, timeout=5000)
    assert crash_dialogs.dialog is dialog  # still the one dialog, counting
    assert "3 time" in dialog.informativeText()  # "3 times" once the English plural is loaded
    written = reports()
    assert len(written) == 3
    texts = [p.read_text(encoding="utf-8") for p in written]
    assert any("ZeroDivisionError" in t and "where: thread worker" in t for t in texts)
    assert any(f"ValueError: the key is {MASK}" in t for t in texts)
    assert any("KeyError" in t and "where: the event loop" in t for t in texts)
    assert not any("dialog-secret" in t for t in texts)
    newest = max(written, key=lambda p: p.stat().st_mtime_ns)
    assert str(newest) in dialog.informativeText()
    assert "dialog-secret" not in dialog.informativeText() + dialog.text()

    dialog.open_report.click()
    assert [u.toLocalFile() for u in opened.urls] == [str(newest)]
    dialog.open_folder.click()  # the dialog stays open for both
    assert opened.urls[-1].toLocalFile() == str(crashreport.crash_dir())
    dialog.escapeButton().click()
    qtbot.waitUntil(lambda: crash_dialogs.dialog is None, timeout=5000)
    # The next crash is a new dialog.
    threading.Thread(target=lambda: [][1], name="again").start()
    qtbot.waitUntil(
        lambda: crash_dialogs.dialog is not None and crash_dialogs.dialog.isVisible(), timeout=5000
    )
    assert crash_dialogs.dialog is not dialog and crash_dialogs.dialog.crashes == 1


def test_without_a_report_the_dialog_points_at_the_log_file(qtbot: Any) -> None:
    from app.ui.crash_box import CrashDialog

    dialog = CrashDialog(None)
    qtbot.addWidget(dialog)
    assert dialog.open_report is None and dialog.open_folder is None
    text = dialog.informativeText()
    assert "could not be saved" in text and "Open the log file" in text
