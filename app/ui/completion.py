"""A server's suggestions in a line edit's popup as the person types (completion/complete).

Used for prompt arguments and resource-template variables. The question goes to the server a
moment after the last keystroke (debounced), never blocks typing, and only the answer to what is
typed now is shown: an answer that comes back after the person typed on is dropped. A server that
does not offer completions, or fails to answer, simply gives no suggestions.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QLineEdit

from app.ui.forms.completion import Suggestions

Fetch = Callable[[str], Awaitable[list[str]]]


def completion_ref(kind: str, name: str) -> dict[str, str]:
    """The `ref` of completion/complete for a prompt ("prompt") or a resource template ("template")."""
    if kind == "prompt":
        return {"type": "ref/prompt", "name": name}
    return {"type": "ref/resource", "uri": name}


def offers_completions(conn: Any) -> bool:
    """Whether a connection's server says it answers completion/complete (unknown: try)."""
    caps = getattr(conn, "capabilities", None)
    return not isinstance(caps, dict) or not caps or "completions" in caps


class ServerCompleter(Suggestions):
    """The form fields' suggestions (app/ui/forms/completion.py) for a line edit outside a form:
    `fetch(typed)` answers; entering an empty field asks too, so the person sees what they may
    type before typing."""

    def __init__(self, edit: QLineEdit, fetch: Fetch) -> None:
        async def ask(_field: str, typed: str) -> list[str]:
            return await fetch(typed)

        super().__init__(edit, "", ask, lambda: None)
        edit.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.line and event.type() == QEvent.Type.FocusIn and not self.line.text():
            self.timer.start()
        return False
