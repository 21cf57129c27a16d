"""Catalog lists (tools, resources, resource templates, prompts) of every connected server.

One model per kind holds the items of all servers, grouped by server; a `CatalogFilterModel`
shows either one server's items or all of them (then named `server/item`) and filters by the
search text. Updates are made in place (insert/remove/dataChanged), never by a reset, so the
views keep their selection when a server's list changes under them.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QByteArray,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
)

from app.ui.elide import cap_end, cap_middle
from app.ui.safe_text import plain_tooltip, visible_line

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
    # "server/key", computed once: the filter compares these by the ten thousand per keystroke,
    # and strings (unlike tuples) are not tracked by the garbage collector.
    uid: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.uid = f"{self.server}/{self.key}"

    @property
    def qualified(self) -> str:
        return self.uid

    @property
    def haystack(self) -> str:
        return f"{self.server}/{self.key}\n{self.title}\n{self.description}".casefold()


DISPLAY_CHARS = 120  # of a name or title in a list row


def first_line(text: str, limit: int = 160) -> str:
    # Only the start is looked at: a 5 MB description is not split into lines for a tooltip.
    head = text[: limit * 4].strip()
    return cap_end(head.splitlines()[0] if head else "", limit)


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
        # (server, key) -> row, so finding an item (selecting it, mapping an index) is one lookup
        # and not a scan of 50,000 rows; None after a change of the rows, rebuilt when next asked.
        self._row_of: dict[tuple[str, str], int] | None = {}
        self._qualified_display = False
        # Titles alone for people; "Title (name)" in developer mode (see item_data).
        from app.ui.developer_mode import developer_mode

        self._developer_mode = developer_mode().enabled()
        developer_mode().changed.connect(self.set_developer_mode)
        self.version = 0  # bumped before every change of rows or their text (filters cache by it)

    # --- Qt model API -------------------------------------------------------------------------
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        return self.item_data(self._rows[index.row()], role)

    def item_data(self, item: CatalogItem, role: int) -> Any:
        """data() for one item (the filter model shows the same items through this)."""
        if role == Qt.ItemDataRole.DisplayRole:
            # Capped before Qt measures it (the view elides the rest in the middle): a server's
            # 100 KB name would otherwise be laid out whole for every paint of its row.
            key = cap_middle(item.key, DISPLAY_CHARS)
            server = cap_middle(item.server, DISPLAY_CHARS)
            label = f"{server}/{key}" if self._qualified_display else key
            if item.title and item.title != item.key:
                title = cap_middle(item.title, DISPLAY_CHARS)
                if self._developer_mode:  # the id after the title, for those who need it
                    return visible_line(f"{title} ({label})")
                # People read the title; across servers, the server says whose it is.
                return visible_line(f"{title} ({server})" if self._qualified_display else title)
            return visible_line(label)
        if role == Qt.ItemDataRole.ToolTipRole:
            # Escaped: a tooltip that looks like HTML would otherwise be rendered as HTML. The
            # name (id) is in the tooltip when the title stands for it.
            text = first_line(item.description, 400)
            if item.title and item.title != item.key:
                text = (
                    f"{text}\n\n{cap_middle(item.qualified, 400)}"
                    if text
                    else cap_middle(item.qualified, 400)
                )
            return plain_tooltip(text or cap_middle(item.key, 400))
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

    def roleNames(self) -> dict[int, QByteArray]:
        names = dict(super().roleNames())
        names.update(
            {
                self.KeyRole: QByteArray(b"key"),
                self.ServerRole: QByteArray(b"server"),
                self.QualifiedNameRole: QByteArray(b"qualifiedName"),
                self.TitleRole: QByteArray(b"title"),
                self.DescriptionRole: QByteArray(b"description"),
                self.ItemRole: QByteArray(b"item"),
            }
        )
        return names

    # --- our API ------------------------------------------------------------------------------
    def item(self, row: int) -> CatalogItem:
        return self._rows[row]

    def items(self) -> list[CatalogItem]:
        return self._rows

    def haystack(self, row: int) -> str:
        return self._haystacks[row]

    def find(self, server: str, key: str) -> int:
        if self._row_of is None:
            self._row_of = {(it.server, it.key): row for row, it in enumerate(self._rows)}
        return self._row_of.get((server, key), -1)

    def items_of(self, server: str) -> list[CatalogItem]:
        return [it for it in self._rows if it.server == server]

    def set_developer_mode(self, on: bool) -> None:
        """Show ids after titles (developer mode) or titles alone."""
        if on != self._developer_mode:
            self._developer_mode = on
            if self._rows:
                self.dataChanged.emit(
                    self.index(0, 0), self.index(len(self._rows) - 1, 0), [Qt.ItemDataRole.DisplayRole]
                )

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
        self.version += 1
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
                while (
                    i - 1 >= 0
                    and self._rows[i - 1].server == server
                    and self._rows[i - 1].key not in new_by_key
                ):
                    i -= 1
                removed.extend(r.key for r in self._rows[i : end + 1])
                self.beginRemoveRows(QModelIndex(), i, end)
                del self._rows[i : end + 1]
                del self._haystacks[i : end + 1]
                self._row_of = None
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
            if (fresh.title, fresh.description, _raw(fresh.obj)) != (
                old.title,
                old.description,
                _raw(old.obj),
            ):
                changed.append(key)
            self._rows[row] = fresh
            self._haystacks[row] = fresh.haystack
        if existing:
            # One signal for the server's rows (they are contiguous), not one per row: each makes
            # every filter model recompute, and a re-listed 50,000-tool server has 50,000 rows.
            rows = existing.values()
            self.dataChanged.emit(self.index(min(rows), 0), self.index(max(rows), 0))
        # 3. additions, after the server's last row (or at the end), in one insert.
        fresh_items = [it for it in new if it.key not in existing]
        if fresh_items:
            last = max(existing.values(), default=-1)
            pos = last + 1 if last >= 0 else len(self._rows)
            self.beginInsertRows(QModelIndex(), pos, pos + len(fresh_items) - 1)
            self._rows[pos:pos] = fresh_items
            self._haystacks[pos:pos] = [it.haystack for it in fresh_items]
            self._row_of = None
            self.endInsertRows()
            added.extend(it.key for it in fresh_items)
        self.version += 1
        return added, removed, changed

    def accept_mask(self, server: str | None, words: list[str]) -> list[bool]:
        """Which rows match, computed in one pass over plain lists (no Qt calls per row)."""
        hays = self._haystacks
        mask = [True] * len(hays) if server is None else [it.server == server for it in self._rows]
        for w in words:  # one list comprehension per word: no generator per row
            mask = [m and w in h for m, h in zip(mask, hays, strict=True)]
        return mask

    def clear_server(self, server: str) -> None:
        self.set_items(server, [])


def _raw(obj: Any) -> Any:
    """What identifies an item's content for change detection (the engine's raw dict if any)."""
    raw = getattr(obj, "raw", None)
    return raw if raw is not None else obj


class CatalogFilterModel(QAbstractListModel):
    """The rows a catalog list shows: one server's items (or all servers') matching the search.

    Why not a QSortFilterProxyModel: it asks `filterAcceptsRow` once per source row, a Python call
    of about 3 µs through the bindings, so 30-40 ms per keystroke on a 10,000-tool server. Here the
    match is computed for all items at once in Python (a few ms), and the change is applied as a
    few contiguous remove/insert runs (or a reset when the change is scattered, the current item
    restored by the view's owner). Rows hold the source's CatalogItem objects, so the view never
    needs to map indexes back through the source.
    """

    MAX_RUNS = 64  # more runs than this and one reset is cheaper than many small updates

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._server: str | None = None
        self._all_servers = False
        self._words: list[str] = []
        self._src: CatalogModel | None = None
        self._visible: list[CatalogItem] = []
        # id(item) -> row of `_visible`, for mapFromSource; None after a change, rebuilt when asked.
        self._row_of: dict[int, int] | None = None

    # --- source -------------------------------------------------------------------------------
    def setSourceModel(self, model: CatalogModel) -> None:
        if self._src is not None:
            for sig in (
                self._src.rowsInserted,
                self._src.rowsRemoved,
                self._src.dataChanged,
                self._src.modelReset,
                self._src.rowsMoved,
            ):
                sig.disconnect(self._source_changed)
        self._src = model
        for sig in (
            model.rowsInserted,
            model.rowsRemoved,
            model.dataChanged,
            model.modelReset,
            model.rowsMoved,
        ):
            sig.connect(self._source_changed)
        self._update()

    def sourceModel(self) -> CatalogModel | None:
        return self._src

    def _source_changed(self, *args: Any) -> None:
        self._update()
        roles = args[2] if len(args) == 3 and isinstance(args[2], list) else None
        if roles == [Qt.ItemDataRole.DisplayRole] and self._visible:
            # Every row's text changed (developer mode, server names): the rows stay, repaint them.
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._visible) - 1, 0))

    # --- Qt model API -------------------------------------------------------------------------
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self._visible)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if self._src is None or not index.isValid() or not 0 <= index.row() < len(self._visible):
            return None
        return self._src.item_data(self._visible[index.row()], role)

    def roleNames(self) -> dict[int, QByteArray]:
        return self._src.roleNames() if self._src is not None else super().roleNames()

    def mapFromSource(self, source_index: Index) -> QModelIndex:
        if self._src is None or not source_index.isValid():
            return QModelIndex()
        item = self._src.item(source_index.row())
        if self._row_of is None:
            self._row_of = {id(it): row for row, it in enumerate(self._visible)}
        row = self._row_of.get(id(item), -1)
        # The id is only trusted for the very object (ids of dropped items can be reused).
        return self.index(row, 0) if row >= 0 and self._visible[row] is item else QModelIndex()

    def mapToSource(self, index: Index) -> QModelIndex:
        if self._src is None or not index.isValid():
            return QModelIndex()
        it = self._visible[index.row()]
        return self._src.index(self._src.find(it.server, it.key), 0)

    # --- scope and search ---------------------------------------------------------------------
    def set_server(self, server: str | None) -> None:
        if server != self._server:
            self._server = server
            self._update()

    def set_all_servers(self, on: bool) -> None:
        if on != self._all_servers:
            self._all_servers = on
            if self._src is not None:
                self._src.set_qualified_display(on)
            self._update()
            if self._visible:
                self.dataChanged.emit(self.index(0, 0), self.index(len(self._visible) - 1, 0))

    def all_servers(self) -> bool:
        return self._all_servers

    def set_search(self, text: str) -> None:
        words = text.casefold().split()
        if words != self._words:
            self._words = words
            self._update()

    # --- applying a change --------------------------------------------------------------------
    def _update(self) -> None:
        if self._src is None:
            return
        mask = self._src.accept_mask(None if self._all_servers else (self._server or ""), self._words)
        new = [it for it, ok in zip(self._src.items(), mask, strict=True) if ok]
        self._apply(new)

    def _apply(self, new: list[CatalogItem]) -> None:
        old = self._visible
        if len(old) == len(new) and all(a is b for a, b in zip(old, new, strict=True)):
            return
        if not old or not new:
            # A server's first listing (or its going away): one insert or one removal, without
            # the key sets a diff needs (a quarter of a second for 50,000 tools).
            if old:
                self.beginRemoveRows(QModelIndex(), 0, len(old) - 1)
                self._visible = []
                self._row_of = None
                self.endRemoveRows()
            else:
                self.beginInsertRows(QModelIndex(), 0, len(new) - 1)
                self._visible = list(new)
                self._row_of = None
                self.endInsertRows()
            return
        key = _item_key
        new_keys = {key(it) for it in new}
        old_keys = {key(it) for it in old}
        removals: list[tuple[int, int]] = []
        i = len(old) - 1
        while i >= 0:
            if key(old[i]) not in new_keys:
                j = i
                while j - 1 >= 0 and key(old[j - 1]) not in new_keys:
                    j -= 1
                removals.append((j, i))
                i = j - 1
            else:
                i -= 1
        inserts: list[tuple[int, int]] = []
        i = 0
        while i < len(new):
            if key(new[i]) not in old_keys:
                j = i
                while j + 1 < len(new) and key(new[j + 1]) not in old_keys:
                    j += 1
                inserts.append((i, j))
                i = j + 1
            else:
                i += 1
        kept_old = [it for it in old if key(it) in new_keys]
        kept_new = [it for it in new if key(it) in old_keys]
        order_kept = [key(it) for it in kept_old] == [key(it) for it in kept_new]
        if not order_kept or len(removals) + len(inserts) > self.MAX_RUNS:
            self.beginResetModel()
            self._visible = new
            self._row_of = None
            self.endResetModel()
            return
        for a, b in removals:  # bottom-up, so earlier positions stay valid
            self.beginRemoveRows(QModelIndex(), a, b)
            del self._visible[a : b + 1]
            self._row_of = None
            self.endRemoveRows()
        for a, b in inserts:  # top-down: everything before position a is already in place
            self.beginInsertRows(QModelIndex(), a, b)
            self._visible[a:a] = new[a : b + 1]
            self._row_of = None
            self.endInsertRows()
        # Items kept but replaced by a fresh object (changed description or schema).
        for row, (cur, fresh) in enumerate(zip(self._visible, new, strict=True)):
            if cur is not fresh:
                self._visible[row] = fresh
                self._row_of = None
                idx = self.index(row, 0)
                self.dataChanged.emit(idx, idx)


def _item_key(it: CatalogItem) -> str:
    return it.uid
