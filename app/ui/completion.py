"""A server's suggestions in a line edit's popup as the person types (completion/complete).

Used for prompt arguments and resource-template variables. The question goes to the server a
moment after the last keystroke (debounced), never blocks typing, and only the answer to what is
typed now is shown: an answer that comes back after the person typed on is dropped. A server that
does not offer completions, or fails to answer, simply gives no suggestions.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from PySide6.QtCore import QEvent, QObject, QStringListModel, Qt, QTimer, Signal, Slot
from PySide6.QtWidgets import QCompleter, QLineEdit

from app.ui.elide import cap_middle
from app.ui.safe_text import visible_line

logger = logging.getLogger(__name__)

Fetch = Callable[[str], Awaitable[list[str]]]

MAX_SUGGESTIONS = 100  # the protocol allows 100 values per answer


def completion_ref(kind: str, name: str) -> dict[str, str]:
    """The `ref` of completion/complete for a prompt ("prompt") or a resource template ("template")."""
    if kind == "prompt":
        return {"type": "ref/prompt", "name": name}
    return {"type": "ref/resource", "uri": name}


def offers_completions(conn: Any) -> bool:
    """Whether a connection's server says it answers completion/complete (unknown: try)."""
    caps = getattr(conn, "capabilities", None)
    return not isinstance(caps, dict) or not caps or "completions" in caps


class ServerCompleter(QObject):
    """Feeds a QCompleter on `edit` with what `fetch(typed)` answers.

    Signals:
        suggested(values): an answer for the text as it is now arrived and is offered.
    """

    suggested = Signal(list)

    DELAY_MS = 250

    def __init__(self, edit: QLineEdit, fetch: Fetch) -> None:
        super().__init__(edit)
        self.edit = edit
        self.fetch = fetch
        self.model = QStringListModel(self)
        self.completer = QCompleter(self.model, self)
        self.completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.completer.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
        self.completer.setMaxVisibleItems(12)
        edit.setCompleter(self.completer)
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(self.DELAY_MS)
        self.timer.timeout.connect(self.ask)
        edit.textEdited.connect(self._typed)
        edit.installEventFilter(self)
        self._asked = 0  # numbers the questions: only the newest one's answer is shown
        self._task: asyncio.Task[None] | None = None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # Entering an empty field asks too: the person sees what they may type before typing.
        if watched is self.edit and event.type() == QEvent.Type.FocusIn and not self.edit.text():
            self.timer.start()
        return False

    @Slot(str)
    def _typed(self, _text: str) -> None:
        self.timer.start()  # restarted by every keystroke: one question after the last

    @Slot()
    def ask(self) -> None:
        """Ask the server now about what is typed."""
        self._asked += 1
        if self._task is not None and not self._task.done():
            self._task.cancel()  # its answer would be stale anyway
        try:
            self._task = asyncio.ensure_future(self._ask(self._asked, self.edit.text()))
        except RuntimeError:  # no event loop (a panel used without the app): no suggestions
            logger.debug("no event loop for completions")

    async def _ask(self, number: int, typed: str) -> None:
        try:
            values = await self.fetch(typed)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the server's trouble: no suggestions, typing goes on
            logger.info("completion failed: %s", cap_middle(str(exc), 200))
            return
        with contextlib.suppress(RuntimeError):  # the field went away meanwhile
            if number != self._asked or self.edit.text() != typed:
                return  # the person typed on: a newer question is (or will be) asked
            shown = [visible_line(cap_middle(str(v), 200)) for v in list(values)[:MAX_SUGGESTIONS]]
            self.model.setStringList(shown)
            if shown and self.edit.hasFocus():
                self.completer.setCompletionPrefix(typed)
                self.completer.complete()
            self.suggested.emit(shown)

    def suggestions(self) -> list[str]:
        return self.model.stringList()
