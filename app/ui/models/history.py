"""Per-server call history: every tool call with its arguments and result (or failure)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt

from app.ui.elide import cap_middle
from app.ui.models.log import clock
from app.ui.safe_text import visible_line

Index = QModelIndex | QPersistentModelIndex


@dataclass
class HistoryEntry:
    server: str
    tool: str
    arguments: dict[str, Any]
    result: Any = None  # the engine's ToolCallResult
    failure: str | None = None  # a failed call (protocol error, timeout, cancelled)
    started: float = field(default_factory=time.time)

    def outcome(self) -> str:
        if self.failure is not None:
            return "failed"
        if self.result is None:
            return "running"
        return "error" if getattr(self.result, "is_error", False) else "ok"


class HistoryModel(QAbstractListModel):
    """Newest first; holds every server's calls, the view filters to one server."""

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
            return visible_line(f"{clock(e.started)}  {e.server}/{cap_middle(e.tool)}  [{e.outcome()}]")
        if role == self.EntryRole:
            return e
        if role == self.ServerRole:
            return e.server
        if role == self.ToolRole:
            return e.tool
        return None

    def add(self, entry: HistoryEntry) -> None:
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
