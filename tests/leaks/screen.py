"""Every text a window shows: widgets' texts and tooltips, and every cell of every item view.

Used by the leak test to search "the screen": a walk over the widget tree rather than a list of
panes, so a pane added later is searched without anyone remembering to.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QComboBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QTextEdit,
    QWidget,
)

ROLES = (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.StatusTipRole)


def _count(call: Any, parent: QModelIndex) -> int:
    # A list model's columnCount (and a flat model's child count) is private in PySide6.
    try:
        return int(call(parent))
    except TypeError:
        return 0


def model_texts(model: QAbstractItemModel, parent: QModelIndex | None = None) -> Iterator[str]:
    parent = parent or QModelIndex()
    for row in range(_count(model.rowCount, parent)):
        for col in range(max(1, _count(model.columnCount, parent))):
            index = model.index(row, col, parent)
            for role in ROLES:
                value = model.data(index, role)
                if value is not None:
                    yield str(value)
            if col == 0 and index.isValid() and _count(model.rowCount, index) > 0:
                yield from model_texts(model, index)


def widget_texts(root: QWidget) -> Iterator[tuple[str, str]]:
    """(where, text) for `root` and every widget under it."""
    for w in [root, *root.findChildren(QWidget)]:
        where = f"{type(w).__name__}({w.objectName() or w.accessibleName() or '-'})"
        parts = [w.windowTitle(), w.toolTip(), w.statusTip(), w.whatsThis(), w.accessibleDescription()]
        if isinstance(w, QLabel | QAbstractButton):
            parts.append(w.text())
        if isinstance(w, QLineEdit):
            parts += [w.text(), w.placeholderText()]
        if isinstance(w, QPlainTextEdit | QTextEdit):
            parts.append(w.toPlainText())
        if isinstance(w, QComboBox):
            parts += [w.itemText(i) for i in range(w.count())]
        if isinstance(w, QAbstractItemView) and w.model() is not None:
            parts += list(model_texts(w.model()))
        text = "\n".join(p for p in parts if p)
        if text:
            yield where, text


def all_text(root: Any) -> str:
    return "\n".join(t for _, t in widget_texts(root))
