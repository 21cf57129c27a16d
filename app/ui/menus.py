"""The window's menus: Servers (add, the directory, a package, a link, import, export, connect
all, keys, quit), View (the activity log, developer mode, the language) and Help (the guide).

Built once for the window; the actions the window and tests reach stay attributes of the window
(`log_action`, `developer_action`, `language_menu`, `guide_action`, …).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QObject, Slot
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu

from app.ui.developer_mode import developer_mode

if TYPE_CHECKING:
    from app.ui.window import MainWindow


class WindowMenus(QObject):
    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        w = window
        m = w.menuBar().addMenu(self.tr("&Servers"))
        add = QAction(self.tr("&Add server…"), w)
        add.triggered.connect(w.add_server)
        m.addAction(add)
        # The ways to add a server found elsewhere: the directory, a package file, a link.
        from app.ui.registry_action import add_browse_action

        add_browse_action(w, m)
        # The package dialog's module (and the dialog helpers behind it) is imported when the
        # person picks this, not before the window's first paint; its words stay in its context.
        package = QAction(QCoreApplication.translate("BundleDialog", "Install a server package (.mcpb)…"), w)
        package.setObjectName("installBundleAction")
        package.triggered.connect(lambda: _choose_bundle(w))
        m.addAction(package)
        w.install_bundle_action = package
        self.servers_menu = m
        self._link_actions = False  # "Open an install link…": added by link_actions()
        m.aboutToShow.connect(self.link_actions)
        w.setAcceptDrops(True)  # a package dropped on the window is installed
        w.import_menu = m.addMenu(self.tr("&Import from"))
        for label, source in (
            ("Claude Desktop", "claude"),  # the apps' names are not translated
            ("Cursor", "cursor"),
            ("VS Code", "vscode"),
            (self.tr("File…"), "file"),
        ):
            a = QAction(label, w)
            a.triggered.connect(lambda _=False, s=source: w.import_from(s))
            w.import_menu.addAction(a)
        exp = QAction(self.tr("&Export…"), w)
        exp.triggered.connect(w.export_servers)
        m.addAction(exp)
        m.addSeparator()
        connect_all = QAction(self.tr("Connect &all"), w)
        connect_all.triggered.connect(lambda: w.controller.spawn(w.controller.connect_enabled()))
        m.addAction(connect_all)
        m.addSeparator()
        from app.ui.credentials_action import CredentialsOpener

        w.credentials = CredentialsOpener(w, m)  # "Keys and sign-ins…", menu and toolbar
        m.addSeparator()
        quit_ = QAction(self.tr("&Quit"), w)
        # The platform's Quit keys; Ctrl+Q where it has none (Windows, the offscreen platform).
        keys = QKeySequence.keyBindings(QKeySequence.StandardKey.Quit) or [QKeySequence("Ctrl+Q")]
        quit_.setShortcuts(keys)
        quit_.triggered.connect(w.close)
        m.addAction(quit_)
        v = w.menuBar().addMenu(self.tr("&View"))
        w.log_action = w.dock.toggleViewAction()
        w.log_action.setObjectName("activityLogAction")
        w.log_action.setText(self.tr("&Activity log"))
        w.log_action.setShortcut(QKeySequence("Ctrl+L"))
        v.addAction(w.log_action)
        # Developer mode: tool ids, the JSON views, protocol versions, the messages (traffic).
        w.developer_action = QAction(self.tr("&Developer mode"), w)
        w.developer_action.setObjectName("developerModeAction")
        w.developer_action.setCheckable(True)
        w.developer_action.setChecked(developer_mode().enabled())
        w.developer_action.setToolTip(
            self.tr("Show what developers need: tool ids, raw results, protocol versions, messages")
        )
        # Remembered when the person switches it here (triggered), not when a view follows along.
        w.developer_action.triggered.connect(w.set_developer_mode)
        developer_mode().changed.connect(w._developer_mode_changed)
        v.addAction(w.developer_action)
        v.addSeparator()
        w.language_menu = v.addMenu(self.tr("&Language"))
        w.language_menu.setObjectName("languageMenu")
        self._build_language_menu(w.language_menu)
        h = w.menuBar().addMenu(self.tr("&Help"))
        w.guide_action = QAction(self.tr("&Welcome guide"), w)
        w.guide_action.setObjectName("welcomeGuideAction")
        w.guide_action.triggered.connect(w.show_guide)
        h.addAction(w.guide_action)
        # h13-life: the log file and its folder (crash reports), for a person asked to send them.
        from app.ui.help_actions import add_log_actions

        add_log_actions(w, h)

    @Slot()
    def link_actions(self) -> None:
        """ "Open an install link…" under the other ways to add a server, and Ctrl+V of a link on
        the server list (app/ui/open_target.py).

        Added just after the first paint, or earlier when the menu opens, a key is pressed on
        the list or code asks for the action: that module and the ones it needs (links, install
        plans) cost tens of milliseconds that the first paint does not need."""
        if self._link_actions:
            return
        self._link_actions = True
        from app.ui.open_target import add_link_actions

        w = self.window
        made = QMenu()  # add_link_actions appends to a menu: made here, then moved into place
        add_link_actions(w, made)
        before = w.import_menu.menuAction()
        for action in made.actions():
            made.removeAction(action)
            self.servers_menu.insertAction(before, action)
        made.deleteLater()

    def _build_language_menu(self, menu: QMenu) -> None:
        from PySide6.QtGui import QActionGroup

        from app.ui.i18n import chosen_language, languages

        group = QActionGroup(menu)
        group.setExclusive(True)
        chosen = chosen_language()
        for code, name in languages():
            # Each language's name in itself (not translated); "" is the system's language.
            a = QAction(name if code else self.tr("As the system"), menu)
            a.setCheckable(True)
            a.setChecked(code == chosen)
            a.setData(code)
            a.setObjectName(f"language_{code or 'system'}")
            group.addAction(a)
            menu.addAction(a)
        group.triggered.connect(self._language_chosen)

    @Slot(QAction)
    def _language_chosen(self, action: QAction) -> None:
        from app.ui.i18n import choose_language, chosen_language

        code = str(action.data() or "")
        if code == chosen_language():
            return
        choose_language(code)
        from app.ui.async_dialogs import inform

        self.window.controller.spawn(
            inform(
                self.window,
                self.tr("Language"),
                self.tr("MCP Desk will use the new language the next time it starts."),
            )
        )


def _choose_bundle(window: MainWindow) -> None:
    from app.ui.bundle_dialog import choose_bundle

    choose_bundle(window)
