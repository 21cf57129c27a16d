"""Every way of asking the app to quit, turned into one asyncio event, so the servers are stopped
in order (app/ui/main.py) before the event loop ends.

The ways: the window is closed (its close button, File > Quit, Ctrl+Q), Qt is asked to quit
(`QApplication.quit()`, which the X session manager's "die" message, a dock's Quit and the like
end in), and the signals a terminal or a logout sends (SIGINT, SIGTERM, SIGHUP).

Left to themselves, the window closing and `quit()` stop qasync's loop at once, while `_main`
is still stopping servers: "Event loop stopped before Future completed" and exit code 1, with
servers left to fend for themselves. So Qt is told not to quit by itself, the application's
Quit event is turned into a request (`DeskApplication`), and signals are handled on the loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QEvent
from PySide6.QtGui import QGuiApplication, QSessionManager
from PySide6.QtWidgets import QApplication

logger = logging.getLogger(__name__)

SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


class DeskApplication(QApplication):
    """QApplication whose Quit event (from `quit()`, a session's end, a dock menu) asks
    `quit_hook` instead of ending the event loop at once. Only the app object's own events pass
    through this override (an event filter on the app would see every event of every widget)."""

    quit_hook: Callable[[], None] | None = None

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Quit and self.quit_hook is not None:
            self.quit_hook()
            return True  # not yet: main.py ends the loop itself once the servers are stopped
        return bool(super().event(event))


class QuitRequests:
    """`requested` is set by whichever way asked first; `on_commit_data` runs at a session's
    "save your data" (the session may still be cancelled then, so nothing is stopped)."""

    def __init__(self, app: QCoreApplication) -> None:
        self.app = app
        self.requested = asyncio.Event()
        self.reason = ""
        self.on_commit_data: Callable[[], None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        if isinstance(app, QGuiApplication):  # (always, but for a core-only app in a tool)
            app.setQuitOnLastWindowClosed(False)  # we quit, once the servers are stopped
            app.lastWindowClosed.connect(lambda: self.request("the window was closed"))
            app.commitDataRequest.connect(self._commit_data)
        if isinstance(app, DeskApplication):
            app.quit_hook = lambda: self.request("the application was asked to quit")
        # Until the loop takes over (`attach`), a signal only has to be remembered.
        self._early: list[int] = []
        self._previous = {sig: signal.getsignal(sig) for sig in SIGNALS}
        for sig in SIGNALS:
            signal.signal(sig, lambda signum, _frame: self._early.append(signum))

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Handle the signals on `loop` (its wake-up fd makes Qt's event loop notice them)."""
        self._loop = loop
        for sig in SIGNALS:
            try:
                loop.add_signal_handler(sig, self.request, f"signal {signal.Signals(sig).name}")
            except (NotImplementedError, RuntimeError, ValueError):  # Windows: no such handlers
                signal.signal(sig, lambda signum, _frame: self.request(f"signal {signum}"))
        for signum in self._early:
            self.request(f"signal {signal.Signals(signum).name}")

    def detach(self) -> None:
        if isinstance(self.app, DeskApplication):
            self.app.quit_hook = None
        for sig in SIGNALS:
            if self._loop is not None:
                with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                    self._loop.remove_signal_handler(sig)
            previous = self._previous.get(sig)
            signal.signal(sig, previous if previous is not None else signal.SIG_DFL)

    def request(self, reason: str) -> None:
        if not self.requested.is_set():
            logger.info("quitting: %s", reason)
            self.reason = reason
            self.requested.set()

    def _commit_data(self, _manager: QSessionManager) -> None:
        if self.on_commit_data is not None:
            try:
                self.on_commit_data()
            except Exception:
                logger.exception("could not save the window state for the session manager")
