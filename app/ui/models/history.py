"""Per-server call history: every tool call with its arguments and result (or failure), and the
drafts: what a person typed into a tool's form and has not run yet.

A draft is a row of its own ("draft, not run yet") rather than a mark on the tool's last run: a
tool that was never run has no run to carry the mark, and a person reads one row per thing they
did — ran it, or typed and left. The row is there only while the typed arguments differ from what
the tool last ran with (or from the untouched form); running the tool replaces it by the run.
Everything here lives in memory for the session: nothing is written to disk.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QAbstractListModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    Slot,
)

from app.ui.elide import cap_middle
from app.ui.models.log import clock
from app.ui.safe_text import visible_line

Index = QModelIndex | QPersistentModelIndex

# What a row says about its call: the outcome code (tests and code compare these) → shown text.
OUTCOME_TEXT = {
    "ok": str(QT_TRANSLATE_NOOP("HistoryModel", "done")),
    "error": str(QT_TRANSLATE_NOOP("HistoryModel", "the tool reported a problem")),
    "failed": str(QT_TRANSLATE_NOOP("HistoryModel", "failed")),
    "cancelled": str(QT_TRANSLATE_NOOP("HistoryModel", "cancelled")),
    "running": str(QT_TRANSLATE_NOOP("HistoryModel", "running…")),
    "draft": str(QT_TRANSLATE_NOOP("HistoryModel", "draft, not run yet")),
}


def outcome_text(outcome: str) -> str:
    return QCoreApplication.translate("HistoryModel", OUTCOME_TEXT.get(outcome, outcome))


@dataclass
class HistoryEntry:
    server: str
    tool: str
    arguments: dict[str, Any]
    result: Any = None  # the engine's ToolCallResult
    failure: str | None = None  # a failed call (protocol error, timeout)
    started: float = field(default_factory=time.time)
    cancelled: bool = False  # the person cancelled it: neither an answer nor a failure
    draft: bool = False  # typed into the form, not run (arguments: what was typed)

    def mark_cancelled(self) -> None:
        self.cancelled = True
        self.failure = None

    def outcome(self) -> str:
        if self.draft:
            return "draft"
        if self.cancelled:
            return "cancelled"
        if self.failure is not None:
            return "failed"
        if self.result is None:
            return "running"
        return "error" if getattr(self.result, "is_error", False) else "ok"


def _same(a: Any, b: Any) -> bool:
    from app.forms.values import json_equal

    return bool(json_equal(a, b))


class HistoryModel(QAbstractListModel):
    """Newest first; holds every server's calls (and drafts), the view filters to one server."""

    EntryRole = Qt.ItemDataRole.UserRole + 1
    ServerRole = Qt.ItemDataRole.UserRole + 2
    ToolRole = Qt.ItemDataRole.UserRole + 3

    def __init__(self, limit: int = 500, parent: Any = None) -> None:
        super().__init__(parent)
        self.limit = limit
        self._rows: list[HistoryEntry] = []

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        e = self._rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            shown = f"{clock(e.started)}  {e.server}/{cap_middle(e.tool)}  [{outcome_text(e.outcome())}]"
            return visible_line(shown)
        if role == Qt.ItemDataRole.ToolTipRole and e.draft:
            return QCoreApplication.translate(
                "HistoryModel", "What you typed into this tool's form and have not run yet."
            )
        if role == self.EntryRole:
            return e
        if role == self.ServerRole:
            return e.server
        if role == self.ToolRole:
            return e.tool
        return None

    def add(self, entry: HistoryEntry) -> None:
        if not entry.draft:
            self._remove_draft(entry.server, entry.tool)  # the run takes the draft's place
        if len(self._rows) >= self.limit:
            last = len(self._rows) - 1
            self.beginRemoveRows(QModelIndex(), last, last)
            self._rows.pop()
            self.endRemoveRows()
        self.beginInsertRows(QModelIndex(), 0, 0)
        self._rows.insert(0, entry)
        self.endInsertRows()

    def entry_updated(self, entry: HistoryEntry) -> None:
        for i, e in enumerate(self._rows):
            if e is entry:
                idx = self.index(i, 0)
                self.dataChanged.emit(idx, idx)
                return

    def entries(self) -> list[HistoryEntry]:
        return list(self._rows)

    # --- drafts -------------------------------------------------------------------------------
    @Slot(str, str, object)
    def set_draft(self, server: str, tool: str, arguments: Any) -> None:
        """The person left `tool` with `arguments` typed (None: the form as it was untouched).

        A draft row is shown (newest, at the top) unless the arguments are those the tool last
        ran with, or the untouched form's."""
        self._remove_draft(server, tool)
        if arguments is None:
            return
        last = self.last_run(server, tool)
        if last is not None and _same(last.arguments, arguments):
            return
        args = arguments if isinstance(arguments, dict) else {}
        self.add(HistoryEntry(server, tool, args, draft=True))

    def draft(self, server: str, tool: str) -> HistoryEntry | None:
        for e in self._rows:
            if e.draft and e.server == server and e.tool == tool:
                return e
        return None

    def last_run(self, server: str, tool: str) -> HistoryEntry | None:
        for e in self._rows:
            if not e.draft and e.server == server and e.tool == tool:
                return e
        return None

    def _remove_draft(self, server: str, tool: str) -> None:
        for i, e in enumerate(self._rows):
            if e.draft and e.server == server and e.tool == tool:
                self.beginRemoveRows(QModelIndex(), i, i)
                del self._rows[i]
                self.endRemoveRows()
                return
