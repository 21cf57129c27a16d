"""The bottom dock (the activity log): Log, Messages and History tabs.

The Messages tab (the protocol's traffic) is there in developer mode only: a person who is not a
developer has no use for JSON-RPC messages. It keeps its place (tab 1) either way, hidden or not.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QModelIndex, Qt, Signal, Slot
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QListView,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.mcp.log_level import DEFAULT_LEVEL
from app.ui.developer_mode import developer_mode
from app.ui.elide import json_preview, preview
from app.ui.models.history import HistoryEntry, HistoryModel
from app.ui.models.log import LEVELS, LogModel, ServerLevelFilter, TrafficModel, TrafficRow, level_text
from app.ui.safe_text import plain_label, visible_line

ALL = str(QT_TRANSLATE_NOOP("ServerFilterCombo", "All servers"))


def _table(model: Any, name: str) -> QTableView:
    t = QTableView()
    t.setObjectName(name)
    t.setAccessibleName(name)
    t.setModel(model)
    t.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    t.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    t.verticalHeader().hide()
    t.verticalHeader().setDefaultSectionSize(t.fontMetrics().height() + 4)
    h = t.horizontalHeader()
    h.setStretchLastSection(True)
    h.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    t.setWordWrap(False)
    return t


class ServerFilterCombo(QComboBox):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.addItem(self.tr(ALL))
        self.setAccessibleName(self.tr("Server filter"))

    def set_servers(self, names: list[str]) -> None:
        cur = self.server()
        self.blockSignals(True)
        self.clear()
        self.addItem(self.tr(ALL))
        for name in names:  # shown with invisible characters visible; the name itself is the data
            self.addItem(visible_line(name), name)
        i = self.findData(cur) if cur is not None else 0
        self.setCurrentIndex(max(0, i))
        self.blockSignals(False)

    def server(self) -> str | None:
        name = self.currentData()
        return name if isinstance(name, str) else None


class BottomDock(QTabWidget):
    """Signals:
    history_selected(entry): a past call was selected (show its arguments and result).
    rerun_requested(entry): re-run a past call with the form prefilled.
    server_log_level_chosen(server, level): the person chose how much a server sends (a setting
        of that server; the controller keeps it and tells the server).
    """

    history_selected = Signal(object)
    rerun_requested = Signal(object)
    server_log_level_chosen = Signal(str, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("bottomTabs")
        self.log_model = LogModel(parent=self)
        self.traffic_model = TrafficModel(parent=self)
        self.history_model = HistoryModel(parent=self)

        # Log
        log = QWidget()
        ll = QVBoxLayout(log)
        ll.setContentsMargins(2, 2, 2, 2)
        bar = QHBoxLayout()
        self.log_server = ServerFilterCombo()
        self.log_level = QComboBox()
        self.log_level.setAccessibleName(self.tr("Minimum level"))
        for level in LEVELS[:6]:  # the level's name is the data; the shown word is translated
            self.log_level.addItem(level_text(level), level)
        # The other combo filters what is shown; this one is the selected server's own setting:
        # how much it is asked to send at all (logging/setLevel, or the 2026 per-request level).
        self.server_log_level = QComboBox()
        self.server_log_level.setObjectName("serverLogLevel")
        self.server_log_level.setAccessibleName(self.tr("How much the server sends"))
        for level in LEVELS[:6]:
            self.server_log_level.addItem(level_text(level), level)
        self._level_of: Callable[[str], str | None] = lambda server: None
        clear = QPushButton(self.tr("Clear"))
        clear.clicked.connect(self.log_model.clear)
        bar.addWidget(plain_label(self.tr("Server:"), wrap=False))
        bar.addWidget(self.log_server)
        bar.addWidget(plain_label(self.tr("Level at least:"), wrap=False))
        bar.addWidget(self.log_level)
        bar.addSpacing(12)
        self.server_log_level_label = plain_label(self.tr("Server sends at least:"), wrap=False)
        bar.addWidget(self.server_log_level_label)
        bar.addWidget(self.server_log_level)
        bar.addStretch(1)
        bar.addWidget(clear)
        ll.addLayout(bar)
        self.log_filter = ServerLevelFilter(self)
        self.log_filter.setSourceModel(self.log_model)
        self.log_view = _table(self.log_filter, "logTable")
        ll.addWidget(self.log_view)
        self.log_server.currentTextChanged.connect(
            lambda _: self.log_filter.set_server(self.log_server.server())
        )
        self.log_server.currentIndexChanged.connect(lambda _: self._show_server_log_level())
        self.server_log_level.activated.connect(self._server_log_level_chosen)
        self._show_server_log_level()
        self.log_level.currentIndexChanged.connect(
            lambda _: self.log_filter.set_min_level(str(self.log_level.currentData() or "debug"))
        )
        self._log_page = log
        self.addTab(log, self.tr("Log"))

        # Traffic and History are built the first time they are shown or used: a faster start.
        self._servers: list[str] = []
        self._built: set[str] = set()
        self._traffic_page = QWidget()
        self._history_page = QWidget()
        self.addTab(self._traffic_page, self.tr("Messages"))
        self.setTabToolTip(1, self.tr("What MCP Desk and the servers send each other (developer mode)"))
        self.addTab(self._history_page, self.tr("History"))
        self.currentChanged.connect(self._tab_shown)
        self._show_messages_tab(developer_mode().enabled())
        developer_mode().changed.connect(self._show_messages_tab)

    _TRAFFIC = frozenset(
        {"traffic_server", "copy_traffic", "traffic_filter", "traffic_view", "traffic_detail"}
    )
    _HISTORY = frozenset({"history_server", "rerun", "history_filter", "history_view"})

    def __getattr__(self, name: str) -> Any:
        # Only reached for attributes that do not exist yet: build the tab that holds them.
        built = self.__dict__.get("_built")
        if built is not None and name in BottomDock._TRAFFIC and "traffic" not in built:
            self._build_traffic()
            return getattr(self, name)
        if built is not None and name in BottomDock._HISTORY and "history" not in built:
            self._build_history()
            return getattr(self, name)
        raise AttributeError(name)

    @Slot(bool)
    def _show_messages_tab(self, on: bool) -> None:
        """The Messages (traffic) tab in developer mode only; off, the Log tab takes its place."""
        index = self.indexOf(self._traffic_page)
        if not on and self.currentIndex() == index:
            self.setCurrentWidget(self._log_page)
        self.setTabVisible(index, on)

    def set_log_level_source(self, level_of: Callable[[str], str | None]) -> None:
        """Where the dock reads a server's chosen log level (None: never chosen, shown as "info",
        what the engine asks for then)."""
        self._level_of = level_of
        self._show_server_log_level()

    def _show_server_log_level(self) -> None:
        server = self.log_server.server()
        combo = self.server_log_level
        combo.setEnabled(server is not None)
        self.server_log_level_label.setEnabled(server is not None)
        if server is None:
            combo.setToolTip(self.tr("Choose a server to set how much it sends"))
            combo.setCurrentIndex(combo.findData(DEFAULT_LEVEL))
            return
        combo.setToolTip(
            self.tr("How much “%1” is asked to send to the log; kept with its settings").replace(
                "%1", visible_line(server)
            )
        )
        level = self._level_of(server) or DEFAULT_LEVEL
        combo.setCurrentIndex(max(0, combo.findData(level)))

    @Slot(int)
    def _server_log_level_chosen(self, index: int) -> None:
        server, level = self.log_server.server(), self.server_log_level.itemData(index)
        if server is not None and isinstance(level, str):
            self.server_log_level_chosen.emit(server, level)

    def messages_tab_shown(self) -> bool:
        return self.isTabVisible(self.indexOf(self._traffic_page))

    def show_log(self, server: str | None) -> None:
        """The Log tab, on `server`'s lines (None: every server's), from the lowest level."""
        self.setCurrentWidget(self._log_page)
        i = self.log_server.findData(server) if server is not None else 0
        self.log_server.setCurrentIndex(max(0, i))
        self.log_level.setCurrentIndex(0)

    @Slot(int)
    def _tab_shown(self, index: int) -> None:
        page = self.widget(index)
        if page is self._traffic_page:
            self._build_traffic()
        elif page is self._history_page:
            self._build_history()

    def _build_traffic(self) -> None:
        if "traffic" in self._built:
            return
        self._built.add("traffic")
        tl = QVBoxLayout(self._traffic_page)
        tl.setContentsMargins(2, 2, 2, 2)
        tbar = QHBoxLayout()
        self.traffic_server = ServerFilterCombo()
        self.traffic_server.set_servers(self._servers)
        self.copy_traffic = QPushButton(self.tr("Copy message"))
        self.copy_traffic.clicked.connect(self.copy_selected_traffic)
        tclear = QPushButton(self.tr("Clear"))
        tclear.clicked.connect(self.traffic_model.clear)
        tbar.addWidget(plain_label(self.tr("Server:"), wrap=False))
        tbar.addWidget(self.traffic_server)
        tbar.addStretch(1)
        tbar.addWidget(self.copy_traffic)
        tbar.addWidget(tclear)
        tl.addLayout(tbar)
        self.traffic_filter = ServerLevelFilter(self)
        self.traffic_filter.setSourceModel(self.traffic_model)
        split = QSplitter(Qt.Orientation.Horizontal)
        self.traffic_view = _table(self.traffic_filter, "trafficTable")
        self.traffic_detail = QPlainTextEdit()
        self.traffic_detail.setReadOnly(True)
        self.traffic_detail.setAccessibleName(self.tr("Message"))
        split.addWidget(self.traffic_view)
        split.addWidget(self.traffic_detail)
        split.setSizes([500, 400])
        tl.addWidget(split)
        self.traffic_server.currentTextChanged.connect(
            lambda _: self.traffic_filter.set_server(self.traffic_server.server())
        )
        self.traffic_view.selectionModel().currentChanged.connect(self._traffic_current)

    def _build_history(self) -> None:
        if "history" in self._built:
            return
        self._built.add("history")
        hl = QVBoxLayout(self._history_page)
        hl.setContentsMargins(2, 2, 2, 2)
        hbar = QHBoxLayout()
        self.history_server = ServerFilterCombo()
        self.history_server.set_servers(self._servers)
        self.rerun = QPushButton(self.tr("Re-run with these arguments"))
        self.rerun.setEnabled(False)
        self.rerun.clicked.connect(self._rerun)
        hbar.addWidget(plain_label(self.tr("Server:"), wrap=False))
        hbar.addWidget(self.history_server)
        hbar.addStretch(1)
        hbar.addWidget(self.rerun)
        hl.addLayout(hbar)
        self.history_filter = ServerLevelFilter(self)
        self.history_filter.setSourceModel(self.history_model)
        self.history_view = QListView()
        self.history_view.setObjectName("historyList")
        self.history_view.setModel(self.history_filter)
        self.history_view.selectionModel().currentChanged.connect(self._history_current)
        self.history_server.currentTextChanged.connect(
            lambda _: self.history_filter.set_server(self.history_server.server())
        )
        hl.addWidget(self.history_view)

    def set_servers(self, names: list[str]) -> None:
        self._servers = list(names)
        self.log_server.set_servers(names)
        self._show_server_log_level()  # its signals were blocked: the selected server may be gone
        if "traffic" in self._built:
            self.traffic_server.set_servers(names)
        if "history" in self._built:
            self.history_server.set_servers(names)

    def traffic_row(self) -> TrafficRow | None:
        if "traffic" not in self._built:
            return None
        idx = self.traffic_view.currentIndex()
        return idx.data(TrafficModel.RowRole) if idx.isValid() else None

    @Slot(QModelIndex, QModelIndex)
    def _traffic_current(self, cur: QModelIndex, prev: QModelIndex) -> None:
        row = cur.data(TrafficModel.RowRole) if cur.isValid() else None
        # Bounded: a 100 MB answer is shown with its long strings cut (Copy message copies it all).
        self.traffic_detail.setPlainText(preview(json_preview(row.message))[0] if row is not None else "")

    @Slot()
    def copy_selected_traffic(self) -> None:
        row = self.traffic_row()
        if row is not None:
            QGuiApplication.clipboard().setText(row.as_json())

    def history_entry(self) -> HistoryEntry | None:
        if "history" not in self._built:
            return None
        idx = self.history_view.currentIndex()
        return idx.data(HistoryModel.EntryRole) if idx.isValid() else None

    @Slot(QModelIndex, QModelIndex)
    def _history_current(self, cur: QModelIndex, prev: QModelIndex) -> None:
        e = self.history_entry()
        self.rerun.setEnabled(e is not None)
        # A draft was never run: the button takes the person back to the form as they left it.
        if e is not None and e.draft:
            self.rerun.setText(self.tr("Open the draft"))
        else:
            self.rerun.setText(self.tr("Re-run with these arguments"))
        if e is not None:
            self.history_selected.emit(e)

    @Slot()
    def _rerun(self) -> None:
        e = self.history_entry()
        if e is not None:
            self.rerun_requested.emit(e)
