"""The server directory browser: search the MCP Registry, read an entry, add it.

A window of its own (not modal: the main window stays usable). Searching starts as the person types,
after a pause (`DEBOUNCE_MS`); a newer search cancels the one still running, and so does a newer
selection for the entry's details. All network work is core code (`app.registry.client`) awaited on
the qasync loop, never on the GUI thread's time; the view only shows what it is given: every text of
an entry is plain text, and an icon is image data the core fetched (https only, size-limited, PNG,
JPEG or WebP), decoded here with a size limit. The website opens in the browser only for http(s).

States, shown in the status line and a banner: "searching…"; results; "offline: showing the list
from <time>" (the cached answer) with Retry; "the server directory cannot be reached: check your
internet connection" with Retry, when nothing was cached.

Add builds the entry's `InstallPlan` (the way chosen in "How it runs", best first) and hands it to
`app.ui.install_dialog.install_plan`, the dialog every source shares (name, questions, keys to the
keychain, then "allow this program to run?" for a local one, then it connects).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QAbstractListModel,
    QBuffer,
    QByteArray,
    QCoreApplication,
    QIODevice,
    QModelIndex,
    QPersistentModelIndex,
    QSize,
    Qt,
    QTimer,
    QUrl,
    Signal,
    Slot,
)
from PySide6.QtGui import QDesktopServices, QIcon, QImageReader, QPixmap
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListView,
    QPushButton,
    QSplitter,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from app.ui.i18n import translate_reason
from app.ui.safe_text import plain_label, plain_tooltip, visible_line

if TYPE_CHECKING:
    from app.registry.client import Page, RegistryClient
    from app.registry.convert import Way
    from app.registry.model import RegistryServer
    from app.ui.window import MainWindow

logger = logging.getLogger(__name__)

DEBOUNCE_MS = 300
ICON_SIZE = 32
MAX_ICON_PIXELS = 512
"""Icons larger than this on a side are not decoded (a tiny file can claim a huge image)."""


def kind_text(server: RegistryServer) -> str:
    if server.remotes:
        return QCoreApplication.translate("RegistryBrowser", "runs on the internet")
    return QCoreApplication.translate("RegistryBrowser", "runs on this computer")


def icon_from_bytes(data: bytes | None, size: int = ICON_SIZE) -> QIcon | None:
    """Decode icon bytes (already checked by the core to be PNG, JPEG or WebP) within limits."""
    if not data:
        return None
    buffer = QBuffer()
    buffer.setData(QByteArray(data))
    buffer.open(QIODevice.OpenModeFlag.ReadOnly)
    reader = QImageReader(buffer)
    dims = reader.size()
    if not dims.isValid() or dims.width() > MAX_ICON_PIXELS or dims.height() > MAX_ICON_PIXELS:
        return None
    image = reader.read()
    if image.isNull():
        return None
    pix = QPixmap.fromImage(image).scaled(
        size, size, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation
    )
    return QIcon(pix)


class ResultsModel(QAbstractListModel):
    """The entries found so far (all loaded pages), with their icons once fetched."""

    ServerRole = Qt.ItemDataRole.UserRole + 1
    KindRole = Qt.ItemDataRole.UserRole + 2

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.servers: list[RegistryServer] = []
        self.icons: dict[str, QIcon] = {}
        self.icon_bytes: dict[str, bytes] = {}
        self._kind_icons: dict[str, QIcon] = {}

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.servers)

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.servers):
            return None
        s = self.servers[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            line = f"{visible_line(s.display_title)}  ·  {kind_text(s)}"
            if s.status == "deprecated":
                line += "  ·  " + QCoreApplication.translate("RegistryBrowser", "deprecated")
            return f"{line}\n{visible_line(s.short_description)}"
        if role == Qt.ItemDataRole.ToolTipRole:
            return plain_tooltip(f"{s.name}\n\n{s.description}")
        if role == Qt.ItemDataRole.DecorationRole:
            # An entry without an icon gets the platform's icon for where it runs: rows line up.
            return self.icons.get(s.name) or self.kind_icon(bool(s.remotes))
        if role == self.ServerRole:
            return s
        if role == self.KindRole:
            return "remote" if s.remotes else "local"
        return None

    def kind_icon(self, remote: bool) -> QIcon:
        from PySide6.QtWidgets import QApplication, QStyle

        key = "remote" if remote else "local"
        icon = self._kind_icons.get(key)
        if icon is None:
            pixmap = (
                QStyle.StandardPixmap.SP_DriveNetIcon if remote else QStyle.StandardPixmap.SP_ComputerIcon
            )
            icon = self._kind_icons[key] = QApplication.style().standardIcon(pixmap)
        return icon

    def reset(self, servers: list[RegistryServer]) -> None:
        self.beginResetModel()
        self.servers = list(servers)
        self.endResetModel()

    def extend(self, servers: list[RegistryServer]) -> None:
        known = {s.name for s in self.servers}
        new = [s for s in servers if s.name not in known]
        if not new:
            return
        self.beginInsertRows(QModelIndex(), len(self.servers), len(self.servers) + len(new) - 1)
        self.servers.extend(new)
        self.endInsertRows()

    def set_icon(self, name: str, data: bytes) -> None:
        icon = icon_from_bytes(data)
        if icon is None:
            return
        self.icons[name] = icon
        self.icon_bytes[name] = data
        for row, s in enumerate(self.servers):
            if s.name == name:
                idx = self.index(row)
                self.dataChanged.emit(idx, idx, [Qt.ItemDataRole.DecorationRole])


class ResultDelegate(QStyledItemDelegate):
    """Rows of two lines (title · where it runs, then the summary) with room for both whatever the
    script: Chinese text comes from a fallback font with taller lines than the style measures, and
    the second line was elided away."""

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        size = super().sizeHint(option, index)
        return QSize(size.width(), size.height() + option.fontMetrics.height() // 2)


class RegistryBrowser(QWidget):
    """Signals:
    results_shown(int): a search (or another page) was shown; the number of rows now.
    details_shown(str): the detail pane shows this entry (its latest version when reachable).
    state_changed(str): "searching", "results", "offline-cached", "offline", "error".
    added(str): a server was added from the directory (its name in the list).
    """

    results_shown = Signal(int)
    details_shown = Signal(str)
    state_changed = Signal(str)
    added = Signal(str)

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window, Qt.WindowType.Window)
        self.window_ = window
        self.setObjectName("registryBrowser")
        self.setWindowTitle(self.tr("Server directory"))
        self.resize(980, 640)
        self._client: RegistryClient | None = None
        self._search_task: asyncio.Task[None] | None = None
        self._detail_task: asyncio.Task[None] | None = None
        self._icon_task: asyncio.Task[None] | None = None
        self._add_task: asyncio.Task[None] | None = None
        self._next_cursor: str | None = None
        self._query = ""
        self.state = ""
        self.current: RegistryServer | None = None
        self._ways: list[Way] = []
        self.address_dialog: QWidget | None = None

        self.search = QLineEdit()
        self.search.setObjectName("registrySearch")
        self.search.setPlaceholderText(self.tr("Search the server directory (name or subject)"))
        self.search.setClearButtonEnabled(True)
        self.status = QLabel()
        self.status.setObjectName("registryStatus")
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(DEBOUNCE_MS)
        self._debounce.timeout.connect(self._search_now)
        self.search.textEdited.connect(lambda _t: self._debounce.start())
        self.search.returnPressed.connect(self._search_now)

        self.banner = QFrame()
        self.banner.setObjectName("registryBanner")
        self.banner.setFrameShape(QFrame.Shape.StyledPanel)
        self.banner_text = plain_label()
        self.retry_button = QPushButton(self.tr("Retry"))
        self.retry_button.clicked.connect(lambda: self.run_search(self._query, refresh=True))
        row = QHBoxLayout(self.banner)
        row.addWidget(self.banner_text, 1)
        row.addWidget(self.retry_button)
        self.banner.hide()

        self.model = ResultsModel(self)
        self.list = QListView()
        self.list.setObjectName("registryResults")
        self.list.setModel(self.model)
        self.list.setItemDelegate(ResultDelegate(self.list))
        self.list.setIconSize(QSize(ICON_SIZE, ICON_SIZE))
        self.list.setUniformItemSizes(True)
        self.list.setSpacing(3)
        self.list.setWordWrap(False)
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.list.selectionModel().currentChanged.connect(self._selected)
        self.load_more_button = QPushButton(self.tr("Load more"))
        self.load_more_button.clicked.connect(self.load_more)
        self.load_more_button.hide()
        left = QWidget()
        lv = QVBoxLayout(left)
        lv.setContentsMargins(0, 0, 0, 0)
        lv.addWidget(self.list, 1)
        lv.addWidget(self.load_more_button)

        self.detail = self._build_detail()
        split = QSplitter()
        split.addWidget(left)
        split.addWidget(self.detail)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setSizes([560, 420])

        top = QHBoxLayout()
        top.addWidget(self.search, 1)
        top.addWidget(self.status)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.banner)
        layout.addWidget(split, 1)
        foot = QHBoxLayout()
        self.directory_label = plain_label(wrap=False)
        self.directory_label.setObjectName("registryAddress")
        self.change_button = QPushButton(self.tr("Change…"))
        self.change_button.setToolTip(
            self.tr("Browse another server directory (your company's, for example)")
        )
        self.change_button.clicked.connect(self.change_directory)
        foot.addWidget(self.directory_label, 1)
        foot.addWidget(self.change_button)
        layout.addLayout(foot)
        self._show_detail(None)
        self._show_address()

    def _build_detail(self) -> QWidget:
        pane = QWidget()
        pane.setObjectName("registryDetail")
        v = QVBoxLayout(pane)
        head = QHBoxLayout()
        self.detail_icon = QLabel()
        self.detail_icon.setFixedSize(48, 48)
        self.detail_title = plain_label()
        font = self.detail_title.font()
        font.setPointSizeF(font.pointSizeF() * 1.3)
        font.setBold(True)
        self.detail_title.setFont(font)
        head.addWidget(self.detail_icon)
        head.addWidget(self.detail_title, 1)
        v.addLayout(head)
        self.detail_name = plain_label()
        self.detail_name.setEnabled(False)  # the directory's own name: quieter than the title
        self.detail_meta = plain_label()
        self.detail_description = plain_label()
        self.detail_notes = plain_label()
        self.detail_notes.setObjectName("registryNotes")
        self.detail_repository = plain_label()
        self.website_button = QPushButton(self.tr("Open website"))
        self.website_button.clicked.connect(self.open_website)
        self.way_label = QLabel(self.tr("How it runs:"))
        self.way_box = QComboBox()
        self.way_box.setObjectName("registryWay")
        self.way_box.currentIndexChanged.connect(self._way_changed)
        self.way_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.way_box.setMinimumContentsLength(24)
        self.way_problem = plain_label()
        self.add_button = QPushButton(self.tr("Add…"))
        self.add_button.setObjectName("registryAdd")
        self.add_button.setDefault(True)
        self.add_button.clicked.connect(self.add_current)
        for w in (
            self.detail_name,
            self.detail_meta,
            self.detail_description,
            self.detail_notes,
            self.detail_repository,
        ):
            v.addWidget(w)
        v.addWidget(self.website_button, 0, Qt.AlignmentFlag.AlignLeft)
        v.addSpacing(8)
        v.addWidget(self.way_label)
        v.addWidget(self.way_box)
        v.addWidget(self.way_problem)
        v.addStretch(1)
        v.addWidget(self.add_button, 0, Qt.AlignmentFlag.AlignRight)
        return pane

    # --- the client ------------------------------------------------------------------------------
    def client(self) -> RegistryClient:
        from app.registry.client import RegistryClient
        from app.registry.settings import registry_url

        url = registry_url(self.window_.controller.store)
        if self._client is None or self._client.base_url != url:
            old = self._client
            self._client = RegistryClient(url)
            if old is not None:
                self.window_.controller.spawn(old.aclose())
        return self._client

    def _show_address(self) -> None:
        from app.registry.settings import registry_url

        self.directory_label.setText(
            self.tr("Server directory: %1").replace("%1", registry_url(self.window_.controller.store))
        )

    @Slot()
    def change_directory(self) -> None:
        self.window_.controller.spawn(self._change_directory(), self._failed)

    async def _change_directory(self) -> None:
        """Ask for another directory's address (empty: the official one), remember it, search again."""
        from PySide6.QtWidgets import QDialog, QInputDialog

        from app.registry.settings import BadRegistryUrl, registry_url, set_registry_url
        from app.ui.async_dialogs import run_dialog

        store = self.window_.controller.store
        dialog = QInputDialog(self)
        dialog.setWindowTitle(self.tr("Server directory"))
        dialog.setLabelText(
            self.tr("Address of the server directory (leave empty for the official MCP Registry):")
        )
        dialog.setTextValue(registry_url(store))
        self.address_dialog = dialog
        try:
            if await run_dialog(dialog) != QDialog.DialogCode.Accepted:
                return
            text = dialog.textValue().strip()
            try:
                set_registry_url(store, text or None)
            except BadRegistryUrl:
                self._set_state(
                    "error",
                    "",
                    self.tr("That is not the address of a server directory: it must start with https://"),
                )
                return
        finally:
            self.address_dialog = None
            dialog.deleteLater()
        self._show_address()
        self.run_search(self.search.text(), refresh=True)

    # --- searching -------------------------------------------------------------------------------
    def _set_state(self, state: str, status: str = "", banner: str | None = None) -> None:
        self.state = state
        self.status.setText(status)
        if banner is None:
            self.banner.hide()
        else:
            self.banner_text.setText(banner)
            self.banner.show()
        self.state_changed.emit(state)

    @Slot()
    def _search_now(self) -> None:
        self._debounce.stop()
        if not self.isVisible():
            # The debounce ran out after the browser was closed (or its window went away, with the
            # event loop): a search nobody can see is not started.
            return
        self.run_search(self.search.text())

    def run_search(self, text: str, *, refresh: bool = False) -> None:
        """Start a search for `text`, cancelling the one still running."""
        self._query = text
        self._cancel(self._search_task)
        self._cancel(self._icon_task)
        self._search_task = self.window_.controller.spawn(self._search(text, None, refresh), self._failed)

    @Slot()
    def load_more(self) -> None:
        if self._next_cursor is None:
            return
        self._cancel(self._search_task)
        self._search_task = self.window_.controller.spawn(
            self._search(self._query, self._next_cursor, False), self._failed
        )

    async def _search(self, text: str, cursor: str | None, refresh: bool) -> None:
        from app.registry.client import RegistryError, RegistryOffline

        self._set_state("searching", self.tr("searching…"))
        self.load_more_button.setEnabled(False)
        try:
            page = await self.client().search(text, cursor=cursor, refresh=refresh)
        except RegistryOffline:
            if cursor is None:
                self.model.reset([])
                self._show_detail(None)
            self._set_state(
                "offline",
                "",
                self.tr("The server directory cannot be reached: check your internet connection."),
            )
            self.load_more_button.setEnabled(True)
            return
        except RegistryError as exc:
            if cursor is None:
                self.model.reset([])
            self._set_state(
                "error",
                "",
                self.tr("The server directory could not be read: %1").replace(
                    "%1", translate_reason(str(exc))
                ),
            )
            self.load_more_button.setEnabled(True)
            return
        self._show_page(page, append=cursor is not None)

    def _show_page(self, page: Page, *, append: bool) -> None:
        if append:
            self.model.extend(page.servers)
        else:
            self.model.reset(page.servers)
        self._next_cursor = page.next_cursor
        self.load_more_button.setVisible(page.next_cursor is not None)
        self.load_more_button.setEnabled(True)
        count = self.model.rowCount()
        status = self.tr("no servers found") if count == 0 else self.tr("%n server(s)", "", count)
        if page.offline:
            when = self._format_time(page.fetched_at)
            self._set_state(
                "offline-cached", status, self.tr("Offline: showing the list from %1.").replace("%1", when)
            )
        else:
            self._set_state("results", status)
        if not append and count and not self.list.currentIndex().isValid():
            self.list.setCurrentIndex(self.model.index(0))
        elif not count:
            self._show_detail(None)
        self.results_shown.emit(count)
        self._icon_task = self.window_.controller.spawn(self._fetch_icons(list(page.servers)))

    @staticmethod
    def _format_time(when: float | None) -> str:
        from app.ui.i18n import format_when

        return "?" if when is None else format_when(when)

    async def _fetch_icons(self, servers: list[RegistryServer]) -> None:
        client = self.client()
        sem = asyncio.Semaphore(4)

        async def one(server: RegistryServer) -> None:
            if server.name in self.model.icons or not server.icons:
                return
            async with sem:
                data = await client.icon(server)
            if data:
                self.model.set_icon(server.name, data)
                if self.current is not None and self.current.name == server.name:
                    self._show_icon(server.name)

        await asyncio.gather(*(one(s) for s in servers))

    # --- details ---------------------------------------------------------------------------------
    def _selected(self, current: QModelIndex, _previous: QModelIndex) -> None:
        server = self.model.data(current, ResultsModel.ServerRole) if current.isValid() else None
        self._show_detail(server)
        self._cancel(self._detail_task)
        if server is not None:
            self._detail_task = self.window_.controller.spawn(self._latest(server.name), self._failed)

    async def _latest(self, name: str) -> None:
        from app.registry.client import RegistryError

        try:
            server = await self.client().latest(name)
        except RegistryError as exc:
            # The list's copy is still shown; say why the latest could not be read.
            logger.info("latest version of %s not read: %s", name, exc)
            if self.current is not None and self.current.name == name:
                self.details_shown.emit(name)
            return
        if self.current is not None and self.current.name == name:
            self._show_detail(server)
            self.details_shown.emit(name)

    def _show_icon(self, name: str) -> None:
        icon = self.model.icons.get(name)
        self.detail_icon.setPixmap(icon.pixmap(48, 48) if icon is not None else QPixmap())

    def _show_detail(self, server: RegistryServer | None) -> None:
        from app.registry.client import status_note
        from app.registry.convert import ways

        self.current = server
        self.detail.setEnabled(server is not None)
        if server is None:
            labels = (self.detail_title, self.detail_name, self.detail_meta, self.detail_description,
                      self.detail_notes, self.detail_repository, self.way_problem)  # fmt: skip
            for label in labels:
                label.setText("")
            self.detail_icon.setPixmap(QPixmap())
            for widget in (self.website_button, self.way_label, self.way_box, self.add_button):
                widget.hide()
            self.way_box.clear()
            self.add_button.setEnabled(False)
            return
        for widget in (self.way_label, self.way_box, self.add_button):
            widget.show()
        self.detail_title.setText(server.display_title)
        self.detail_name.setText(server.name)
        meta = []
        if server.version:
            meta.append(self.tr("version %1").replace("%1", server.version))
        meta.append(kind_text(server))
        self.detail_meta.setText("  ·  ".join(meta))
        self.detail_description.setText(server.description)
        note = status_note(server)
        self.detail_notes.setText(
            self.tr("Deprecated: %1").replace("%1", translate_reason(note)) if note else ""
        )
        self.detail_notes.setVisible(bool(note))
        repo = server.repository_url
        self.detail_repository.setText(self.tr("Source code: %1").replace("%1", repo) if repo else "")
        self.detail_repository.setVisible(bool(repo))
        site = server.website_url or repo
        self.website_button.setVisible(site is not None and self._openable(site))
        self._show_icon(server.name)
        self._ways = ways(server)
        self.way_box.blockSignals(True)
        self.way_box.clear()
        for i, way in enumerate(self._ways):
            self.way_box.addItem(visible_line(self._way_text(way)))
            self.way_box.setItemData(i, plain_tooltip(self._way_text(way)), Qt.ItemDataRole.ToolTipRole)
        self.way_box.blockSignals(False)
        self.way_box.setEnabled(len(self._ways) > 1)
        self._way_changed(0)

    def _way_text(self, way: Way) -> str:
        if way.kind == "remote":
            return self.tr("On the internet: %1").replace(
                "%1", way.label.removeprefix("runs on the internet (").rstrip(")")
            )
        text = self.tr("On this computer: %1").replace("%1", translate_reason(way.label))
        if not way.available:
            text += "  " + self.tr("(needs a program not found here)")
        return text

    @Slot(int)
    def _way_changed(self, index: int) -> None:
        way = self._ways[index] if 0 <= index < len(self._ways) else None
        problem = None if way is None or way.problem is None else translate_reason(way.problem)
        if way is None and self.current is not None:
            problem = self.tr(
                "This entry of the server directory says neither where it runs nor how to install it."
            )
        self.way_problem.setText(problem or "")
        self.way_problem.setVisible(bool(problem))
        self.add_button.setEnabled(way is not None and way.problem is None)

    @staticmethod
    def _openable(url: str) -> bool:
        q = QUrl(url)
        return q.isValid() and q.scheme().lower() in ("http", "https")

    @Slot()
    def open_website(self) -> None:
        if self.current is None:
            return
        url = self.current.website_url or self.current.repository_url
        if url and self._openable(url):
            QDesktopServices.openUrl(QUrl(url))

    # --- adding ----------------------------------------------------------------------------------
    def chosen_way(self) -> Way | None:
        i = self.way_box.currentIndex()
        return self._ways[i] if 0 <= i < len(self._ways) else None

    @Slot()
    def add_current(self) -> None:
        if self.current is None or (self._add_task is not None and not self._add_task.done()):
            return
        self._add_task = self.window_.controller.spawn(
            self._add(self.current, self.chosen_way()), self._failed
        )

    async def _add(self, server: RegistryServer, way: Way | None) -> None:
        from app.registry.convert import CannotAdd, to_plan
        from app.ui.install_dialog import install_plan

        try:
            plan = to_plan(server, way, icon=self.model.icon_bytes.get(server.name))
        except CannotAdd as exc:
            self.way_problem.setText(translate_reason(str(exc)))
            self.way_problem.show()
            return
        self.add_button.setEnabled(False)
        try:
            name = await install_plan(self.window_, plan)
        finally:
            self.add_button.setEnabled(True)
        if name:
            self.added.emit(name)

    # --- housekeeping ----------------------------------------------------------------------------
    @staticmethod
    def _cancel(task: asyncio.Task[Any] | None) -> None:
        if task is not None and not task.done():
            task.cancel()

    def _failed(self, exc: BaseException) -> None:
        if isinstance(exc, asyncio.CancelledError):
            return
        logger.warning("server directory: %s", exc, exc_info=exc)
        self._set_state("error", "", self.tr("Something went wrong: %1").replace("%1", str(exc)))

    def closeEvent(self, event: Any) -> None:
        self._debounce.stop()
        for task in (self._search_task, self._detail_task, self._icon_task):
            self._cancel(task)
        if self._client is not None:
            self.window_.controller.spawn(self._close_client(self._client))
        super().closeEvent(event)

    async def _close_client(self, client: RegistryClient) -> None:
        """Close its connections (a reopened browser makes a new client)."""
        if self._client is client:
            self._client = None
        await client.aclose()


def open_registry(window: MainWindow) -> RegistryBrowser:
    """Show the window's directory browser (one per window), searching at once on first open."""
    browser: RegistryBrowser | None = getattr(window, "registry_browser", None)
    first = browser is None
    if browser is None:
        browser = RegistryBrowser(window)
        window.registry_browser = browser  # type: ignore[attr-defined]
    browser.show()
    browser.raise_()
    browser.activateWindow()
    browser.search.setFocus()
    if first:
        browser.run_search("")
    return browser
