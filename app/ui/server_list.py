"""The left panel: configured servers with their state, and the actions on them."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    QPoint,
    QRect,
    QSize,
    Qt,
    Signal,
    Slot,
)
from PySide6.QtGui import QAction, QIcon, QKeySequence, QPainter, QPalette, QShortcut
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

from app.ui.icons import icon
from app.ui.models.servers import NEEDS_SIGN_IN, ServerListModel
from app.ui.spacing import ICON_SIZE, ROW_PADDING, SPACING, STATE_ICON_SIZE, calm
from app.ui.theme import secondary_text

Index = QModelIndex | QPersistentModelIndex
LINE_GAP = 2  # between a row's two lines

ACTIONS = ("connect", "disconnect", "reconnect", "edit", "duplicate", "remove")
# Sign-in actions, offered only where they fit: "sign_in" on a server that needs it (it takes the
# Connect button's place), "cancel_sign_in" while the browser is open, "sign_out" when signed in.
SIGN_IN_ACTIONS = ("sign_in", "cancel_sign_in", "sign_out")
# In the context menu only, after Edit: a new name, and switching the server off or on (a
# disabled server is kept in the list but does not start).
MENU_ACTIONS = ("rename", "disable", "enable")
LABELS = {
    "rename": QT_TRANSLATE_NOOP("ServerPanel", "Rename…"),
    "disable": QT_TRANSLATE_NOOP("ServerPanel", "Disable"),
    "enable": QT_TRANSLATE_NOOP("ServerPanel", "Enable"),
    "sign_in": QT_TRANSLATE_NOOP("ServerPanel", "Sign in"),
    "cancel_sign_in": QT_TRANSLATE_NOOP("ServerPanel", "Cancel sign-in"),
    "sign_out": QT_TRANSLATE_NOOP("ServerPanel", "Sign out"),
    "connect": QT_TRANSLATE_NOOP("ServerPanel", "Connect"),
    "disconnect": QT_TRANSLATE_NOOP("ServerPanel", "Disconnect"),
    "reconnect": QT_TRANSLATE_NOOP("ServerPanel", "Reconnect"),
    "edit": QT_TRANSLATE_NOOP("ServerPanel", "Edit…"),
    "duplicate": QT_TRANSLATE_NOOP("ServerPanel", "Duplicate"),
    "remove": QT_TRANSLATE_NOOP("ServerPanel", "Remove…"),
}
# The icon (app.ui.icons) of each action, on its button and in the menu.
ICONS = {
    "sign_in": "sign-in",
    "connect": "connect",
    "disconnect": "disconnect",
    "reconnect": "refresh",
    "edit": "edit",
    "duplicate": "copy",
    "remove": "remove",
}


def label(action: str) -> str:
    return QCoreApplication.translate("ServerPanel", str(LABELS[action]))


class ServerDelegate(QStyledItemDelegate):
    """One row per server: its state's icon, then the title (with the server's own icon) and the
    tool count on the first line, the state in words on the second.

    The background (selection, hover, focus) is drawn by the base class with the text and icon
    blanked out; this avoids touching QStyle, whose enums cost ~18 ms to create at start-up.
    """

    def initStyleOption(self, option: QStyleOptionViewItem, index: Index) -> None:
        super().initStyleOption(option, index)
        option.text = ""
        option.icon = QIcon()

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        fm = option.fontMetrics
        return QSize(200, fm.height() * 2 + LINE_GAP + 2 * ROW_PADDING)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        painter.save()
        super().paint(painter, option, index)
        view = option.widget
        sel = view.selectionModel() if isinstance(view, QListView) else None
        selected = bool(sel is not None and sel.isSelected(index))
        pal: QPalette = option.palette
        text_colour = pal.color(QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text)
        quiet = text_colour if selected else secondary_text(pal)
        r: QRect = option.rect.adjusted(ROW_PADDING, ROW_PADDING, -ROW_PADDING, -ROW_PADDING)
        fm = option.fontMetrics
        line = fm.height()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        # The state: an icon in the state's colour, centred on the two lines.
        state = icon("state-" + str(index.data(ServerListModel.StateKeyRole)))
        side = STATE_ICON_SIZE
        state.paint(
            painter,
            QRect(r.left(), r.top() + (r.height() - side) // 2, side, side),
            Qt.AlignmentFlag.AlignCenter,
            QIcon.Mode.Selected if selected else QIcon.Mode.Normal,
        )
        x = r.left() + side + ROW_PADDING
        right = r.right()
        # First line, right: "12 tools", quiet.
        count = str(index.data(ServerListModel.ToolCountTextRole) or "")
        if count:
            width = fm.horizontalAdvance(count)
            painter.setPen(quiet)
            painter.drawText(QRect(right - width, r.top(), width, line), Qt.AlignmentFlag.AlignVCenter, count)
            right -= width + ROW_PADDING
        own = index.data(Qt.ItemDataRole.DecorationRole)  # the server's own icon, when it has one
        title_x = x
        if isinstance(own, QIcon) and not own.isNull():
            own.paint(painter, QRect(x, r.top(), line, line))
            title_x += line + SPACING
        f = option.font
        f.setBold(True)
        painter.setFont(f)
        bold = painter.fontMetrics()
        painter.setPen(text_colour)
        title = str(index.data(ServerListModel.TitleRole) or "")  # invisible characters shown
        painter.drawText(
            QRect(title_x, r.top(), max(0, right - title_x), line),
            Qt.AlignmentFlag.AlignVCenter,
            bold.elidedText(title, Qt.TextElideMode.ElideRight, max(0, right - title_x)),
        )
        f.setBold(False)
        painter.setFont(f)
        # Second line: the state in words (and why it did not connect).
        status = str(index.data(ServerListModel.StateTextRole) or "")
        painter.setPen(quiet)
        line2 = QRect(x, r.top() + line + LINE_GAP, r.right() - x, line)
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
        calm(lay, margin=SPACING)
        self.add_button = QPushButton(icon("add"), self.tr("Add server…"))
        self.add_button.setIconSize(QSize(ICON_SIZE, ICON_SIZE))
        self.add_button.setToolTip(
            self.tr("Add a server, paste a snippet from a README, or import from another app")
        )
        self.add_button.clicked.connect(self.add_requested)
        lay.addWidget(self.add_button)
        self.view = QListView()
        self.view.setObjectName("serverList")
        self.view.setAccessibleName(self.tr("Servers"))
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
        grid.setSpacing(SPACING)
        self.buttons: dict[str, QPushButton] = {}
        for i, act in enumerate(ACTIONS):
            b = QPushButton(icon(ICONS[act]), label(act).rstrip("…"))
            b.setIconSize(QSize(ICON_SIZE, ICON_SIZE))
            b.setObjectName(f"server_{act}")
            b.clicked.connect(lambda _=False, a=act: self._trigger(a))
            grid.addWidget(b, i // 3, i % 3)
            self.buttons[act] = b
        # A server that needs a sign-in shows Sign in where Connect is: the one thing to do.
        self.sign_in_button = QPushButton(icon("sign-in"), label("sign_in"))
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
        qa = QAction(label(action), menu)
        if action in ICONS:
            qa.setIcon(icon(ICONS[action]))
        qa.setObjectName(f"menu_{action}")
        qa.setEnabled(enabled)
        qa.triggered.connect(lambda _=False, act=action, n=name: self.action_triggered.emit(act, n))
        menu.addAction(qa)
        return qa
