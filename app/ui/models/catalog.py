"""Catalog lists (tools, resources, resource templates, prompts) of every connected server.

One model per kind holds the items of all servers, grouped by server; a `CatalogFilterModel`
shows either one server's items or all of them (then named `server/item`) and filters by the
search text. Updates are made in place (insert/remove/dataChanged), never by a reset, so the
views keep their selection when a server's list changes under them.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)

from app.ui.safe_text import plain_tooltip

logger = logging.getLogger(__name__)

Index = QModelIndex | QPersistentModelIndex


@dataclass
class CatalogItem:
    """One tool/resource/template/prompt as the lists show it; `obj` is the engine's object."""

    server: str
    key: str  # unique within its server: a tool/prompt name, a resource URI, a template
    title: str
    description: str
    obj: Any = None

    @property
    def qualified(self) -> str:
        return f"{self.server}/{self.key}"

    @property
    def haystack(self) -> str:
        return f"{self.server}/{self.key}\n{self.title}\n{self.description}".casefold()


def first_line(text: str, limit: int = 160) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= limit else line[: limit - 1] + "…"


class CatalogModel(QAbstractListModel):
    """All servers' items of one kind."""

    KeyRole = Qt.ItemDataRole.UserRole + 1
    ServerRole = Qt.ItemDataRole.UserRole + 2
    QualifiedNameRole = Qt.ItemDataRole.UserRole + 3
    TitleRole = Qt.ItemDataRole.UserRole + 4
    DescriptionRole = Qt.ItemDataRole.UserRole + 5
    ItemRole = Qt.ItemDataRole.UserRole + 6

    def __init__(self, kind: str, parent: Any = None) -> None:
        super().__init__(parent)
        self.kind = kind
        self._rows: list[CatalogItem] = []
        self._haystacks: list[str] = []
        self._qualified_display = False

    # --- Qt model API -------------------------------------------------------------------------
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        item = self._rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            label = item.qualified if self._qualified_display else item.key
            if item.title and item.title != item.key:
                return f"{item.title} ({label})"
            return label
        if role == Qt.ItemDataRole.ToolTipRole:
            # Escaped: a tooltip that looks like HTML would otherwise be rendered as HTML.
            return plain_tooltip(first_line(item.description, 400) or item.key)
        if role == self.KeyRole:
            return item.key
        if role == self.ServerRole:
            return item.server
        if role == self.QualifiedNameRole:
            return item.qualified
        if role == self.TitleRole:
            return item.title
        if role == self.DescriptionRole:
            return item.description
        if role == self.ItemRole:
            return item
        return None

    def roleNames(self) -> dict[int, bytes]:
        names = dict(super().roleNames())
        names.update(
            {
                self.KeyRole: b"key",
                self.ServerRole: b"server",
                self.QualifiedNameRole: b"qualifiedName",
                self.TitleRole: b"title",
                self.DescriptionRole: b"description",
                self.ItemRole: b"item",
            }
        )
        return names

    # --- our API ------------------------------------------------------------------------------
    def item(self, row: int) -> CatalogItem:
        return self._rows[row]

    def haystack(self, row: int) -> str:
        return self._haystacks[row]

    def find(self, server: str, key: str) -> int:
        for i, it in enumerate(self._rows):
            if it.server == server and it.key == key:
                return i
        return -1

    def items_of(self, server: str) -> list[CatalogItem]:
        return [it for it in self._rows if it.server == server]

    def set_qualified_display(self, on: bool) -> None:
        if on != self._qualified_display:
            self._qualified_display = on
            if self._rows:
                self.dataChanged.emit(
                    self.index(0, 0), self.index(len(self._rows) - 1, 0), [Qt.ItemDataRole.DisplayRole]
                )

    def set_items(self, server: str, items: Iterable[CatalogItem]) -> tuple[list[str], list[str], list[str]]:
        """Replace `server`'s items in place; returns (added, removed, changed) keys."""
        new = list(items)
        new_by_key = {it.key: it for it in new}
        added: list[str] = []
        removed: list[str] = []
        changed: list[str] = []
        # 1. removals, bottom-up, grouping contiguous runs into one remove.
        i = len(self._rows) - 1
        while i >= 0:
            it = self._rows[i]
            if it.server == server and it.key not in new_by_key:
                end = i
                while i - 1 >= 0 and self._rows[i - 1].server == server and self._rows[i - 1].key not in new_by_key:
                    i -= 1
                removed.extend(r.key for r in self._rows[i : end + 1])
                self.beginRemoveRows(QModelIndex(), i, end)
                del self._rows[i : end + 1]
                del self._haystacks[i : end + 1]
                self.endRemoveRows()
            i -= 1
        # 2. changes in place.
        existing: dict[str, int] = {}
        for row, it in enumerate(self._rows):
            if it.server == server:
                existing[it.key] = row
        for key, row in existing.items():
            fresh = new_by_key[key]
            old = self._rows[row]
            if (fresh.title, fresh.description, _raw(fresh.obj)) != (old.title, old.description, _raw(old.obj)):
                changed.append(key)
            self._rows[row] = fresh
            self._haystacks[row] = fresh.haystack
            idx = self.index(row, 0)
            self.dataChanged.emit(idx, idx)
        # 3. additions, after the server's last row (or at the end), in one insert.
        fresh_items = [it for it in new if it.key not in existing]
        if fresh_items:
            last = max(existing.values(), default=-1)
            pos = last + 1 if last >= 0 else len(self._rows)
            self.beginInsertRows(QModelIndex(), pos, pos + len(fresh_items) - 1)
            self._rows[pos:pos] = fresh_items
            self._haystacks[pos:pos] = [it.haystack for it in fresh_items]
            self.endInsertRows()
            added.extend(it.key for it in fresh_items)
        return added, removed, changed

    def clear_server(self, server: str) -> None:
        self.set_items(server, [])


def _raw(obj: Any) -> Any:
    """What identifies an item's content for change detection (the engine's raw dict if any)."""
    raw = getattr(obj, "raw", None)
    return raw if raw is not None else obj


class CatalogFilterModel(QSortFilterProxyModel):
    """Shows one server's items (or all servers') whose text contains every search word."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._server: str | None = None
        self._all_servers = False
        self._words: list[str] = []

    def set_server(self, server: str | None) -> None:
        if server != self._server:
            self._server = server
            self._refilter()

    def set_all_servers(self, on: bool) -> None:
        if on != self._all_servers:
            self._all_servers = on
            src = self.sourceModel()
            if isinstance(src, CatalogModel):
                src.set_qualified_display(on)
            self._refilter()

    def all_servers(self) -> bool:
        return self._all_servers

    def set_search(self, text: str) -> None:
        words = text.casefold().split()
        if words != self._words:
            self._words = words
            self._refilter()

    def _refilter(self) -> None:
        # invalidateRowsFilter (Qt >= 6.0) re-runs filterAcceptsRow only; no re-sort.
        self.beginFilterChange()
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, source_row: int, source_parent: Index) -> bool:
        src = self.sourceModel()
        assert isinstance(src, CatalogModel)
        if not self._all_servers and src.item(source_row).server != self._server:
            return False
        if not self._words:
            return True
        hay = src.haystack(source_row)
        return all(w in hay for w in self._words)
