"""A tool's result data (structuredContent) shown so a person can read it.

A list of flat records becomes a table, an object a list of labelled values (its nested lists and
objects as sections of their own), a list of plain values one line each; what is nested deeper
than `MAX_DEPTH` is an expandable tree. Keys and values are the server's text: shown literally
(invisible characters made visible) and capped, so a hostile answer cannot widen or freeze the
window. The raw JSON stays one switch away (developer mode, in the result view).
"""

from __future__ import annotations

import re
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFormLayout,
    QHeaderView,
    QLabel,
    QSizePolicy,
    QTableWidget,
    QTableWidgetItem,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.ui.elide import cap_end, cap_middle, json_preview
from app.ui.safe_text import plain_label, plain_tooltip, visible_line

MAX_ROWS = 500  # of a table; the rest is counted, and in the raw JSON
MAX_COLUMNS = 40
MAX_ENTRIES = 200  # labelled values of one object
MAX_DEPTH = 3  # sections inside sections; deeper parts are a tree
CELL_CHARS = 300


def is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def is_records(value: Any) -> bool:
    """A non-empty list of objects whose values are all plain: a table reads it best."""
    if not isinstance(value, list) or not value:
        return False
    keys: set[str] = set()
    for row in value[:MAX_ROWS]:
        if not isinstance(row, dict) or not all(is_scalar(v) for v in row.values()):
            return False
        keys.update(str(k) for k in row)
        if len(keys) > MAX_COLUMNS:
            return False
    return bool(keys)


def label_for(key: str) -> str:
    """A key as a person reads it: "humidity_percent" → "Humidity percent", "firstName" →
    "First name". Only the look changes; the key itself is in the tooltip."""
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", key).replace("_", " ").replace("-", " ").split()
    if not words:
        return key
    text = " ".join(w if w.isupper() and len(w) > 1 else w.lower() for w in words)
    return text[:1].upper() + text[1:]


def scalar_text(value: Any) -> str:
    """A plain value in words: yes/no, "not set" for null, numbers as they are."""
    if value is None:
        return QCoreApplication.translate("ResultData", "not set")
    if value is True:
        return QCoreApplication.translate("ResultData", "yes")
    if value is False:
        return QCoreApplication.translate("ResultData", "no")
    if isinstance(value, float):
        return f"{value:g}"
    return cap_end(visible_line(str(value)), CELL_CHARS)


def records_columns(rows: list[dict[str, Any]]) -> list[str]:
    columns: list[str] = []
    for row in rows[:MAX_ROWS]:
        for k in row:
            if str(k) not in columns:
                columns.append(str(k))
    return columns[:MAX_COLUMNS]


