"""The credentials view: every key MCP Desk keeps for this server list, by server.

What is listed comes from `app.secrets.inventory` (the keyring's index and the server list, names
only). Every keyring call goes through the SecretStore's async twins, so it runs in a worker
thread while the view says "reading your keychain…". A value reaches the screen only after the
person confirms, and only for `reveal_ms`: then a timer takes it off the line edit (with its undo
history) and the view holds it nowhere. Set or replace takes the value in a masked field and
hands it straight to the store.

Sign-out is the window's job (it may have a connection to close): the view asks for it with
`sign_out_requested` and is reloaded afterwards.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeVar

from PySide6.QtCore import QDateTime, QModelIndex, Qt, QTimer, Signal, Slot
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QFont,
    QHideEvent,
    QKeySequence,
    QShortcut,
    QStandardItem,
    QStandardItemModel,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from app.secrets.inventory import Inventory, Kind, SecretItem, Usage, clean_up_orphans, read_inventory
from app.ui.async_dialogs import ask, keyboard_rule, run_dialog
from app.ui.credentials_widgets import KeychainNotice, SecretDialog
from app.ui.dialog_style import with_icon
from app.ui.safe_text import plain_label, plain_tooltip, visible_line

if TYPE_CHECKING:
    from app.config.model import ServerEntry
    from app.secrets.store import SecretStore

logger = logging.getLogger(__name__)

T = TypeVar("T")

SERVER_ROLE = Qt.ItemDataRole.UserRole + 61
NAME_ROLE = Qt.ItemDataRole.UserRole + 62  # None on a server's row

COLUMNS = 4  # key, kind, used for, last changed


class CredentialsView(QDialog):
    """Keys and sign-ins of every server, and what can be done with them.

    Signals:
        sign_out_requested(server): the person asked to sign out of `server`; whoever handles it
            calls `reload()` when done.
        loaded(): the list was read again (or the keychain's problem is shown).
        keys_changed(): a key was set or deleted here, or keys now live in this session only.
        value_hidden(): a revealed value was taken off the screen.
    """

    sign_out_requested = Signal(str)
    loaded = Signal()
    keys_changed = Signal()
    value_hidden = Signal()

    reveal_ms = 10_000

    def __init__(
        self,
        secrets: SecretStore,
        entries: Callable[[], Iterable[ServerEntry]],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.secrets = secrets
        self._entries = entries
        self.inventory: Inventory | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._generation = 0
        self._busy = 0
        self.secret_dialog: SecretDialog | None = None  # while one is open (tests type into it)
        self.setObjectName("credentialsView")
        self.setWindowTitle(self.tr("Keys and sign-ins"))
        self.setWindowFlag(Qt.WindowType.WindowMaximizeButtonHint, True)
        self.resize(820, 520)

        outer = QVBoxLayout(self)
        self.intro = plain_label(
            self.tr(
                "The keys MCP Desk keeps for your servers. Their values stay in your computer's "
                "keychain; select a key to replace, show or delete it."
            )
        )
        outer.addWidget(self.intro)
        self.notice = KeychainNotice(self)
        self.notice.keep_for_session.connect(self.keep_for_session)
        self.notice.retry.connect(self.reload)
        outer.addWidget(self.notice)

        self.model = QStandardItemModel(0, COLUMNS, self)
        self.model.setHorizontalHeaderLabels(
            [self.tr("Key"), self.tr("Kind"), self.tr("Used for"), self.tr("Last changed")]
        )
        self.tree = QTreeView()
        self.tree.setObjectName("credentialsTree")
        self.tree.setModel(self.model)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.tree.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.tree.setUniformRowHeights(True)
        self.tree.setAllColumnsShowFocus(True)
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for col in (1, 2, 3):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        self.tree.selectionModel().currentChanged.connect(self._current_changed)
        self.tree.activated.connect(self._activated)
        outer.addWidget(self.tree, 1)

        self.status = plain_label("")
        self.status.setObjectName("credentialsStatus")
        outer.addWidget(self.status)

        # The revealed value: a read-only field, emptied (history too) when the timer fires.
        self.reveal_box = QFrame()
        self.reveal_box.setObjectName("revealBox")
        rl = QHBoxLayout(self.reveal_box)
        rl.setContentsMargins(0, 0, 0, 0)
        self.reveal_label = plain_label("", wrap=False)
        rl.addWidget(self.reveal_label)
        self.revealed = QLineEdit()
        self.revealed.setObjectName("revealedValue")
        self.revealed.setReadOnly(True)
        rl.addWidget(self.revealed, 1)
        self.hide_button = QPushButton(self.tr("&Hide"))
        self.hide_button.setAutoDefault(False)
        self.hide_button.clicked.connect(self.hide_value)
        rl.addWidget(self.hide_button)
        self.reveal_box.hide()
        outer.addWidget(self.reveal_box)
        self.reveal_timer = QTimer(self)
        self.reveal_timer.setSingleShot(True)
        self.reveal_timer.timeout.connect(self.hide_value)

        row = QHBoxLayout()
        self.set_button = self._button(self.tr("&Set or replace…"), self.set_selected)
        with_icon(self.set_button, "key")
        self.reveal_button = self._button(self.tr("&Reveal…"), self.reveal_selected)
        self.delete_button = self._button(self.tr("&Delete…"), self.delete_selected)
        with_icon(self.delete_button, "remove")
        self.sign_out_button = self._button(self.tr("Sign &out"), self.sign_out_selected)
        self.clean_button = self._button(self.tr("&Clean up unused keys…"), self.clean_up)
        self.refresh_button = self._button(self.tr("Re&fresh"), self.reload)
        with_icon(self.refresh_button, "refresh")
        self.close_button = self._button(self.tr("Close"), self.close)
        self.set_button.setToolTip(self.tr("Type or paste a new value for the selected key (Enter)"))
        self.reveal_button.setToolTip(self.tr("Show the selected key's value for a few seconds"))
        self.delete_button.setToolTip(
            self.tr("Remove the selected key from your computer's keychain (Delete)")
        )
        self.sign_out_button.setToolTip(self.tr("Forget this server's sign-in; you can sign in again later"))
        self.clean_button.setToolTip(self.tr("Delete every key of servers that are no longer in your list"))
        self.refresh_button.setToolTip(self.tr("Read the list from your computer's keychain again (F5)"))
        for b in (self.set_button, self.reveal_button, self.delete_button, self.sign_out_button):
            row.addWidget(b)
        row.addStretch(1)
        for b in (self.clean_button, self.refresh_button, self.close_button):
            row.addWidget(b)
        outer.addLayout(row)

        # Keys: Delete deletes (after asking), Enter sets, F5 reads again; Esc closes (QDialog).
        self.delete_action = QAction(self.tr("Delete…"), self.tree)
        self.delete_action.setShortcut(QKeySequence(QKeySequence.StandardKey.Delete))
        self.delete_action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self.delete_action.triggered.connect(self.delete_selected)
        self.tree.addAction(self.delete_action)
        QShortcut(QKeySequence(QKeySequence.StandardKey.Refresh), self).activated.connect(self.reload)
        QShortcut(QKeySequence("F5"), self).activated.connect(self.reload)

        order: list[QWidget] = [
            self.notice.retry_button,
            self.notice.session_button,
            self.tree,
            self.revealed,
            self.hide_button,
            self.set_button,
            self.reveal_button,
            self.delete_button,
            self.sign_out_button,
            self.clean_button,
            self.refresh_button,
            self.close_button,
        ]
        for first, second in itertools.pairwise(order):
            QWidget.setTabOrder(first, second)
        self.tree.setFocus()
        keyboard_rule(self, ctrl_enter=False)  # nothing to accept: Close closes
        self._update_actions()

    def _button(self, text: str, slot: Callable[[], Any]) -> QPushButton:
        b = QPushButton(text)
        # Enter in the list sets the key; no button may take it as the dialog's default.
        b.setAutoDefault(False)
        b.setDefault(False)
        b.clicked.connect(lambda _=False: slot())
        return b

    # --- loading ---------------------------------------------------------------------------------
    @Slot()
    def reload(self) -> asyncio.Task[None]:
        """Read the list again (in a worker thread); the returned task ends when it is shown."""
        self.hide_value()
        self._generation += 1
        return self._spawn(self._load(self._generation))

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        self._tasks.add(task)

        def done(t: asyncio.Task[Any]) -> None:
            self._tasks.discard(t)
            if not t.cancelled() and t.exception() is not None:
                logger.error("credentials view task failed", exc_info=t.exception())

        task.add_done_callback(done)
        return task

    async def _load(self, generation: int) -> None:
        from app.secrets.errors import KeyringLockedError, KeyringUnavailableError, SecretStoreError

        self.status.setText(self.tr("reading your keychain…"))
        self._busy += 1
        self._update_actions()
        inventory: Inventory | None = None
        problem: Callable[[], None] | None = None
        try:
            inventory = await read_inventory(self.secrets, self._entries())
        except KeyringUnavailableError:
            problem = self._show_unavailable
        except KeyringLockedError:
            problem = self._show_locked
        except SecretStoreError as exc:
            message = str(exc)
            problem = lambda: self._show_problem(message)  # noqa: E731
        finally:
            self._busy -= 1
        if generation != self._generation:
            return  # a newer read is on its way; it shows its own answer
        if problem is not None:
            problem()
        else:
            self.notice.hide()
            self._fill(inventory)
        self._update_actions()
        self.loaded.emit()

    def _show_unavailable(self) -> None:
        self._fill(None)
        self.notice.show_message(
            self.tr("This computer has no usable keychain, so MCP Desk cannot keep keys."),
            self.tr("Keys are never written to a file. You can keep them until MCP Desk closes."),
            retry=True,
        )
        self.status.setText("")

    def _show_locked(self) -> None:
        self._fill(None)
        self.notice.show_message(
            self.tr("Your computer's keychain is locked, or unlocking it was cancelled."),
            self.tr("Unlock it and press Try again, or keep keys until MCP Desk closes."),
            retry=True,
        )
        self.status.setText("")

    def _show_problem(self, message: str) -> None:
        self._fill(None)
        first = message.strip().splitlines()[0] if message.strip() else ""
        self.notice.show_message(
            self.tr("Your computer's keychain could not be read: %1").replace("%1", first),
            self.tr("Press Try again, or keep keys until MCP Desk closes."),
            retry=True,
        )
        self.status.setText("")

    @Slot()
    def keep_for_session(self) -> None:
        """The person chose: keys live in this session's memory until MCP Desk closes."""
        self.secrets.use_session_only()
        self.notice.hide()
        self.keys_changed.emit()
        self.reload()

    def _fill(self, inventory: Inventory | None) -> None:
        keep = self._selected_key()
        self.inventory = inventory
        self.model.removeRows(0, self.model.rowCount())
        if inventory is None:
            return
        for group in inventory.servers:
            title = visible_line(group.server)
            if not group.exists:
                title = self.tr("%1 — no server uses this any more").replace("%1", title)
            head = QStandardItem(title)
            head.setData(group.server, SERVER_ROLE)
            head.setData(None, NAME_ROLE)
            font = QFont(head.font())
            font.setBold(True)
            head.setFont(font)
            cells = [head] + [QStandardItem("") for _ in range(COLUMNS - 1)]
            for cell in cells:
                cell.setEditable(False)
            for item in group.items:
                children = self._row(item)
                head.appendRow(children)
            self.model.appendRow(cells)
            # The server's row is a heading across the columns (its note is too long for one).
            self.tree.setFirstColumnSpanned(self.model.rowCount() - 1, QModelIndex(), True)
        self.tree.expandAll()
        self._select(keep)
        count = len(inventory.items())
        if self.secrets.session_only:
            self.status.setText(self.tr("No keychain: keys are kept until MCP Desk closes."))
        elif count == 0:
            self.status.setText(self.tr("MCP Desk keeps no keys for your servers."))
        else:
            self.status.setText("")

    def _row(self, item: SecretItem) -> list[QStandardItem]:
        name = QStandardItem(visible_line(item.name))
        name.setToolTip(plain_tooltip(item.name))
        kind = QStandardItem(self.kind_text(item.kind))
        used = QStandardItem(
            self.tr("no server uses this any more")
            if item.orphan
            else ", ".join(self.usage_text(u) for u in item.usages)
        )
        used.setToolTip(plain_tooltip(used.text()))
        changed = QStandardItem(self.changed_text(item))
        cells = [name, kind, used, changed]
        for cell in cells:
            cell.setEditable(False)
            cell.setData(item.server, SERVER_ROLE)
            cell.setData(item.name, NAME_ROLE)
            if not item.stored:
                # Italic, not a colour: it reads in light and dark palettes alike.
                font = QFont(cell.font())
                font.setItalic(True)
                cell.setFont(font)
        return cells

    def kind_text(self, kind: Kind) -> str:
        return {
            Kind.ENV: self.tr("environment variable"),
            Kind.HEADER: self.tr("header"),
            Kind.ARGUMENT: self.tr("argument"),
            Kind.URL: self.tr("URL part"),
            Kind.OAUTH_TOKENS: self.tr("sign-in token"),
            Kind.OAUTH_CLIENT_SECRET: self.tr("sign-in client secret"),
            Kind.OAUTH_REGISTRATION: self.tr("sign-in registration"),
            Kind.UNUSED: self.tr("key"),
        }[kind]

    def usage_text(self, usage: Usage) -> str:
        where = visible_line(usage.where)
        match usage.kind:
            case Kind.ENV:
                return self.tr("environment %1").replace("%1", where)
            case Kind.HEADER:
                return self.tr("header %1").replace("%1", where)
            case Kind.ARGUMENT:
                return self.tr("argument %1").replace("%1", where)
            case Kind.URL:
                return self.tr("URL")
            case Kind.OAUTH_TOKENS | Kind.OAUTH_REGISTRATION:
                return self.tr("sign in")
            case Kind.OAUTH_CLIENT_SECRET:
                return self.tr("sign in (client secret)")
            case Kind.UNUSED:
                return self.tr("not used by the server's settings")

    def changed_text(self, item: SecretItem) -> str:
        if not item.stored:
            return self.tr("not set")
        if item.changed_at is None:
            return self.tr("unknown")
        # One unambiguous form in every language (a short locale date like 1/12/26 is not).
        return QDateTime.fromMSecsSinceEpoch(int(item.changed_at * 1000)).toString("yyyy-MM-dd HH:mm")

    # --- selection -------------------------------------------------------------------------------
    def _selected_key(self) -> tuple[str, str | None] | None:
        index = self.tree.currentIndex()
        if not index.isValid():
            return None
        index = index.siblingAtColumn(0)
        return index.data(SERVER_ROLE), index.data(NAME_ROLE)

    def selected_item(self) -> SecretItem | None:
        key = self._selected_key()
        if key is None or key[1] is None or self.inventory is None:
            return None
        return next(
            (i for i in self.inventory.items() if (i.server, i.name) == key),
            None,
        )

    def selected_server(self) -> str | None:
        key = self._selected_key()
        return key[0] if key is not None else None

    def select(self, server: str, name: str | None = None) -> bool:
        return self._select((server, name))

    def _select(self, key: tuple[str, str | None] | None) -> bool:
        if key is None:
            return False
        for r in range(self.model.rowCount()):
            head = self.model.item(r, 0)
            if head is None or head.data(SERVER_ROLE) != key[0]:
                continue
            target = head.index()
            if key[1] is not None:
                for c in range(head.rowCount()):
                    child = head.child(c, 0)
                    if child is not None and child.data(NAME_ROLE) == key[1]:
                        target = child.index()
                        break
                else:
                    continue
            self.tree.setCurrentIndex(target)
            return True
        return False

    @Slot(QModelIndex, QModelIndex)
    def _current_changed(self, current: QModelIndex, previous: QModelIndex) -> None:
        # A value shown for one key never stays on screen beside another.
        self.hide_value()
        self._update_actions()

    @Slot(QModelIndex)
    def _activated(self, index: QModelIndex) -> None:
        if self.set_button.isEnabled():
            self.set_selected()

    def _update_actions(self) -> None:
        ready = self.inventory is not None and self._busy == 0
        item = self.selected_item()
        server = self.selected_server()
        group = self.inventory.server(server) if self.inventory is not None and server else None
        can_set = (
            ready
            and group is not None
            and group.exists
            and (item is None or item.kind not in (Kind.OAUTH_TOKENS, Kind.OAUTH_REGISTRATION))
        )
        self.set_button.setEnabled(can_set)
        self.reveal_button.setEnabled(ready and item is not None and item.stored)
        self.delete_button.setEnabled(ready and item is not None and item.stored)
        self.delete_action.setEnabled(self.delete_button.isEnabled())
        self.sign_out_button.setEnabled(ready and group is not None and group.exists and group.signed_in)
        self.clean_button.setEnabled(ready and self.inventory is not None and bool(self.inventory.orphans()))
        self.refresh_button.setEnabled(self._busy == 0)

    # --- actions ---------------------------------------------------------------------------------
    @Slot()
    def set_selected(self) -> asyncio.Task[None] | None:
        if not self.set_button.isEnabled():
            return None
        return self._spawn(self._set(self.selected_server(), self.selected_item()))

    async def _set(self, server: str | None, item: SecretItem | None) -> None:
        if server is None:
            return
        dialog = SecretDialog(server, item.name if item is not None else None, self)
        self.secret_dialog = dialog
        try:
            if await run_dialog(dialog) != QDialog.DialogCode.Accepted:
                return
            name, value = dialog.take()
        finally:
            self.secret_dialog = None
            dialog.deleteLater()
        ok, _ = await self._change(self.secrets.aset(server, name, value))
        del value
        if not ok:
            return
        self.keys_changed.emit()
        await self.reload()
        self.select(server, name)
        self.status.setText(
            self.tr("Saved. %1 uses the new key the next time it connects.").replace(
                "%1", visible_line(server)
            )
        )

    @Slot()
    def reveal_selected(self) -> asyncio.Task[None] | None:
        item = self.selected_item()
        if item is None or not self.reveal_button.isEnabled():
            return None
        return self._spawn(self._reveal(item))

    async def _reveal(self, item: SecretItem) -> None:
        from app.secrets.errors import SecretStoreError

        seconds = max(1, round(self.reveal_ms / 1000))
        ok, _ = await ask(
            self,
            self.tr("Show the key?"),
            self.tr("Show the key %1 of %2 on screen?").replace("%1", item.name).replace("%2", item.server),
            informative=self.tr(
                "Anyone who can see your screen can read it. It is hidden again after %1 seconds."
            ).replace("%1", str(seconds)),
            yes=self.tr("Show"),
            no=self.tr("Cancel"),
        )
        if not ok:
            return
        try:
            value = await self.secrets.aget(item.server, item.name)
        except SecretStoreError as exc:
            self._show_problem(str(exc))
            return
        if value is None:
            self.status.setText(self.tr("That key is not set any more."))
            self.reload()
            return
        if self._selected_key() != (item.server, item.name) or not self.isVisible():
            return  # the person moved on while the keychain answered: show nothing
        self.reveal_label.setText(
            self.tr("%1 of %2 (hidden again in %3 s):")
            .replace("%1", item.name)
            .replace("%2", item.server)
            .replace("%3", str(seconds))
        )
        self.revealed.setText(value)
        del value
        self.revealed.setCursorPosition(0)
        self.reveal_box.show()
        self.reveal_timer.start(self.reveal_ms)

    @Slot()
    def hide_value(self) -> None:
        """Take a revealed value off the screen: the field is emptied (setText also drops its undo
        history, which clear() would keep) and nothing else here held it."""
        self.reveal_timer.stop()
        shown = self.reveal_box.isVisible() or bool(self.revealed.text())
        self.revealed.setText("")
        self.reveal_label.setText("")
        self.reveal_box.hide()
        if shown:
            self.value_hidden.emit()

    @Slot()
    def delete_selected(self) -> asyncio.Task[None] | None:
        item = self.selected_item()
        if item is None or not self.delete_button.isEnabled():
            return None
        return self._spawn(self._delete(item))

    async def _delete(self, item: SecretItem) -> None:
        if item.kind in (Kind.OAUTH_TOKENS, Kind.OAUTH_REGISTRATION):
            consequence = self.tr("You will need to sign in to %1 again.")
        elif item.orphan:
            consequence = self.tr("No server uses it any more.")
        else:
            consequence = self.tr("%1 cannot use it until you set it again.")
        ok, _ = await ask(
            self,
            self.tr("Delete the key?"),
            self.tr("Delete the key %1 of %2 from your computer's keychain?")
            .replace("%1", item.name)
            .replace("%2", item.server),
            informative=consequence.replace("%1", item.server),
            yes=self.tr("Delete"),
            no=self.tr("Cancel"),
            icon=QMessageBox.Icon.Warning,
        )
        if not ok:
            return
        if not (await self._change(self.secrets.adelete(item.server, item.name)))[0]:
            return
        self.keys_changed.emit()
        await self.reload()
        if not self.select(item.server, None):
            self.tree.setCurrentIndex(self.model.index(0, 0))
        self.status.setText(self.tr("Deleted %1.").replace("%1", visible_line(item.name)))

    @Slot()
    def sign_out_selected(self) -> None:
        server = self.selected_server()
        if server is None or not self.sign_out_button.isEnabled():
            return
        self.status.setText(self.tr("Signing out of %1…").replace("%1", visible_line(server)))
        self.sign_out_requested.emit(server)

    @Slot()
    def clean_up(self) -> asyncio.Task[None] | None:
        if self.inventory is None or not self.clean_button.isEnabled():
            return None
        return self._spawn(self._clean_up(self.inventory))

    async def _clean_up(self, inventory: Inventory) -> None:
        orphans = inventory.orphans()
        servers = sorted({i.server for i in orphans})
        ok, _ = await ask(
            self,
            self.tr("Clean up unused keys?"),
            self.tr("Delete %n key(s) of servers that are no longer in your list?", "", len(orphans)),
            informative="\n".join(servers),
            yes=self.tr("Delete them"),
            no=self.tr("Cancel"),
            icon=QMessageBox.Icon.Warning,
        )
        if not ok:
            return
        ok, removed = await self._change(clean_up_orphans(self.secrets, inventory))
        if not ok:
            return
        self.keys_changed.emit()
        await self.reload()
        self.status.setText(self.tr("Deleted %n unused key(s).", "", len(removed or ())))

    async def _change(self, change: Awaitable[T]) -> tuple[bool, T | None]:
        """One change to the keychain with the actions greyed out meanwhile; a failure is shown
        in the view (not raised), and the answer says whether the change was made."""
        from app.secrets.errors import KeyringUnavailableError, SecretStoreError

        self._busy += 1
        self._update_actions()
        try:
            return True, await change
        except KeyringUnavailableError:
            self._show_unavailable()
        except SecretStoreError as exc:
            self._show_problem(str(exc))
        finally:
            self._busy -= 1
            self._update_actions()
        return False, None

    # --- closing ---------------------------------------------------------------------------------
    def hideEvent(self, event: QHideEvent) -> None:
        self.hide_value()
        super().hideEvent(event)

    def closeEvent(self, event: QCloseEvent) -> None:
        self.hide_value()
        super().closeEvent(event)


async def forget_sign_in(secrets: SecretStore, server: str) -> None:
    """Sign out without a connection to close: the engine's `forget` when it is there, else the
    tokens and registration straight from the store (a pre-registered client secret stays)."""
    import importlib

    try:
        auth = importlib.import_module("app.mcp.auth")  # the engine's; absent in older builds
    except ImportError:
        auth = None
    forget = getattr(auth, "forget", None)
    if forget is not None:
        await forget(secrets, server)
        return
    from app.secrets.inventory import Kind, oauth_kind

    names = await secrets.alist_names(server)
    assert isinstance(names, list)
    for name in names:
        if oauth_kind(name) in (Kind.OAUTH_TOKENS, Kind.OAUTH_REGISTRATION):
            await secrets.adelete(server, name)
