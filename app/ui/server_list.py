"""The left panel: configured servers with their state, and the actions on them."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QPoint, QRect, QSize, Qt, Signal, Slot
from PySide6.QtGui import QAction, QColor, QIcon, QKeySequence, QPainter, QPalette, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGridLayout,
    QListView,
    QMenu,
    QPushButton,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from app.ui.models.servers import NEEDS_SIGN_IN, ServerListModel

Index = QModelIndex | QPersistentModelIndex

ACTIONS = ("connect", "disconnect", "reconnect", "edit", "duplicate", "remove")
# Sign-in actions, offered only where they fit: "sign_in" on a server that needs it (it takes the
# Connect button's place), "cancel_sign_in" while the browser is open, "sign_out" when signed in.
SIGN_IN_ACTIONS = ("sign_in", "cancel_sign_in", "sign_out")
# In the context menu only, after Edit: a new name, and switching the server off or on (a
# disabled server is kept in the list but does not start).
MENU_ACTIONS = ("rename", "disable", "enable")
LABELS = {
    "rename": "Rename…",
    "disable": "Disable",
    "enable": "Enable",
    "sign_in": "Sign in",
    "cancel_sign_in": "Cancel sign-in",
    "sign_out": "Sign out",
    "connect": "Connect",
    "disconnect": "Disconnect",
    "reconnect": "Reconnect",
    "edit": "Edit…",
    "duplicate": "Duplicate",
    "remove": "Remove…",
}


class ServerDelegate(QStyledItemDelegate):
    # The background (selection, hover, focus) is drawn by the base class with the text and icon
    # blanked out; this avoids touching QStyle, whose enums cost ~18 ms to create at start-up.

    def initStyleOption(self, option: QStyleOptionViewItem, index: Index) -> None:
        super().initStyleOption(option, index)
        option.text = ""
        option.icon = QIcon()

    """Two lines per server: a coloured state dot and the name, then the status text."""

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        fm = option.fontMetrics
        return QSize(200, fm.height() * 2 + 14)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        painter.save()
        super().paint(painter, option, index)
        view = option.widget
        sel = view.selectionModel() if isinstance(view, QListView) else None
        selected = bool(sel is not None and sel.isSelected(index))
        pal: QPalette = option.palette
        text_colour = pal.color(QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text)
        r: QRect = option.rect.adjusted(8, 5, -6, -5)
        fm = option.fontMetrics
        colour: QColor = index.data(ServerListModel.StateColourRole)
        dot = 10
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(colour)
        painter.drawEllipse(r.left(), r.top() + (fm.height() - dot) // 2, dot, dot)
        icon = index.data(Qt.ItemDataRole.DecorationRole)
        x = r.left() + dot + 8
        if icon is not None and not icon.isNull():
            icon.paint(painter, QRect(x, r.top(), fm.height(), fm.height()))
            x += fm.height() + 4
        f = option.font
        f.setBold(True)
        painter.setFont(f)
        painter.setPen(text_colour)
        name = index.data(Qt.ItemDataRole.DisplayRole)  # invisible characters shown
        painter.drawText(
            QRect(x, r.top(), r.right() - x, fm.height()),
            Qt.AlignmentFlag.AlignVCenter,
            fm.elidedText(name, Qt.TextElideMode.ElideRight, r.right() - x),
        )
        f.setBold(False)
        painter.setFont(f)
        status = index.data(ServerListModel.StatusTextRole)
        painter.setPen(text_colour if selected else colour.darker(115))
        line2 = QRect(r.left() + dot + 8, r.top() + fm.height() + 3, r.width() - dot - 8, fm.height())
        painter.drawText(
            line2,
            Qt.AlignmentFlag.AlignVCenter,
            fm.elidedText(status, Qt.TextElideMode.ElideRight, line2.width()),
        )
        painter.restore()


class ServerPanel(QWidget):
    """The server list with Add/Import and per-server actions (buttons and a context menu).

    Signals:
        action_triggered(action, server): Connect/Disconnect/... was chosen for `server`.
        add_requested(): the person wants to add a server.
        selection_changed(server): another server was selected ('' when none).
    """

    action_triggered = Signal(str, str)
    add_requested = Signal()
    selection_changed = Signal(str)

    def __init__(self, model: ServerListModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.menu: QMenu | None = None  # the last context menu shown
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        self.add_button = QPushButton("Add server…")
        self.add_button.setToolTip("Add a server, paste a JSON snippet, or import from another app")
        self.add_button.clicked.connect(self.add_requested)
        lay.addWidget(self.add_button)
        self.view = QListView()
        self.view.setObjectName("serverList")
        self.view.setAccessibleName("Servers")
        self.view.setModel(model)
        self.view.setItemDelegate(ServerDelegate(self.view))
        self.view.setUniformItemSizes(True)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.view.customContextMenuRequested.connect(self._menu)
        self.view.selectionModel().currentChanged.connect(self._current_changed)
        # Delete (and Backspace, the Mac's delete key) removes the selected server, after the
        # same question as Remove…
        for key in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace):
            shortcut = QShortcut(QKeySequence(key), self.view)
            shortcut.setContext(Qt.ShortcutContext.WidgetShortcut)
            shortcut.activated.connect(lambda: self._trigger("remove"))
        lay.addWidget(self.view, 1)
        grid = QGridLayout()
        self.buttons: dict[str, QPushButton] = {}
        for i, act in enumerate(ACTIONS):
            b = QPushButton(LABELS[act].rstrip("…"))
            b.setObjectName(f"server_{act}")
            b.clicked.connect(lambda _=False, a=act: self._trigger(a))
            grid.addWidget(b, i // 3, i % 3)
            self.buttons[act] = b
        # A server that needs a sign-in shows Sign in where Connect is: the one thing to do.
        self.sign_in_button = QPushButton(self.tr("Sign in"))
        self.sign_in_button.setObjectName("server_sign_in")
        self.sign_in_button.clicked.connect(lambda: self._trigger("sign_in"))
        self.sign_in_button.hide()
        grid.addWidget(self.sign_in_button, 0, 0)
        lay.addLayout(grid)
        model.dataChanged.connect(self._update_buttons)
        model.rowsRemoved.connect(self._update_buttons)
        self._update_buttons()

    def current(self) -> str:
        idx = self.view.currentIndex()
        return idx.data(ServerListModel.NameRole) if idx.isValid() else ""

    def select(self, name: str) -> bool:
        row = self.model.row_of(name)
        if row < 0:
            return False
        self.view.setCurrentIndex(self.model.index(row, 0))
        return True

    def enabled_actions(self, name: str) -> set[str]:
        row = self.model.server(name)
        if row is None:
            return set()
        acts = {"edit", "duplicate", "remove", "rename", "enable" if row.disabled else "disable"}
        if row.state in ("connecting", "installing", "ready"):
            acts |= {"disconnect", "reconnect"}
        else:
            acts |= {"connect"}
            if row.state == "failed":
                acts |= {"reconnect"}
        if row.state == NEEDS_SIGN_IN:
            acts |= {"sign_in"}
        if row.waiting_for_sign_in:
            acts |= {"cancel_sign_in"}
        if row.signed_in:
            acts |= {"sign_out"}
        return acts

    def _trigger(self, action: str) -> None:
        name = self.current()
        if name:
            self.action_triggered.emit(action, name)

    @Slot()
    def _update_buttons(self, *args: Any) -> None:
        acts = self.enabled_actions(self.current())
        for a, b in self.buttons.items():
            b.setEnabled(a in acts)
        needs = "sign_in" in acts
        self.sign_in_button.setVisible(needs)
        self.buttons["connect"].setVisible(not needs)

    @Slot(QModelIndex, QModelIndex)
    def _current_changed(self, cur: QModelIndex, prev: QModelIndex) -> None:
        self._update_buttons()
        self.selection_changed.emit(cur.data(ServerListModel.NameRole) if cur.isValid() else "")

    @Slot(QPoint)
    def _menu(self, pos: QPoint) -> None:
        idx = self.view.indexAt(pos)
        if not idx.isValid():
            return
        self.view.setCurrentIndex(idx)
        name = idx.data(ServerListModel.NameRole)
        menu = QMenu(self)
        acts = self.enabled_actions(name)
        first = [a for a in SIGN_IN_ACTIONS if a in acts and a != "sign_out"]
        for a in first:  # the sign-in step the server waits for, first and on its own
            self._menu_action(menu, a, name, True)
        if first:
            menu.addSeparator()
        for a in ACTIONS:
            self._menu_action(menu, a, name, a in acts)
            if a == "edit":
                self._menu_action(menu, "rename", name, True)
                self._menu_action(menu, "enable" if "enable" in acts else "disable", name, True)
        if "sign_out" in acts:
            menu.addSeparator()
            self._menu_action(menu, "sign_out", name, True)
        self.menu = menu  # tests reach it here
        menu.popup(self.view.viewport().mapToGlobal(pos))

    def _menu_action(self, menu: QMenu, action: str, name: str, enabled: bool) -> QAction:
        qa = QAction(self.tr(LABELS[action]), menu)
        qa.setObjectName(f"menu_{action}")
        qa.setEnabled(enabled)
        qa.triggered.connect(lambda _=False, act=action, n=name: self.action_triggered.emit(act, n))
        menu.addAction(qa)
        return qa