class RecordTable(QTableWidget):
    """A list of flat records as a read-only table (at most MAX_ROWS rows)."""

    def __init__(self, rows: list[dict[str, Any]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        columns = records_columns(rows)
        shown = rows[:MAX_ROWS]
        self.setColumnCount(len(columns))
        self.setRowCount(len(shown))
        for c, key in enumerate(columns):
            head = QTableWidgetItem(cap_middle(visible_line(label_for(key)), 80))
            head.setToolTip(plain_tooltip(cap_middle(key, 200)))
            self.setHorizontalHeaderItem(c, head)
        for r, row in enumerate(shown):
            for c, key in enumerate(columns):
                item = QTableWidgetItem(scalar_text(row.get(key)) if key in row else "")
                if isinstance(row.get(key), int | float) and not isinstance(row.get(key), bool):
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.setItem(r, c, item)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setAlternatingRowColors(True)
        self.setWordWrap(False)
        self.verticalHeader().setVisible(False)
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        self.resizeColumnsToContents()
        for c in range(len(columns)):
            self.setColumnWidth(c, min(self.columnWidth(c), 320))
        # As tall as its rows, up to about twelve; more rows scroll inside the table.
        row_h = self.verticalHeader().defaultSectionSize()
        height = header.sizeHint().height() + row_h * min(len(shown), 12) + 2 * self.frameWidth() + 4
        if len(columns) > 1:
            height += self.horizontalScrollBar().sizeHint().height()
        self.setFixedHeight(height)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def cell_texts(self) -> list[list[str]]:
        """What each cell shows (for tests and copying)."""
        out = []
        for r in range(self.rowCount()):
            row = []
            for c in range(self.columnCount()):
                it = self.item(r, c)
                row.append(it.text() if it is not None else "")
            out.append(row)
        return out

    def header_texts(self) -> list[str]:
        return [
            (h.text() if (h := self.horizontalHeaderItem(c)) is not None else "")
            for c in range(self.columnCount())
        ]


class JsonTree(QTreeWidget):
    """A JSON value as an expandable tree (keys and values as plain text)."""

    def __init__(self, value: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setHeaderLabels([self.tr("Name"), self.tr("Value")])
        self.setColumnCount(2)
        self._add(self.invisibleRootItem(), value)
        self.expandToDepth(1)
        self.resizeColumnToContents(0)
        self.setMinimumHeight(160)

    def _add(self, parent: QTreeWidgetItem, value: Any) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                self._node(parent, visible_line(str(k)), v)
        elif isinstance(value, list):
            for i, v in enumerate(value):
                self._node(parent, f"[{i}]", v)
        else:
            self._node(parent, "", value)

    def _node(self, parent: QTreeWidgetItem, key: str, value: Any) -> None:
        if isinstance(value, dict | list):
            if isinstance(value, dict):
                summary = self.tr("%n entries", "", len(value))
            else:
                summary = self.tr("%n items", "", len(value))
            item = QTreeWidgetItem(parent, [cap_middle(key), summary])
            self._add(item, value)
        else:
            # A cell is one line: a long string is cut before Qt measures it to elide it.
            QTreeWidgetItem(parent, [cap_middle(key), cap_end(json_preview(value, indent=None), 1000)])


def _heading(text: str) -> QLabel:
    label = plain_label(text, wrap=False)
    font = label.font()
    font.setBold(True)
    label.setFont(font)
    return label


class DataView(QWidget):
    """Result data as tables, labelled values and sections (see the module's docstring)."""

    def __init__(self, value: Any, parent: QWidget | None = None, *, depth: int = 0) -> None:
        super().__init__(parent)
        self.setObjectName("resultData")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(6)
        self._lay = lay
        self._build(value, depth)

    def _build(self, value: Any, depth: int) -> None:
        lay = self._lay
        if is_records(value):
            lay.addWidget(RecordTable(value))
            if len(value) > MAX_ROWS:
                lay.addWidget(self._more(len(value) - MAX_ROWS))
        elif isinstance(value, list) and all(is_scalar(v) for v in value):
            if not value:
                lay.addWidget(plain_label(QCoreApplication.translate("ResultData", "(an empty list)")))
            for v in value[:MAX_ENTRIES]:
                lay.addWidget(plain_label("• " + scalar_text(v)))
            if len(value) > MAX_ENTRIES:
                lay.addWidget(self._more(len(value) - MAX_ENTRIES))
        elif isinstance(value, dict) and depth < MAX_DEPTH:
            self._object(value, depth)
        elif is_scalar(value):
            lay.addWidget(plain_label(scalar_text(value)))
        else:
            lay.addWidget(JsonTree(value))

    def _object(self, value: dict[str, Any], depth: int) -> None:
        lay = self._lay
        if not value:
            lay.addWidget(plain_label(QCoreApplication.translate("ResultData", "(no entries)")))
            return
        form = QFormLayout()
        form.setContentsMargins(0, 0, 0, 0)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        lay.addLayout(form)
        items = list(value.items())
        for key, v in items[:MAX_ENTRIES]:
            name = cap_middle(visible_line(label_for(str(key))), 80)
            if is_scalar(v):
                label = plain_label(name + ":", wrap=False)
                label.setToolTip(plain_tooltip(cap_middle(str(key), 200)))
                form.addRow(label, plain_label(scalar_text(v)))
            else:
                # A nested list or object: a section of its own, below the plain values.
                head = _heading(name)
                head.setToolTip(plain_tooltip(cap_middle(str(key), 200)))
                lay.addWidget(head)
                lay.addWidget(DataView(v, depth=depth + 1))
        if len(items) > MAX_ENTRIES:
            lay.addWidget(self._more(len(items) - MAX_ENTRIES))

    def _more(self, n: int) -> QLabel:
        label = plain_label(self.tr("…and %n more (all of it is in the raw answer).", "", n))
        label.setObjectName("dataMore")
        return label

    def tables(self) -> list[RecordTable]:
        return self.findChildren(RecordTable)
