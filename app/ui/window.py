"""The main window: servers on the left, their catalog in the centre, the selection on the right,
log/traffic/history at the bottom. It reacts to engine signals (through the bridge) and starts
engine work as tasks on the qasync loop; nothing here blocks the loop or opens a dialog with exec().
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from typing import TYPE_CHECKING, Any

import shiboken6
from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QByteArray,
    QEvent,
    QModelIndex,
    QObject,
    QSettings,
    QSize,
    Qt,
    QTimer,
    Signal,
    Slot,
)
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QDockWidget,
    QFrame,
    QHBoxLayout,
    QMainWindow,
    QPushButton,
    QScrollArea,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from app.ui.bridge import EngineBridge
from app.ui.catalog_panel import KINDS, CatalogPanel, item_from
from app.ui.controller import DeskController
from app.ui.developer_mode import developer_mode
from app.ui.i18n import translate_reason
from app.ui.models.servers import (
    CONNECTING,
    FAILED,
    INSTALLING,
    NEEDS_SIGN_IN,
    READY,
    ServerListModel,
    ServerRow,
)
from app.ui.safe_text import confirm_and_open, plain_label, plain_tooltip, visible_line
from app.ui.wording import describe_diff, fill

if TYPE_CHECKING:
    # Types for annotations only: each Qt class costs its enums' creation when first imported,
    # and these are not needed before the first paint.
    from PySide6.QtCore import QUrl
    from PySide6.QtGui import (
        QAction,
        QCloseEvent,
        QDragEnterEvent,
        QDragMoveEvent,
        QDropEvent,
        QIcon,
        QKeyEvent,
        QPaintEvent,
        QResizeEvent,
    )
    from PySide6.QtWidgets import QInputDialog, QMenu

    from app.config.trust import TrustRequest
    from app.ui.credentials_action import CredentialsOpener
    from app.ui.diagnose import DiagnoseButton
    from app.ui.dock import BottomDock
    from app.ui.resource_panel import PromptPanel, ResourcePanel
    from app.ui.results import ResultView
    from app.ui.server_actions import ServerActions
    from app.ui.sign_in import SignInBox
    from app.ui.tool_panel import ToolPanel
    from app.ui.tool_runner import ToolRunner
    from app.ui.trust_dialog import TrustPrompter

logger = logging.getLogger(__name__)

CATALOG_MAX_MIN_WIDTH = 300  # the most the catalog's column insists on (px) to show its tabs

GUIDE = str(
    QT_TRANSLATE_NOOP(
        "MainWindow",
        "Welcome to MCP Desk.\n\n"
        "MCP servers give AI apps tools: search the web, read files, query a database. "
        "Here you can try them yourself.\n\n"
        "1.  The “demo” server on the left is connecting by itself: MCP Desk connects every "
        "enabled server when it starts. Its tools appear in the middle.\n"
        "2.  Choose a tool, fill in the form, and press Run (Ctrl+Enter).\n\n"
        "To add your own server, find one in Servers → Browse the server directory, open a server "
        "package (.mcpb), or press “Add server…” and paste the command line or the snippet from the "
        "server's README. You do not need Node.js or uv: MCP Desk has its own. API keys you enter "
        "are kept in your computer's keychain.",
    )
)


# Python's logging, and most servers' loggers, start a stderr line with the level name.
_STDERR_LEVEL = re.compile(r"^\s*\[?(DEBUG|INFO|NOTICE|WARN(?:ING)?|ERROR|CRITICAL|FATAL)\b", re.IGNORECASE)
_LEVEL_NAMES = {"warn": "warning", "fatal": "critical"}


def stderr_level(text: str, default: str) -> str:
    """The level a stderr line states at its start (`WARNING …`, `[error] …`), else `default`:
    the engine cannot know it, and a warning filed as info would hide from the level filter."""
    m = _STDERR_LEVEL.match(text)
    if m is None:
        return default
    word = m.group(1).lower()
    return _LEVEL_NAMES.get(word, word)


def icon_from_server(icons: list[Any]) -> QIcon | None:
    """The server's own icon when it is embedded (a data: URI); remote icons are not fetched,
    so a server cannot learn when someone looks at its entry."""
    import base64
    import binascii

    from PySide6.QtGui import QIcon, QPixmap

    for spec in icons:
        src = str(spec.get("src", "")) if isinstance(spec, dict) else ""
        if not src.startswith("data:") or ";base64," not in src:
            continue
        try:
            data = base64.b64decode(src.split(";base64,", 1)[1], validate=False)
        except (binascii.Error, ValueError):
            continue
        pix = QPixmap()
        if pix.loadFromData(data):
            return QIcon(pix)
    return None


def _key_event_class() -> type[QKeyEvent]:
    from PySide6.QtGui import QKeyEvent

    return QKeyEvent


def _focusables(root: QWidget) -> list[QWidget]:
    """The widgets under `root` that Tab can reach, in the order they were made (the form's)."""
    out = []
    for w in root.findChildren(QWidget):
        if (
            w.isVisibleTo(root)
            and w.isEnabled()
            and w.focusPolicy() & Qt.FocusPolicy.TabFocus
            and w.focusProxy() is None
        ):
            out.append(w)
    return out


def _first_focusable(root: QWidget) -> QWidget | None:
    found = _focusables(root)
    return found[0] if found else None


def _last_focusable(root: QWidget) -> QWidget | None:
    found = _focusables(root)
    return found[-1] if found else None


FIRST_SIZE = QSize(1280, 820)


def first_size(available: QSize) -> QSize:
    """The window's size on a first start: 1280×820, or what the screen has room for once the
    title bar and the desktop's panels are counted (a 1280×800 laptop screen cut the buttons off)."""
    frame = 40  # a window manager's title bar and borders, which `available` does not subtract
    return QSize(
        max(640, min(FIRST_SIZE.width(), available.width())),
        max(480, min(FIRST_SIZE.height(), available.height() - frame)),
    )


class MainWindow(QMainWindow):
    """Signals:
    first_painted(): the window has been painted once (the engine is imported after this).
    call_finished(server, tool): a tool call ended (answered, failed or cancelled).
    notice_shown(text): a catalog change notice appeared.
    """

    first_painted = Signal()
    call_finished = Signal(str, str)
    notice_shown = Signal(str)
    resource_refreshed = Signal(str, str)  # server, uri: a subscribed resource was read again

    # The menus' actions (made by app/ui/menus.py), kept here for the code and tests that reach them.
    install_bundle_action: QAction
    import_menu: QMenu
    credentials: CredentialsOpener
    log_action: QAction
    developer_action: QAction
    language_menu: QMenu
    guide_action: QAction

    def __init__(self, controller: DeskController | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller or DeskController(self)
        self.setWindowTitle("MCP Desk")
        self.setObjectName("mainWindow")
        self._painted = False
        self._loaded: set[str] = set()  # servers whose first catalog has been shown
        self._runner: ToolRunner | None = None  # run, cancel, the destructive-tool question, history
        self._restoring: tuple[str, str, str] | None = None
        self._refreshing = False
        self._server_actions: ServerActions | None = None  # edit, duplicate, rename, remove, import…
        # Developer mode as the person left it (off on a first start).
        developer_mode().set_enabled(self._setting_on("developerMode"))

        # Models and panels
        self.server_model = ServerListModel(self)
        from app.ui.server_list import ServerPanel

        self.servers = ServerPanel(self.server_model)
        self.catalog = CatalogPanel()
        # The right-hand panels are built when first needed: a first start shows only the guide.
        self._tool_panel: ToolPanel | None = None
        self._resource_panel: ResourcePanel | None = None
        self._prompt_panel: PromptPanel | None = None
        self._saved_tool_splitter: QByteArray | None = None
        # The overview page: the selected server's state (and why it failed), what it says about
        # itself once connected, and the first-run guide.
        # It scrolls: the welcome guide under a failure's reason does not fit at 1024×700.
        self.guide = QScrollArea()
        self.guide.setObjectName("overview")
        self.guide.setWidgetResizable(True)
        self.guide.setFrameShape(QFrame.Shape.NoFrame)
        overview = QWidget()
        self.guide.setWidget(overview)
        gl = QVBoxLayout(overview)
        self.overview_title = plain_label("")
        f = self.overview_title.font()
        f.setBold(True)
        f.setPointSizeF(f.pointSizeF() * 1.3)
        self.overview_title.setFont(f)
        self.overview_title.setStyleSheet("padding: 0 12px;")
        gl.addWidget(self.overview_title)
        # Sign in needed / waiting for the browser / signed in as …: what the engine said last.
        # Built the first time a server has something to say about signing in (here, index 1).
        self._overview_layout = gl
        self._sign_in_box: SignInBox | None = None
        self.overview_reason = plain_label("")
        self.overview_reason.setObjectName("failureReason")
        self.overview_reason.hide()
        gl.addWidget(self.overview_reason)
        # Diagnose under a server that could not connect (app/ui/diagnose.py).
        # Built when a server first fails (the diagnose module is not needed for a first paint).
        self._diagnose_button: DiagnoseButton | None = None
        # What the server printed, in the activity log (opened on this server's lines).
        self.show_log_button = QPushButton(self.tr("Show log"))
        self.show_log_button.setObjectName("showLogButton")
        self.show_log_button.setFlat(True)
        self.show_log_button.setCursor(Qt.CursorShape.PointingHandCursor)
        self.show_log_button.setToolTip(self.tr("Open the activity log on what this server printed"))
        self.show_log_button.clicked.connect(lambda: self.show_log(self.current_server()))
        self.show_log_button.hide()
        self._failure_row = QHBoxLayout()
        self._failure_row.setContentsMargins(0, 0, 0, 0)
        self._failure_row.addWidget(self.show_log_button)
        self._failure_row.addStretch(1)
        gl.addLayout(self._failure_row)
        self.overview_info = plain_label("")
        self.overview_info.setStyleSheet("padding: 4px 12px;")
        gl.addWidget(self.overview_info)
        # The welcome guide stays until the person dismisses it ("Got it", remembered); Help →
        # Welcome guide shows it again.
        self.guide_box = QWidget()
        self.guide_box.setObjectName("guideBox")
        guide_lay = QVBoxLayout(self.guide_box)
        guide_lay.setContentsMargins(0, 0, 0, 0)
        self.guide_text = plain_label(self.tr(GUIDE))
        self.guide_text.setObjectName("guide")
        self.guide_text.setStyleSheet("font-size: 11pt; padding: 12px;")
        guide_lay.addWidget(self.guide_text)
        self.guide_dismiss = QPushButton(self.tr("Got it"))
        self.guide_dismiss.setObjectName("guideDismiss")
        self.guide_dismiss.setToolTip(self.tr("Hide the welcome guide (Help → Welcome guide shows it again)"))
        self.guide_dismiss.clicked.connect(self.dismiss_guide)
        dismiss_row = QHBoxLayout()
        dismiss_row.setContentsMargins(12, 0, 12, 12)  # in line with the guide's text
        dismiss_row.addWidget(self.guide_dismiss)
        dismiss_row.addStretch(1)
        guide_lay.addLayout(dismiss_row)
        gl.addWidget(self.guide_box)
        gl.addStretch(1)
        # Only ever hidden here: showing a child of a window not yet shown makes Qt lay out its
        # parent at once, the guide's long text included, at a size the window never has.
        if self._guide_dismissed():
            self.guide_box.hide()
        self.right = QStackedWidget()
        self.right.addWidget(self.guide)

        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setObjectName("mainSplitter")
        # Until the person drags a column (or one was saved), the columns follow the window's
        # width: a first window sized for a small screen and then enlarged gives the form the room.
        self._columns_chosen = False
        self.splitter.splitterMoved.connect(self._columns_moved)
        self.splitter.addWidget(self.servers)
        self.splitter.addWidget(self.catalog)
        self.splitter.addWidget(self.right)
        # A wider window gives its room to the form and the answer; the lists keep their width.
        # No column can be dragged to nothing (a collapsed list looks like a missing one).
        self.splitter.setChildrenCollapsible(False)
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setStretchFactor(2, 4)
        self.setCentralWidget(self.splitter)
        self._fit_columns()
        self.splitter.setSizes(self.column_sizes(1280))

        # The dock's Log/Traffic/History tabs are filled in just after the first paint (or when
        # first needed): nothing reaches them before the engine starts, which is later still.
        self._bottom: BottomDock | None = None
        # Hidden by default (a person first needs the form and the answer), closable, and back
        # from View → Activity log or a failed server's "Show log"; whether it is shown is kept
        # in the window's settings.
        self.dock = QDockWidget(self.tr("Activity log"), self)
        self.dock.setObjectName("bottomDock")
        self.dock.setWidget(QWidget())
        self.dock.setFeatures(
            QDockWidget.DockWidgetFeature.DockWidgetMovable
            | QDockWidget.DockWidgetFeature.DockWidgetFloatable
            | QDockWidget.DockWidgetFeature.DockWidgetClosable
        )
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.dock)
        self.resizeDocks([self.dock], [170], Qt.Orientation.Vertical)
        self.dock.hide()

        # A flat button: hover shows the names, a click shows them too (buttons never render HTML).
        self.notice = QPushButton()
        self.notice.setObjectName("notice")
        self.notice.setFlat(True)
        self.notice.clicked.connect(self._notice_details)
        self.notice.hide()
        self.statusBar().addPermanentWidget(self.notice)
        self._notice_timer = QTimer(self)
        self._notice_timer.setSingleShot(True)
        self._notice_timer.timeout.connect(self.notice.hide)

        self._apply_colours()
        from app.ui.menus import WindowMenus

        self.menus = WindowMenus(self)  # Servers, View (activity log, developer mode, language), Help
        self._build_shortcuts()
        self._build_tab_order()
        self._wire()
        # "Allow this program to run?" asks over this window; its dialog module loads when asked.
        self._trust_prompter: TrustPrompter | None = None
        self.controller.trust_prompt = self._ask_trust
        self.controller.approval_changed.connect(self.reload_servers)
        self.reload_servers()
        if self.controller.config_error:
            self.statusBar().showMessage(
                visible_line(
                    fill(self.tr("The server list could not be read: %1"), self.controller.config_error)
                )
            )
        elif self.controller.config_warnings:
            self._show_config_problem("\n".join(self.controller.config_warnings))

    # --- construction -------------------------------------------------------------------------
    def _apply_colours(self) -> None:
        """The coloured boxes in the palette's colours (theme.py): again on every palette change,
        so a dark window never shows a light box."""
        from app.ui.theme import notice_style

        self.overview_reason.setStyleSheet(notice_style("error", "QLabel#failureReason"))
        self.notice.setStyleSheet(f"QPushButton#notice {{ {notice_style('info')} padding: 2px 8px; }}")
        self.show_log_button.setStyleSheet(
            "QPushButton#showLogButton { color: palette(link); text-decoration: underline;"
            " border: none; padding: 4px 8px; }"
        )

    def _fit_columns(self) -> None:
        """The catalog's column at least as wide as its tabs ("Tools (13)", "Resources (4)", …):
        the counts and the language change their width, and a clipped tab bar hides a kind."""
        # The tab pane's frame on each side: a few pixels (not asked of QStyle, whose enums cost
        # tens of milliseconds to create before the first paint).
        need = self.catalog.tabs.tabBar().sizeHint().width() + 2 * 2
        lay = self.catalog.layout()
        if lay is not None:
            m = lay.contentsMargins()
            need += m.left() + m.right()
        need += 4  # the list's own frame
        # Past this the tabs' words are elided rather than the form squeezed: at 1024 wide the
        # form and its answer need the room more than "Resources (12)" needs all its letters.
        need = min(need, CATALOG_MAX_MIN_WIDTH)
        if need > self.catalog.minimumWidth():
            self.catalog.setMinimumWidth(need)

    def column_sizes(self, width: int) -> list[int]:
        """The three columns for a window `width` wide: the lists at their comfortable width
        (narrower at 1024), the form and its answer the rest."""
        servers = max(self.servers.minimumSizeHint().width(), 220 if width < 1200 else 250)
        catalog = max(self.catalog.minimumWidth(), 280 if width < 1200 else 320)
        return [servers, catalog, max(width - servers - catalog, 300)]

    def _columns_moved(self, _pos: int, _index: int) -> None:
        self._columns_chosen = True

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if not self._columns_chosen:
            self.splitter.setSizes(self.column_sizes(self.width()))

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        palette_events = (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange)
        if event.type() in palette_events and hasattr(self, "notice"):
            self._apply_colours()

    def _build_shortcuts(self) -> None:
        QShortcut(QKeySequence.StandardKey.Find, self).activated.connect(self.catalog.focus_search)
        for seq in ("Ctrl+Return", "Ctrl+Enter"):
            QShortcut(QKeySequence(seq), self).activated.connect(self.run_current)
        QShortcut(QKeySequence(Qt.Key.Key_Escape), self).activated.connect(self.cancel_call)

    def _build_tab_order(self) -> None:
        """Tab walks the window as a person reads it: server list → search → the catalog's list
        → the selected tool's form → Run. The panels on the right are built later than the
        dock, so without this Tab from the list jumped to the Log tab."""
        QWidget.setTabOrder(self.servers.view, self.catalog.search)
        self.servers.view.installEventFilter(self)
        for view in self.catalog.views.values():
            QWidget.setTabOrder(self.catalog.search, view)
            view.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ShortcutOverride and watched is self.servers.view:
            # A key on the list before the link actions were added (Ctrl+V of an install link):
            # added now, before Qt looks up the key's shortcut. Not on focus: the list takes the
            # focus as the window opens, before its first paint.
            self.menus.link_actions()
        if (
            event.type() == QEvent.Type.KeyPress
            and isinstance(event, _key_event_class())
            and event.key() == Qt.Key.Key_Tab
            and event.modifiers() in (Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.KeypadModifier)
            and watched in self.catalog.views.values()
            and self._focus_right_panel()
        ):
            return True
        return super().eventFilter(watched, event)

    def _focus_right_panel(self) -> bool:
        """Tab from the catalog's list: into the shown panel's form (its first field), else its
        Run/Read/Get button. False when the overview is shown (Tab goes on as usual)."""
        panel = self.right.currentWidget()
        if panel is None or panel is self.guide:
            return False
        form = getattr(panel, "form", None)
        first = _first_focusable(form) if isinstance(form, QWidget) else None
        run = getattr(panel, "run_button", None)
        if first is not None and isinstance(form, QWidget):
            last = _last_focusable(form)
            if isinstance(run, QWidget) and last is not None:
                # The form is rebuilt per tool: Tab from its last field goes to Run.
                QWidget.setTabOrder(last, run)
            first.setFocus(Qt.FocusReason.TabFocusReason)
            return True
        if isinstance(run, QWidget) and run.isEnabled():
            run.setFocus(Qt.FocusReason.TabFocusReason)
            return True
        first = _first_focusable(panel)
        if first is not None:
            first.setFocus(Qt.FocusReason.TabFocusReason)
            return True
        return False

    def _wire(self) -> None:
        b: EngineBridge = self.controller.bridge
        b.state_changed.connect(self.on_state_changed)
        b.catalog_changed.connect(self.on_catalog_changed)
        b.log_line_received.connect(self.on_log_line)
        b.traffic_recorded.connect(self.on_traffic)
        b.progress_reported.connect(self.on_progress)
        b.resource_updated.connect(self.on_resource_updated)
        b.sign_in_waiting.connect(self.on_sign_in_waiting)
        self.controller.servers_changed.connect(self.reload_servers)
        self.controller.config_failed.connect(self._show_config_problem)
        self.controller.config_warning.connect(self._show_config_problem)
        self.controller.watch_config(self)  # outside edits (an editor, the CLI) show up here
        self.controller.signed_out.connect(self.on_signed_out)
        self.servers.action_triggered.connect(self.on_server_action)
        self.servers.add_requested.connect(self.add_server)
        self.servers.selection_changed.connect(self.on_server_selected)
        self.catalog.item_selected.connect(self.on_item_selected)
        self.first_painted.connect(self._after_first_paint)

    # --- built after the first paint, or on first use ------------------------------------------
    @property
    def bottom(self) -> BottomDock:
        if self._bottom is None:
            from app.ui.dock import BottomDock

            b = self._bottom = BottomDock()
            b.history_selected.connect(self.runner.show_history)
            b.rerun_requested.connect(self.runner.rerun_history)
            b.set_log_level_source(self.controller.log_level)  # h12-elicit: the server's log level
            b.server_log_level_chosen.connect(
                lambda server, level: self.controller.spawn(
                    self.controller.set_log_level(server, level), self._show_error
                )
            )
            b.set_servers(self.server_model.names())
            old = self.dock.widget()
            self.dock.setWidget(b)
            old.deleteLater()
        return self._bottom

    @Slot()
    def _after_first_paint(self) -> None:
        # One loop turn later: the painted window answers input first.
        QTimer.singleShot(0, lambda: self.bottom)
        QTimer.singleShot(0, self.menus.link_actions)

    # Made by WindowMenus.link_actions after the first paint; asked for earlier, made now.
    @property
    def open_link_action(self) -> QAction:
        self.menus.link_actions()
        return self._open_link_action

    @open_link_action.setter
    def open_link_action(self, action: QAction) -> None:
        self._open_link_action = action

    @property
    def link_paste_shortcut(self) -> QShortcut:
        self.menus.link_actions()
        return self._link_paste_shortcut

    @link_paste_shortcut.setter
    def link_paste_shortcut(self, shortcut: QShortcut) -> None:
        self._link_paste_shortcut = shortcut

    # --- right-hand panels, built on first use -------------------------------------------------
    @property
    def tool_panel(self) -> ToolPanel:
        if self._tool_panel is None:
            from app.ui.tool_panel import ToolPanel

            p = self._tool_panel = ToolPanel()
            p.run_requested.connect(self.run_current)
            p.cancel_requested.connect(self.cancel_call)
            p.draft_saved.connect(self.bottom.history_model.set_draft)  # drafts in History
            self._wire_result(p.result)
            if self._saved_tool_splitter is not None:
                p.splitter.restoreState(self._saved_tool_splitter)
            self.right.addWidget(p)
        return self._tool_panel

    @property
    def resource_panel(self) -> ResourcePanel:
        if self._resource_panel is None:
            from app.ui.resource_panel import ResourcePanel

            p = self._resource_panel = ResourcePanel()
            p.read_requested.connect(self.read_resource)
            p.subscribe_toggled.connect(self.toggle_subscription)
            p.is_subscribed = self.controller.is_subscribed
            p.connection_of = self.controller.connection  # the server's suggestions as one types
            self._wire_result(p.result)
            self.right.addWidget(p)
        return self._resource_panel

    @property
    def prompt_panel(self) -> PromptPanel:
        if self._prompt_panel is None:
            from app.ui.resource_panel import PromptPanel

            p = self._prompt_panel = PromptPanel()
            p.get_requested.connect(self.get_prompt)
            p.connection_of = self.controller.connection  # the server's suggestions as one types
            self._wire_result(p.result)
            self.right.addWidget(p)
        return self._prompt_panel

    def _wire_result(self, rv: ResultView) -> None:
        rv.link_requested.connect(self.open_link)
        rv.resource_link_clicked.connect(self.read_resource_link)

    @property
    def runner(self) -> ToolRunner:
        """Runs the shown tool (app/ui/tool_runner.py), made on first use."""
        if self._runner is None:
            from app.ui.tool_runner import ToolRunner

            self._runner = ToolRunner(self)
        return self._runner

    @property
    def server_actions(self) -> ServerActions:
        """Edit, duplicate, rename, disable, remove, import, export (app/ui/server_actions.py)."""
        if self._server_actions is None:
            from app.ui.server_actions import ServerActions

            self._server_actions = ServerActions(self)
        return self._server_actions

    @property
    def trust_prompter(self) -> TrustPrompter:
        """Shows the trust dialog (app/ui/trust_dialog.py), made on first use."""
        if self._trust_prompter is None:
            from app.ui.trust_dialog import TrustPrompter

            self._trust_prompter = TrustPrompter(self)
        return self._trust_prompter

    async def _ask_trust(self, request: TrustRequest) -> bool:
        return await self.trust_prompter(request)

    @property
    def sign_in_box(self) -> SignInBox:
        """The overview's sign-in box (app/ui/sign_in.py), made when first needed."""
        if self._sign_in_box is None:
            from app.ui.sign_in import SignInBox

            box = self._sign_in_box = SignInBox()
            box.sign_in_clicked.connect(lambda name: self.on_server_action("sign_in", name))
            box.cancel_clicked.connect(lambda name: self.on_server_action("cancel_sign_in", name))
            box.sign_out_clicked.connect(lambda name: self.on_server_action("sign_out", name))
            box.link_copied.connect(
                lambda _name: self.statusBar().showMessage(self.tr("Sign-in link copied"), 5000)
            )
            self._overview_layout.insertWidget(1, box)  # under the title
        return self._sign_in_box

    @property
    def diagnose_button(self) -> DiagnoseButton:
        """Diagnose… beside Show log under a failed server (app/ui/diagnose.py)."""
        if self._diagnose_button is None:
            from app.ui.diagnose import DiagnoseButton

            self._diagnose_button = DiagnoseButton(self)
            self._failure_row.insertWidget(0, self._diagnose_button)
        return self._diagnose_button

    def built_tool_panel(self) -> ToolPanel | None:
        """The tool panel if it was built (without building it)."""
        return self._tool_panel

    def _shown_tool(self) -> tuple[str | None, Any]:
        """(server, tool) the tool panel shows, without building the panel."""
        p = self._tool_panel
        return (p.server, p.tool) if p is not None else (None, None)

    # --- first paint and the engine -----------------------------------------------------------
    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if not self._painted:
            self._painted = True
            # Let this paint reach the screen before the SDK import takes the thread.
            QTimer.singleShot(0, self.first_painted.emit)

    def start_engine(self, *, connect_enabled: bool = False) -> asyncio.Task[list[str]] | None:
        """Import the engine in a worker thread (returns at once). With `connect_enabled`, every
        enabled server then connects in the background; the task's result is their names."""
        from app.ui.requests import GuiHandlers

        self.controller.start_engine(GuiHandlers(self))
        if not connect_enabled:
            return None
        # The rows change when the engine says so (connecting…, waiting for your approval, …),
        # never before: a row marked here could not know which server waits for the trust prompt.
        # Until the engine is there, the status bar says why nothing moves yet.
        if self.controller.manager is None:
            self.statusBar().showMessage(self.tr("Starting the servers…"))
            self.controller.engine_started.connect(self.statusBar().clearMessage)
        return self.controller.spawn(self.controller.connect_at_start(), on_error=self._show_error)

    # --- servers ------------------------------------------------------------------------------
    @Slot()
    def reload_servers(self) -> None:
        gone = set(self.server_model.names())
        rows = []
        session_only = self.controller.session_only_servers()
        for e in self.controller.entries():
            old = self.server_model.server(e.name)
            row = ServerRow(e.name, e.transport, bool(getattr(e, "disabled", False)))
            notes = []
            if self.controller.waiting_for_approval(e.name):
                row.declined = True
                notes.append(self.tr("waiting for your approval: press Connect"))
            if e.name in session_only:
                notes.append(self.tr("key kept for this session only"))
            row.note = " · ".join(notes)
            if old is not None:
                row.state, row.reason, row.tool_count = old.state, old.reason, old.tool_count
                row.sign_in_url, row.auth = old.sign_in_url, old.auth
            rows.append(row)
        self.server_model.set_servers(rows)
        names = self.server_model.names()
        for name in gone - set(names):  # e.g. removed from the file by another program
            self._clear_server(name)
        if self._bottom is not None:
            self._bottom.set_servers(names)
        if not self.servers.current() and names:
            self.servers.select(names[0])

    def current_server(self) -> str:
        return self.servers.current()

    @Slot(str, str)
    def on_server_action(self, action: str, name: str) -> None:
        self.server_actions.on_action(action, name)  # app/ui/server_actions.py

    @Slot(str)
    def on_signed_out(self, name: str) -> None:
        # A server not connected this session gets no event from the engine: ask the keychain.
        self.controller.spawn(self._read_auth(name))

    async def _read_auth(self, name: str) -> None:
        """What the keychain says of the server's sign-in, for the overview and the menu."""
        entry = self.controller.entry(name)
        if entry is None or getattr(entry, "transport", "stdio") == "stdio":
            return
        try:
            status = await self.controller.auth_status(name)
        except Exception as exc:  # a locked keychain: nothing to show, the connection says the rest
            logger.info("cannot read the sign-in of %s: %s", name, exc)
            status = None
        self.server_model.update_auth(name, status if status is not None and status.signed_in else None)
        if name == self.current_server():
            self._update_empty_state()

    def _show_error(self, exc: BaseException) -> None:
        logger.warning("action failed: %s", exc)
        if not shiboken6.isValid(self):
            return  # the window is gone (quitting): the log has it
        # May quote the server: one visible line.
        self.statusBar().showMessage(visible_line(fill(self.tr("That did not work: %1"), exc)), 10000)

    @Slot(str)
    def _show_config_problem(self, text: str) -> None:
        # Plain text (a file name or a server name may hold anything); the first line, the rest
        # in the log.
        first = text.splitlines()[0] if text else ""
        self.statusBar().showMessage(fill(self.tr("Server list: %1"), visible_line(first)), 30000)

    @Slot()
    def add_server(self) -> None:
        self.server_actions.add_server()

    def edit_server(self, name: str) -> None:
        self.server_actions.edit_server(name)

    def import_from(self, source: str) -> None:
        self.server_actions.import_from(source)

    def export_servers(self) -> None:
        self.server_actions.export_servers()

    async def rename_server(self, name: str) -> str | None:
        return await self.server_actions.rename_server(name)

    async def remove_server(self, name: str) -> None:
        await self.server_actions.remove_server(name)

    @property
    def rename_dialog(self) -> QInputDialog | None:
        return self.server_actions.rename_dialog

    # --- a .mcpb/.dxt dropped on the window is installed ----------------------------------------
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        from app.ui.bundle_dialog import dropped_bundles

        if dropped_bundles(event.mimeData()):
            event.acceptProposedAction()
        else:
            super().dragEnterEvent(event)

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:
        from app.ui.bundle_dialog import dropped_bundles

        if dropped_bundles(event.mimeData()):
            event.acceptProposedAction()
        else:
            super().dragMoveEvent(event)

    def dropEvent(self, event: QDropEvent) -> None:
        from app.ui.bundle_dialog import dropped_bundles, install_bundle_file

        paths = dropped_bundles(event.mimeData())
        if not paths:
            super().dropEvent(event)
            return
        event.acceptProposedAction()
        self.controller.spawn(install_bundle_file(self, paths[0]), self._show_error)

    # --- engine events ------------------------------------------------------------------------
    @Slot(str, str)
    def on_sign_in_waiting(self, server: str, url: str) -> None:
        self.server_model.update_sign_in_wait(server, url)
        if server == self.current_server():
            self._update_empty_state()

    @Slot(str, str, str)
    def on_state_changed(self, server: str, state: str, reason: str) -> None:
        self.server_model.update_state(server, state, reason)
        if state == READY:
            self.controller.spawn(self._read_auth(server))
            first = server not in self._loaded
            self._loaded.add(server)
            self._show_server_icon(server)
            for kind in KINDS:
                self._refresh_kind(server, kind)
            if first and self._restoring and self._restoring[0] == server:
                _, kind, key = self._restoring
                self._restoring = None
                if self.catalog.select(kind, server, key):
                    pass
        elif state in (FAILED, "closed", "idle", NEEDS_SIGN_IN):
            self._loaded.discard(server)
            self._clear_server(server)
        if server == self.current_server() or state == READY:
            self._update_empty_state()

    def _show_server_icon(self, server: str) -> None:
        conn = self.controller.connection(server)
        info = getattr(conn, "server_info", None)
        icon = icon_from_server(getattr(info, "icons", None) or [])
        title = str(getattr(info, "title", None) or "")
        self.server_model.update_info(server, title, icon)

    def _clear_server(self, server: str) -> None:
        for kind in KINDS:
            self.catalog.models[kind].clear_server(server)
        self.catalog.update_counts()
        self._fit_columns()
        if self._shown_tool()[0] == server and self.right.currentWidget() is self._tool_panel:
            self.right.setCurrentWidget(self.guide)

    def _refresh_kind(self, server: str, kind: str) -> tuple[list[str], list[str], list[str]]:
        conn = self.controller.connection(server)
        if conn is None:
            return [], [], []
        from app.ui.bridge import catalog_kind  # (h11-seams) `kind` came through a signal as str

        entries = conn.catalog.of(catalog_kind(kind))
        items = [item_from(kind, server, obj, str(key)) for key, obj in entries.items()]
        view = self.catalog.views[kind]
        before = view.currentIndex()
        self._refreshing = True
        try:
            result = self.catalog.models[kind].set_items(server, items)
            if before.isValid() and not self._still_current(kind):
                # The shown item was removed and the cursor slid to a neighbour: show no cursor,
                # so the panel keeps saying what happened instead of silently switching tools.
                view.setCurrentIndex(QModelIndex())
        finally:
            self._refreshing = False
        if kind == "tools":
            self.server_model.update_tool_count(server, len(items))
        self.catalog.update_counts()
        self._fit_columns()
        return result

    def _still_current(self, kind: str) -> bool:
        """After a refresh: is the view's cursor still on the item the right panel shows?"""
        item = self.catalog.current_item(kind)
        if kind != "tools":
            return item is not None
        server, tool = self._shown_tool()
        return item is not None and item.server == server and item.key == getattr(tool, "name", None)

    @Slot(str, str, object)
    def on_catalog_changed(self, server: str, kind: str, diff: Any) -> None:
        if server not in self._loaded:
            return  # the first listing is shown when the server becomes ready
        self._refresh_kind(server, kind)
        if kind == "tools" and self._shown_tool()[0] == server and self._shown_tool()[1] is not None:
            name = self.tool_panel.tool.name
            conn = self.controller.connection(server)
            tools = conn.catalog.tools if conn is not None else {}
            if name in diff.removed or name not in tools:
                self.tool_panel.mark_removed()
            elif name in diff.changed:
                self.tool_panel.show_tool(server, tools[name], keep_input=True)
        if diff:
            text, details = describe_diff(kind, diff)
            self.show_notice(fill(self.tr("%1: %2"), server, text), details)

    @Slot()
    def _notice_details(self) -> None:
        from PySide6.QtWidgets import QToolTip

        QToolTip.showText(
            self.notice.mapToGlobal(self.notice.rect().topLeft()), self.notice.toolTip(), self.notice
        )

    def show_notice(self, text: str, details: str) -> None:
        self.notice.setText(visible_line(text))
        self.notice.setToolTip(plain_tooltip(details))  # names come from the server: escaped
        self.notice.show()
        self._notice_timer.start(8000)
        self.notice_shown.emit(text)

    @Slot(object)
    def on_log_line(self, ev: Any) -> None:
        from app.ui.models.log import LogRow

        level = ev.level
        if ev.source == "stderr":
            level = stderr_level(ev.text, level)
        self.bottom.log_model.append(LogRow(ev.time, ev.server, level, ev.source, ev.text))

    @Slot(object)
    def on_traffic(self, ev: Any) -> None:
        from app.ui.models.log import TrafficRow

        self.bottom.traffic_model.append(TrafficRow.of(ev))  # its message is made when shown

    @Slot(str, str, float, object, str)
    def on_progress(self, server: str, call_id: str, progress: float, total: Any, message: str) -> None:
        if self._runner is not None:  # no call was ever run: the progress is not ours
            self._runner.on_progress(call_id, progress, total, message)

    @Slot(str, str)
    def on_resource_updated(self, server: str, uri: str) -> None:
        p = self._resource_panel
        if p is None or p.server != server or p.uri != uri:
            return
        if self.controller.is_subscribed(server, uri):
            # Subscribed and on screen: show the new version rather than ask for a click.
            async def reread() -> None:
                await self._read(server, uri, p.result)
                p.mark_refreshed(uri, time.strftime("%H:%M:%S"))
                self.resource_refreshed.emit(server, uri)

            self.controller.spawn(reread(), self._show_error)
        else:
            p.mark_updated(uri)

    # --- selection ----------------------------------------------------------------------------
    @Slot(str)
    def on_server_selected(self, server: str) -> None:
        self.catalog.set_server(server or None)
        shown = self._shown_server()
        if shown is not None and shown != server and not self.catalog.all_servers.isChecked():
            self.right.setCurrentWidget(self.guide)  # don't keep showing another server's tool
        self._update_empty_state()
        row = self.server_model.server(server) if server else None
        if row is not None and row.state == READY and row.signed_in:
            # Tokens renew silently: the expiry shown is the one the keychain holds now.
            self.controller.spawn(self._read_auth(server))

    def _shown_server(self) -> str | None:
        w = self.right.currentWidget()
        if w is None or w is self.guide:
            return None
        return getattr(w, "server", None)

    def _update_empty_state(self) -> None:
        server = self.current_server()
        row = self.server_model.server(server) if server else None
        self.overview_reason.hide()
        self.overview_info.setText("")
        failed = row is not None and row.state == FAILED
        if failed or self._diagnose_button is not None:
            self.diagnose_button.show_for(server if failed else None)
        self.show_log_button.setVisible(row is not None and row.state == FAILED)
        if row is None:
            self.catalog.empty.setText("")
            self.overview_title.setText("")
            if self._sign_in_box is not None:
                self._sign_in_box.clear()
            return
        # The reason is in the box below (a failure, a sign-in): the title says only what it is.
        status = self.tr("couldn't connect") if row.state == FAILED else row.status_text()
        if row.state == NEEDS_SIGN_IN:
            status = self.tr("sign in needed")
        self.overview_title.setText(fill(self.tr("%1 — %2"), server, status))
        if row.state == NEEDS_SIGN_IN:
            self.sign_in_box.show_needed(server, row.reason)
        elif row.waiting_for_sign_in:
            self.sign_in_box.show_waiting(server, row.sign_in_url)
        elif row.state == READY and row.signed_in:
            self.sign_in_box.show_signed_in(server, row.auth)
        elif self._sign_in_box is not None:
            self._sign_in_box.clear()
        if row.state == NEEDS_SIGN_IN:
            self.catalog.empty.setText(fill(self.tr("Sign in to %1 to see its tools."), visible_line(server)))
        elif row.waiting_for_sign_in:
            waiting = self.tr("Waiting for you to sign in to %1…")
            self.catalog.empty.setText(fill(waiting, visible_line(server)))
        elif row.state == FAILED:
            reason = translate_reason(row.reason)  # the engine's sentence in the window's language
            self.catalog.empty.setText(fill(self.tr("Couldn't connect to %1: %2"), server, reason))
            self.overview_reason.setText(
                fill(
                    self.tr(
                        "Couldn't connect to “%1”:\n%2\n\n"
                        "Fix the server's settings with Edit: saving a change tries again by itself "
                        "(Reconnect tries again as it is). "
                        "Show log shows what the server printed."
                    ),
                    server,
                    reason,
                )
            )
            self.overview_reason.show()
        elif row.state in (CONNECTING, INSTALLING):
            self.catalog.empty.setText(fill(self.tr("Connecting to %1… its tools will appear here."), server))
        elif row.waiting_for_approval and not row.declined:
            self.catalog.empty.setText(
                fill(self.tr("%1 waits for your approval to run: its tools will appear here."), server)
            )
        elif row.state != READY:
            self.catalog.empty.setText(
                fill(self.tr("%1 is not connected. Press Connect to see its tools."), server)
            )
        else:
            self.catalog.empty.setText("")
            self.overview_info.setText(self._server_info_text(server))

    def _server_info_text(self, server: str) -> str:
        conn = self.controller.connection(server)
        if conn is None:
            return ""
        info = getattr(conn, "server_info", None)
        lines = []
        if info is not None:
            name = getattr(info, "title", None) or getattr(info, "name", "") or server
            version = getattr(info, "version", "") or ""
            lines.append(f"{name} {version}".strip())
        version = getattr(conn, "protocol_version", None)
        if version and developer_mode().enabled():
            lines.append(self.tr("Protocol %1").replace("%1", str(version)))
        instructions = getattr(conn, "instructions", None)
        if instructions:
            lines += ["", str(instructions)]
        lines += ["", self.tr("Choose a tool, resource or prompt in the middle to try it.")]
        return "\n".join(lines)

    @Slot(str, object)
    def on_item_selected(self, kind: str, item: Any) -> None:
        if item is None or self._refreshing:
            return  # a refresh moved the view's cursor; the person did not choose anything
        conn = self.controller.connection(item.server)
        can_sub = bool(conn and (conn.capabilities or {}).get("resources", {}).get("subscribe"))
        if kind == "tools":
            self.tool_panel.show_tool(item.server, item.obj)
            self.right.setCurrentWidget(self.tool_panel)
        elif kind == "resources":
            self.resource_panel.show_resource(
                item.server, item.obj, self.controller.is_subscribed(item.server, item.key), can_sub
            )
            self.right.setCurrentWidget(self.resource_panel)
        elif kind == "resource_templates":
            self.resource_panel.show_template(item.server, item.obj, can_sub)
            self.right.setCurrentWidget(self.resource_panel)
        elif kind == "prompts":
            self.prompt_panel.show_prompt(item.server, item.obj)
            self.right.setCurrentWidget(self.prompt_panel)

    # --- running tools (app/ui/tool_runner.py) ------------------------------------------------
    @Slot()
    def run_current(self) -> None:
        self.runner.run_current()

    async def _run(self, server: str, tool: Any, arguments: Any = None) -> None:
        await self.runner.run(server, tool, arguments)

    @property
    def _call_task(self) -> asyncio.Task[Any] | None:
        return self._runner.task if self._runner is not None else None

    @_call_task.setter
    def _call_task(self, task: asyncio.Task[Any] | None) -> None:
        self.runner.task = task

    @Slot()
    def cancel_call(self) -> None:
        self.runner.cancel()

    # --- resources and prompts ----------------------------------------------------------------
    @Slot(str, str)
    def read_resource(self, server: str, uri: str) -> None:
        self.controller.spawn(self._read(server, uri, self.resource_panel.result))

    async def _read(self, server: str, uri: str, view: ResultView) -> None:
        conn = self.controller.connection(server)
        view.clear(self.tr("Reading…"))
        try:
            if conn is None:
                raise RuntimeError(fill(self.tr("%1 is not connected"), server))
            result = await conn.read_resource(uri)
        except Exception as exc:
            view.show_failure(str(exc) or type(exc).__name__)
            return
        contents = result.get("contents") if isinstance(result, dict) else getattr(result, "contents", result)
        view.show_contents(list(contents or []), uri)

    @Slot(str)
    def read_resource_link(self, uri: str) -> None:
        """A resource link in a result: read it and show it in its own window."""
        server = self._shown_tool()[0] or self.current_server()
        from PySide6.QtWidgets import QDialog

        from app.ui.results import ResultView

        d = QDialog(self)
        d.setWindowTitle(visible_line(uri))
        d.resize(600, 480)
        lay = QVBoxLayout(d)
        view = ResultView()
        view.link_requested.connect(self.open_link)
        lay.addWidget(view)
        d.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        d.show()
        self.controller.spawn(self._read(server, uri, view))

    @Slot(str, str, bool)
    def toggle_subscription(self, server: str, uri: str, on: bool) -> None:
        # The engine's connection keeps the subscriptions (and renews them after a reconnect).
        self.controller.spawn(self.controller.set_subscribed(server, uri, on), self._show_error)

    @Slot(str, str, object)
    def get_prompt(self, server: str, name: str, args: Any) -> None:
        async def go() -> None:
            conn = self.controller.connection(server)
            try:
                if conn is None:
                    raise RuntimeError(fill(self.tr("%1 is not connected"), server))
                result = await conn.get_prompt(name, args)
            except Exception as exc:
                self.prompt_panel.result.show_failure(str(exc) or type(exc).__name__)
                return
            self.prompt_panel.show_messages(result)

        self.controller.spawn(go())

    @Slot("QUrl")  # by name: importing QUrl here would create its enums before the first paint
    def open_link(self, url: QUrl) -> None:
        self.controller.spawn(confirm_and_open(self, url))

    # --- the welcome guide ----------------------------------------------------------------------
    def _guide_dismissed(self) -> bool:
        return self._setting_on("guideDismissed")

    @Slot()
    def dismiss_guide(self) -> None:
        """The "Got it" button: the guide goes, and stays gone at the next start."""
        self.guide_box.hide()
        s = self.ui_settings()
        s.setValue("guideDismissed", True)
        s.sync()

    @Slot()
    def show_guide(self) -> None:
        """Help → Welcome guide: the overview page with the guide on it, until "Got it"."""
        self.guide_box.show()
        self.right.setCurrentWidget(self.guide)
        self.guide_dismiss.setFocus()

    # --- the activity log, developer mode, language ------------------------------------------
    @Slot(str)
    def show_log(self, server: str = "") -> None:
        """Show the activity log (the dock, on its Log tab), on `server`'s lines when given."""
        bottom = self.bottom
        self.dock.show()
        self.dock.raise_()
        bottom.show_log(server or None)

    @Slot(bool)
    def set_developer_mode(self, on: bool) -> None:
        """View → Developer mode: switched for every view, and remembered."""
        developer_mode().set_enabled(on)
        s = self.ui_settings()
        s.setValue("developerMode", on)
        s.sync()

    @Slot(bool)
    def _developer_mode_changed(self, on: bool) -> None:
        if self.developer_action.isChecked() != on:
            self.developer_action.setChecked(on)
        if self.server_model.names():
            self._update_empty_state()  # the protocol version is shown in developer mode only

    def _setting_on(self, key: str) -> bool:
        value = self.ui_settings().value(key, False)
        return value is True or str(value).lower() == "true"

    # --- state kept between runs --------------------------------------------------------------
    def ui_settings(self) -> QSettings:
        from app.config.paths import config_dir

        return QSettings(str(config_dir() / "window.ini"), QSettings.Format.IniFormat)

    def restore_state(self) -> None:
        s = self.ui_settings()
        geo = s.value("geometry")
        if isinstance(geo, QByteArray):
            self.restoreGeometry(geo)
        else:
            self.resize(first_size(self.screen().availableGeometry().size()))
        state = s.value("windowState")
        if isinstance(state, QByteArray):
            self.restoreState(state)
        # Hidden unless the person left it open (the saved window state may say otherwise).
        self.dock.setVisible(self._setting_on("logShown"))
        v = s.value("mainSplitter")
        if isinstance(v, QByteArray):
            self.splitter.restoreState(v)
            self._columns_chosen = True
        else:
            self.splitter.setSizes(self.column_sizes(self.width()))
        v = s.value("toolSplitter")
        if isinstance(v, QByteArray):
            self._saved_tool_splitter = v
        server = s.value("lastServer")
        if isinstance(server, str) and server:
            self.servers.select(server)
            kind, key = s.value("lastKind"), s.value("lastItem")
            if isinstance(kind, str) and isinstance(key, str) and key:
                self._restoring = (server, kind, key)

    def save_state(self) -> None:
        s = self.ui_settings()
        s.setValue("geometry", self.saveGeometry())
        s.setValue("windowState", self.saveState())
        s.setValue("logShown", not self.dock.isHidden())
        s.setValue("mainSplitter", self.splitter.saveState())
        if self._tool_panel is not None:
            s.setValue("toolSplitter", self._tool_panel.splitter.saveState())
        s.setValue("lastServer", self.current_server())
        kind = self.catalog.current_kind()
        item = self.catalog.current_item(kind)
        s.setValue("lastKind", kind)
        s.setValue("lastItem", item.key if item is not None else "")
        s.sync()

    def closeEvent(self, event: QCloseEvent) -> None:
        try:
            self.save_state()
        except Exception:
            logger.exception("could not save the window state")
        super().closeEvent(event)
