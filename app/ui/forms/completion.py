"""Suggestions as you type in a text field, from whoever set `FormWidget.set_completer(fn)` (a prompt's
arguments: the server's `completion/complete`).

`fn(field_name, typed)` is awaited on the running asyncio loop, never on the GUI's stack: the field keeps
taking keys while the answer travels. Typing is debounced (one question per pause, not per key), and
only the newest answer is shown: an answer to an older question, or to text that has changed since, is
dropped. A failing `fn` shows nothing (it is logged); the field works as before. The same class
serves fields outside a form (a resource template's variables: app/ui/completion.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from PySide6.QtCore import QObject, QStringListModel, Qt, QTimer, Signal, Slot
from PySide6.QtWidgets import QCompleter, QLineEdit

from app.ui.elide import cap_middle
from app.ui.safe_text import visible_line

logger = logging.getLogger(__name__)

Completer = Callable[[str, str], Awaitable[list[str]]]
"""`fn(field_name, typed) -> Awaitable[list[str]]`: suggestions for what was typed in that field."""

DEBOUNCE_MS = 250
"""A pause this long in typing asks for suggestions."""
MAX_SUGGESTIONS = 100
"""The protocol caps a completion at 100 values; a misbehaving `fn` is cut there too."""


class Suggestions(QObject):
    """Attached to one line edit: asks `completer` after each pause in typing, shows the answer in a
    popup (plain text: a `QCompleter` over a string list model), and puts the chosen one in the field.

    `on_chosen()` is called after the person picked a suggestion (the editor reports its edit).

    Signals:
        shown(values): an answer for the text as it is now arrived (maybe empty) and is offered.
    """

    shown = Signal(list)

    def __init__(
        self, line: QLineEdit, field_name: str, completer: Completer, on_chosen: Callable[[], None]
    ) -> None:
        super().__init__(line)
        self.line = line
        self.field_name = field_name
        self.completer = completer
        self.on_chosen = on_chosen
        self.asked = 0
        """How many questions were sent (tests; the newest is number `asked`)."""
        self._task: asyncio.Future[None] | None = None
        self.model = QStringListModel(self)
        self.popup = QCompleter(self.model, self)
        # The server already matched the suggestions to the text: show them as they came.
        self.popup.setCompletionMode(QCompleter.CompletionMode.UnfilteredPopupCompletion)
        self.popup.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.popup.setWidget(line)
        self.popup.activated.connect(self._on_activated)  # the text overload comes first
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(DEBOUNCE_MS)
        self.timer.timeout.connect(self._ask)
        line.textEdited.connect(self._on_text_edited)

    def set_completer(self, completer: Completer) -> None:
        self.completer = completer
        self.model.setStringList([])

    def suggestions(self) -> list[str]:
        return self.model.stringList()

    @Slot(str)
    def _on_text_edited(self, _text: str) -> None:
        self.timer.start()  # restarts: one question per pause in typing

    @Slot()
    def _ask(self) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            logger.debug("no running asyncio loop: no suggestions for %s", self.field_name)
            return
        if self._task is not None and not self._task.done():
            self._task.cancel()  # its answer would be dropped anyway
        self.asked += 1
        self._task = loop.create_task(self._answer(self.asked, self.line.text()))

    async def _answer(self, number: int, typed: str) -> None:
        try:
            found = await self.completer(self.field_name, typed)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the field must keep working whatever the completer does
            logger.info("no suggestions for %s: %r", self.field_name, exc)
            return
        try:
            if number != self.asked or self.line.text() != typed:
                return  # a newer question was asked, or the text changed: this answer is stale
            # Suggestions are plain text (a model, never a rich label); what was typed is not one.
            # A server's words: invisible characters shown, a huge value cut in the middle.
            values = [visible_line(cap_middle(str(v), 200)) for v in (found or []) if str(v) != typed]
            values = values[:MAX_SUGGESTIONS]
            self.model.setStringList(values)
            if values and self.line.hasFocus():
                self.popup.complete()
            elif not values:
                self._hide_popup()
            self.shown.emit(values)
        except RuntimeError:  # the form was closed while the answer travelled
            logger.debug("suggestions for %s arrived after the field was gone", self.field_name)

    @Slot(str)
    def _on_activated(self, text: str) -> None:
        if self.line.text() != text:
            self.line.setText(text)
        self.timer.stop()
        self.on_chosen()

    def stop(self) -> None:
        self.timer.stop()
        if self._task is not None and not self._task.done():
            self._task.cancel()
        with contextlib.suppress(RuntimeError):
            self._hide_popup()

    def _hide_popup(self) -> None:
        view = self.popup.popup()
        if view is not None:
            view.hide()
