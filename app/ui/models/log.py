"""The bottom dock's tables: server log lines and JSON-RPC traffic, both bounded in memory."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)

from app.ui.safe_text import plain_tooltip, visible, visible_json, visible_line

logger = logging.getLogger(__name__)

Index = QModelIndex | QPersistentModelIndex

# Syslog-style levels used by MCP `notifications/message`, plus our "stderr" lines at info.
LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]
# The words shown for them (the level names themselves stay the data: filters compare those).
_LEVEL_WORDS = {
    "debug": str(QT_TRANSLATE_NOOP("LogModel", "debug")),
    "info": str(QT_TRANSLATE_NOOP("LogModel", "info")),
    "notice": str(QT_TRANSLATE_NOOP("LogModel", "notice")),
    "warning": str(QT_TRANSLATE_NOOP("LogModel", "warning")),
    "error": str(QT_TRANSLATE_NOOP("LogModel", "error")),
    "critical": str(QT_TRANSLATE_NOOP("LogModel", "critical")),
    "alert": str(QT_TRANSLATE_NOOP("LogModel", "alert")),
    "emergency": str(QT_TRANSLATE_NOOP("LogModel", "emergency")),
}


def level_text(level: str) -> str:
    """A level as shown (translated); an unknown level from a server as it came."""
    word = _LEVEL_WORDS.get(level.lower())
    return QCoreApplication.translate("LogModel", word) if word is not None else level


def level_rank(level: str) -> int:
    try:
        return LEVELS.index(level.lower())
    except ValueError:
        return 1


def clock(t: Any) -> str:
    """HH:MM:SS.mmm of a timestamp (or a datetime). datetime is imported on first use."""
    from datetime import datetime

    if t is None:
        return ""
    if isinstance(t, datetime):
        return t.strftime("%H:%M:%S.%f")[:-3]
    return datetime.fromtimestamp(t).strftime("%H:%M:%S.%f")[:-3]


SOURCE_WORDS = {
    "stderr": str(QT_TRANSLATE_NOOP("LogModel", "the program's error output")),
    "server": str(QT_TRANSLATE_NOOP("LogModel", "the server")),
    "client": str(QT_TRANSLATE_NOOP("LogModel", "MCP Desk")),
    "mcp-desk": str(QT_TRANSLATE_NOOP("LogModel", "MCP Desk")),
}
"""Where a line came from, for people; developer mode shows the engine's words (stderr, server,
client) as they are."""


def source_text(source: str) -> str:
    """The Source column's words for `source` ("stderr" → "the program's error output")."""
    from app.ui.developer_mode import developer_mode

    words = SOURCE_WORDS.get(source)
    if words is None or developer_mode().enabled():
        return source
    return QCoreApplication.translate("LogModel", words)


@dataclass
class LogRow:
    time: Any
    server: str
    level: str
    source: str
    text: str


class TrafficRow:
    """One message of the traffic log. Made from the engine's `Traffic` event (`of`), it keeps the
    event and takes the message from it when the row is first shown or copied: the event puts the
    SDK's message in wire form only then, so a traffic log nobody looks at (the dock is hidden by
    default) costs no dump per message."""

    __slots__ = ("_event", "_message", "direction", "server", "time")

    def __init__(
        self,
        time: Any,
        server: str,
        direction: str,
        message: dict[str, Any] | None = None,
        *,
        event: Any = None,
    ) -> None:
        self.time = time
        self.server = server
        self.direction = direction  # "out" | "in"
        self._message = message
        self._event = event

    @classmethod
    def of(cls, event: Any) -> TrafficRow:
        return cls(event.time, event.server, event.direction, event=event)

    @property
    def message(self) -> dict[str, Any]:
        message = self._message
        if message is None:
            message = self._message = self._event.message
            self._event = None
        return message

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TrafficRow):
            return NotImplemented
        return (self.time, self.server, self.direction, self.message) == (
            other.time,
            other.server,
            other.direction,
            other.message,
        )

    __hash__ = None  # type: ignore[assignment]  # mutable, as the dataclass it replaces

    def __repr__(self) -> str:
        return f"TrafficRow({self.time!r}, {self.server!r}, {self.direction!r}, {self.message!r})"

    def summary(self) -> str:
        m = self.message
        if "method" in m:
            s = str(m["method"])
            return f"{s} #{m['id']}" if "id" in m else s
        if "error" in m:
            err = m["error"]
            text = err.get("message", "") if isinstance(err, dict) else ""
            return f"error #{m.get('id')}: {text}"
        if "result" in m:
            return f"result #{m.get('id')}"
        return json.dumps(m)[:80]

    def as_json(self) -> str:
        """The message as sent (invisible characters as JSON escapes: the same value, visibly)."""
        return visible_json(self.message, indent=2)


