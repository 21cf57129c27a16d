"""The centre panel: the selected server's tools, resources (and templates) and prompts."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QModelIndex, Qt, Signal, Slot
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QHBoxLayout,
    QLineEdit,
    QListView,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.ui.safe_text import plain_label
from app.ui.theme import notice_style, quiet_text_style, restyle_on_scheme_change

if TYPE_CHECKING:
    # The lists' models are made when first needed (models): not before the first paint.
    from app.ui.models.catalog import CatalogFilterModel, CatalogItem, CatalogModel

KINDS = ("tools", "resources", "resource_templates", "prompts")


def make_list(name: str) -> QListView:
    view = QListView()
    view.setObjectName(name)
    view.setAccessibleName(name)
    view.setUniformItemSizes(True)  # 10,000 rows: never measure every row
    # A long name is elided in the middle (its start and end tell tools apart), never wider.
    view.setTextElideMode(Qt.TextElideMode.ElideMiddle)
    view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    # Lay a long list out in batches across loop turns: the rows on screen come first, so a
    # keystroke that brings back 10,000 rows does not wait for all of them.
    view.setLayoutMode(QListView.LayoutMode.Batched)
    view.setBatchSize(200)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    return view


class CatalogPanel(QWidget):
    """Search box, scope switch and one list per catalog kind.

    Signals:
        item_selected(kind, item): a tool/resource/template/prompt became current (item may be None).
    """

    item_selected = Signal(str, object)

    MAX_MIN_WIDTH = 300

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # The lists' models and filters are made when something first asks for them (a server's
        # catalog arrives, a selection, a test): until then the lists are empty and their module
        # is not imported, which the first paint of the window does not need.
        self._models: dict[str, CatalogModel] | None = None
        self._proxies: dict[str, CatalogFilterModel] = {}
        self.views: dict[str, QListView] = {k: make_list(k) for k in KINDS}

        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        top = QHBoxLayout()
        self.search = QLineEdit()
        self.search.setPlaceholderText(self.tr("Search (Ctrl+F)"))
        self.search.setClearButtonEnabled(True)
        self.search.setAccessibleName(self.tr("Search"))
        self.search.textChanged.connect(self.set_search)
        top.addWidget(self.search, 1)
        self.all_servers = QCheckBox(self.tr("All servers"))
        self.all_servers.setToolTip(
            self.tr("Search the tools, resources and prompts of every connected server")
        )
        self.all_servers.toggled.connect(self.set_all_servers)
        top.addWidget(self.all_servers)
        lay.addLayout(top)
        self.tabs = QTabWidget()
        self.tabs.setObjectName("catalogTabs")
        # All three tabs stay in sight in a narrow column: their words are elided, never scrolled
        # out of view behind arrows (the full text is in each tab's tooltip).
        bar = self.tabs.tabBar()
        bar.setUsesScrollButtons(False)
        bar.setElideMode(Qt.TextElideMode.ElideRight)
        bar.setExpanding(False)
        self.tabs.addTab(self.views["tools"], self.tr("Tools"))
        res = QSplitter(Qt.Orientation.Vertical)
        for kind, label in (
            ("resources", self.tr("Resources")),
            ("resource_templates", self.tr("Resources with fields")),
        ):
            box = QWidget()
            bl = QVBoxLayout(box)
            bl.setContentsMargins(0, 0, 0, 0)
            bl.addWidget(plain_label(label, wrap=False))
            bl.addWidget(self.views[kind])
            res.addWidget(box)
        self.tabs.addTab(res, self.tr("Resources"))
        self.tabs.addTab(self.views["prompts"], self.tr("Prompts"))
        lay.addWidget(self.tabs, 1)
        self.empty = plain_label("")
        self.empty.setObjectName("catalogEmpty")
        # palette(mid) vanished on a dark palette: the quieter text colour stays readable in both.
        restyle_on_scheme_change(self.empty, lambda: self.empty.setStyleSheet(quiet_text_style()))
        lay.addWidget(self.empty)
        self.mistakes = plain_label("", wrap=True)  # names a server lists more than once
        self.mistakes.setObjectName("catalogMistakes")
        self.mistakes.hide()
        self._restyle()
        lay.addWidget(self.mistakes)
        self._server: str | None = None
        self.tabs.currentChanged.connect(self._tab_changed)
        self._count_listed()

    @property
    def models(self) -> dict[str, CatalogModel]:
        """One model per kind with every server's items (made on first use)."""
        if self._models is None:
            self._models = self._make_models()
        return self._models

    @property
    def proxies(self) -> dict[str, CatalogFilterModel]:
        """What each list shows: one server's items or all, filtered by the search."""
        _ = self.models
        return self._proxies

    def _make_models(self) -> dict[str, CatalogModel]:
        from app.ui.models.catalog import CatalogFilterModel, CatalogModel

        models = {k: CatalogModel(k, self) for k in KINDS}
        for k in KINDS:
            p = CatalogFilterModel(self)
            p.setSourceModel(models[k])
            # The scope and search chosen before the lists had models.
            p.set_server(self._server)
            p.set_all_servers(self.all_servers.isChecked())
            p.set_search(self.search.text())
            self._proxies[k] = p
            v = self.views[k]
            v.setModel(p)
            v.selectionModel().currentChanged.connect(lambda cur, prev, kind=k: self._current(kind, cur))
            # The tab counts say what the lists show: whatever changes a list (its server's
            # catalog, the search, "All servers") changes its count, without every caller having
            # to remember.
            for sig in (p.rowsInserted, p.rowsRemoved, p.modelReset):
                sig.connect(self._count_listed)
        return models

    def _restyle(self) -> None:
        sheet = notice_style("warning", "QLabel#catalogMistakes")
        if sheet != self.mistakes.styleSheet():
            self.mistakes.setStyleSheet(sheet)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange:
            self._restyle()
        super().changeEvent(event)

    # --- scope and search ---------------------------------------------------------------------
    @Slot(str)
    def set_search(self, text: str) -> None:
        for p in self._proxies.values():  # none yet: the models take the text when made
            p.set_search(text)

    @Slot(bool)
    def set_all_servers(self, on: bool) -> None:
        for p in self._proxies.values():
            p.set_all_servers(on)

    def set_server(self, server: str | None) -> None:
        self._server = server
        for p in self._proxies.values():
            p.set_server(server)
        self.update_counts()

    def update_counts(self) -> None:
        self._count_listed()
        self._show_mistakes()

    @Slot()
    def _count_listed(self) -> None:
        """Each tab says how many items its list shows (all servers' with "All servers" on)."""
        n = {k: self._proxies[k].rowCount() if k in self._proxies else 0 for k in KINDS}
        self.tabs.setTabText(0, self.tr("Tools (%n)", "", n["tools"]))
        self.tabs.setTabText(1, self.tr("Resources (%n)", "", n["resources"] + n["resource_templates"]))
        self.tabs.setTabText(2, self.tr("Prompts (%n)", "", n["prompts"]))
        bar = self.tabs.tabBar()
        for i in range(self.tabs.count()):
            self.tabs.setTabToolTip(i, self.tabs.tabText(i))
        # Wide enough for the three tabs' words (up to a limit: beyond it they are elided).
        need = sum(bar.tabSizeHint(i).width() for i in range(bar.count())) + 12
        self.setMinimumWidth(min(need, self.MAX_MIN_WIDTH))

    def _show_mistakes(self) -> None:
        """Say which names the shown server lists more than once (the engine keeps the first)."""
        lines: list[str] = []
        for kind in KINDS if self._models is not None else ():
            items = self.models[kind].items_of(self._server) if self._server else self.models[kind].items()
            for it in items:
                count = getattr(it.obj, "listed", 1)
                if isinstance(count, int) and count > 1:
                    lines.append(
                        self.tr("%1 lists “%2” %3 times; only the first is shown.")
                        .replace("%1", it.server)
                        .replace("%2", it.key)
                        .replace("%3", str(count))
                    )
        if len(lines) > 3:
            lines[3:] = [self.tr("…and %n more.", "", len(lines) - 3)]
        self.mistakes.setText("\n".join(lines))
        self.mistakes.setVisible(bool(lines))

    # --- selection ----------------------------------------------------------------------------
    def current_kind(self) -> str:
        i = self.tabs.currentIndex()
        if i == 0:
            return "tools"
        if i == 2:
            return "prompts"
        return "resource_templates" if self.views["resource_templates"].hasFocus() else "resources"

    def current_item(self, kind: str) -> CatalogItem | None:
        idx = self.views[kind].currentIndex()
        if not idx.isValid():  # always so before the models are made
            return None
        from app.ui.models.catalog import CatalogModel

        item: CatalogItem | None = idx.data(CatalogModel.ItemRole)
        return item

    def select(self, kind: str, server: str, key: str) -> bool:
        row = self.models[kind].find(server, key)
        if row < 0:
            return False
        idx = self.proxies[kind].mapFromSource(self.models[kind].index(row, 0))
        if not idx.isValid():
            return False
        self.tabs.setCurrentIndex({"tools": 0, "prompts": 2}.get(kind, 1))
        self.views[kind].setCurrentIndex(idx)
        return True

    def _current(self, kind: str, cur: QModelIndex) -> None:
        from app.ui.models.catalog import CatalogModel

        item = cur.data(CatalogModel.ItemRole) if cur.isValid() else None
        if kind == "resources" and item is not None:
            self.views["resource_templates"].clearSelection()
        self.item_selected.emit(kind, item)

    @Slot(int)
    def _tab_changed(self, i: int) -> None:
        kind = {0: "tools", 2: "prompts"}.get(i, "resources")
        item = self.current_item(kind)
        if item is not None:
            self.item_selected.emit(kind, item)

    def focus_search(self) -> None:
        self.search.setFocus()
        self.search.selectAll()


def item_from(kind: str, server: str, obj: Any, key: str | None = None) -> CatalogItem:
    """A CatalogItem from an engine catalog object of any kind (key: its key in the catalog)."""
    if key is not None:
        pass
    elif kind == "resources":
        key = str(getattr(obj, "uri", "") or getattr(obj, "name", ""))
    elif kind == "resource_templates":
        key = str(
            getattr(obj, "uri_template", None)
            or getattr(obj, "uriTemplate", None)
            or getattr(obj, "name", "")
        )
    else:
        key = str(getattr(obj, "name", ""))
    from app.ui.models.catalog import CatalogItem

    title = getattr(obj, "title", None) or ""
    if kind in ("resources", "resource_templates"):
        title = title or str(getattr(obj, "name", "") or "")
    return CatalogItem(server, key, str(title), str(getattr(obj, "description", None) or ""), obj)
