"""Runs the real GUI (`app.ui.main.run_gui`) and quits it the way a person or the desktop would,
once every enabled server is ready; for tests/ui/test_quit.py, as a subprocess:

    python -m tests.ui.quit_driver HOW --config-dir DIR

HOW: `close` (the window's close button), `ctrl-q` (the Quit shortcut), `quit-event` (a Quit
event to the application: what the X session manager's "die" message and a dock's Quit do).
When the servers are ready it prints `READY <pid> <pid>...` (every descendant of this process).
"""

from __future__ import annotations

import os
import sys
from typing import Any

HOWS = ("close", "ctrl-q", "quit-event")


def main() -> int:
    how, argv = sys.argv[1], sys.argv[2:]
    assert how in HOWS, how
    from PySide6.QtCore import QCoreApplication, QEvent, Qt, QTimer
    from PySide6.QtTest import QTest

    from app.ui.quitting import DeskApplication
    from tests.support.procs import descendants

    app = DeskApplication(["mcp-desk"])
    app.setApplicationName("MCP Desk")  # what run_gui would set too, before the window

    def window() -> Any:
        from app.ui.window import MainWindow

        return next((w for w in app.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()), None)

    def ready(w: Any) -> bool:
        rows = [w.server_model.server(n) for n in w.server_model.names()]
        return bool(rows) and all(r.state == "ready" for r in rows if r is not None and not r.disabled)

    def poll() -> None:
        w = window()
        if w is None or not ready(w):
            return
        if how == "ctrl-q" and app.activeWindow() is not w:  # a window shortcut needs it active
            w.activateWindow()
            return
        timer.stop()
        print("READY", *descendants(os.getpid()), flush=True)
        if how == "close":
            w.close()
        elif how == "ctrl-q":
            QTest.keyClick(w, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
        else:
            QCoreApplication.sendEvent(app, QEvent(QEvent.Type.Quit))

    timer = QTimer()
    timer.timeout.connect(poll)
    timer.start(50)
    from app.mcp.proctree import enable_subreaper
    from app.ui.main import run_gui

    enable_subreaper()  # as app/__main__.py does
    return run_gui(argv)


if __name__ == "__main__":
    sys.exit(main())