class _BoundedTable(QAbstractTableModel):
    HEADERS: tuple[str, ...] = ()  # marked with QT_TRANSLATE_NOOP under the class's name
    CONTEXT = "LogModel"
    RowRole = Qt.ItemDataRole.UserRole + 1
    ServerRole = Qt.ItemDataRole.UserRole + 2

    def __init__(self, limit: int = 5000, parent: Any = None) -> None:
        super().__init__(parent)
        self.limit = limit
        self._rows: list[Any] = []

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        horizontal = orientation == Qt.Orientation.Horizontal
        if role == Qt.ItemDataRole.DisplayRole and horizontal and 0 <= section < len(self.HEADERS):
            return QCoreApplication.translate(self.CONTEXT, self.HEADERS[section])
        return None

    def append(self, row: Any) -> None:
        if len(self._rows) >= self.limit:
            drop = max(1, self.limit // 10)  # drop in chunks: one remove per many appends
            self.beginRemoveRows(QModelIndex(), 0, drop - 1)
            del self._rows[:drop]
            self.endRemoveRows()
        n = len(self._rows)
        self.beginInsertRows(QModelIndex(), n, n)
        self._rows.append(row)
        self.endInsertRows()

    def clear(self) -> None:
        self.beginResetModel()
        self._rows.clear()
        self.endResetModel()

    def row(self, i: int) -> Any:
        return self._rows[i]

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        r = self._rows[index.row()]
        if role == self.RowRole:
            return r
        if role == self.ServerRole:
            return r.server
        return self._row_data(r, index.column(), role)

    def _row_data(self, r: Any, col: int, role: int) -> Any:
        """What a table shows for `role` in column `col` of row `r` (row and server roles are done)."""
        return None


class LogModel(_BoundedTable):
    HEADERS = (
        str(QT_TRANSLATE_NOOP("LogModel", "Time")),
        str(QT_TRANSLATE_NOOP("LogModel", "Server")),
        str(QT_TRANSLATE_NOOP("LogModel", "Level")),
        str(QT_TRANSLATE_NOOP("LogModel", "Source")),
        str(QT_TRANSLATE_NOOP("LogModel", "Message")),
    )
    LevelRankRole = Qt.ItemDataRole.UserRole + 3
    SOURCE_COLUMN = 3

    def __init__(self, limit: int = 5000, parent: Any = None) -> None:
        super().__init__(limit, parent)
        from app.ui.developer_mode import developer_mode

        developer_mode().changed.connect(self._source_words_changed)

    def _source_words_changed(self, _on: bool) -> None:
        if self._rows:
            top = self.index(0, self.SOURCE_COLUMN)
            bottom = self.index(len(self._rows) - 1, self.SOURCE_COLUMN)
            self.dataChanged.emit(top, bottom, [Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole])

    def _row_data(self, r: LogRow, col: int, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(r, col)
        if role == Qt.ItemDataRole.ToolTipRole:
            text = self._text(r, col)
            return plain_tooltip(r.text if col == 4 else text) if text else None
        if role == self.LevelRankRole:
            return level_rank(r.level)
        return None

    @staticmethod
    def _text(r: LogRow, col: int) -> str | None:
        """A cell's text: the server's words with invisible characters shown."""
        if col == 0:
            return clock(r.time)
        if col == 4:
            return visible(r.text)
        if col == 1:
            return visible_line(r.server)
        if col == 2:
            return visible_line(level_text(r.level))
        if col == 3:
            return visible_line(source_text(r.source))
        return None


class TrafficModel(_BoundedTable):
    CONTEXT = "TrafficModel"
    HEADERS = (
        str(QT_TRANSLATE_NOOP("TrafficModel", "Time")),
        str(QT_TRANSLATE_NOOP("TrafficModel", "Server")),
        str(QT_TRANSLATE_NOOP("TrafficModel", "Dir")),
        str(QT_TRANSLATE_NOOP("TrafficModel", "Message")),
    )

    def _row_data(self, r: TrafficRow, col: int, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            if col == 0:
                return clock(r.time)
            if col == 1:
                return visible_line(r.server)
            if col == 2:
                return "→" if r.direction == "out" else "←"
            if col == 3:
                return visible_line(r.summary())
            return None
        if role == Qt.ItemDataRole.ToolTipRole and col == 2:
            if r.direction == "out":
                return QCoreApplication.translate("TrafficModel", "sent to the server")
            return QCoreApplication.translate("TrafficModel", "received from the server")
        return None


class ServerLevelFilter(QSortFilterProxyModel):
    """Filters log/traffic rows by server (None = all) and, for the log, by minimum level."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._server: str | None = None
        self._min_rank = 0

    def set_server(self, server: str | None) -> None:
        self._server = server
        self._refilter()

    def set_min_level(self, level: str) -> None:
        self._min_rank = level_rank(level)
        self._refilter()

    def _refilter(self) -> None:
        self.beginFilterChange()
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, source_row: int, source_parent: Index) -> bool:
        src = self.sourceModel()
        idx = src.index(source_row, 0, source_parent)
        if self._server is not None and src.data(idx, _BoundedTable.ServerRole) != self._server:
            return False
        if self._min_rank and isinstance(src, LogModel):
            rank = src.data(idx, LogModel.LevelRankRole)
            return rank is None or rank >= self._min_rank
        return True
