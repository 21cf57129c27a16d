"""The server list: one row per configured server with its connection state and tool count."""

from __future__ import annotations

import logging
import re
from typing import Any

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QAbstractListModel,
    QByteArray,
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtGui import QIcon

from app.mcp.states import WAITING_FOR_APPROVAL, WAITING_FOR_BROWSER, ConnectionState
from app.ui.i18n import translate_reason
from app.ui.safe_text import plain_tooltip, visible_line
from app.ui.theme import state_colour

logger = logging.getLogger(__name__)

Index = QModelIndex | QPersistentModelIndex

# Connection states: the engine's ConnectionState (a str enum, equal to the word the bridge's
# state_changed carries: READY == "ready"). DISABLED is the list's own (an entry switched off).
IDLE = ConnectionState.IDLE
CONNECTING = ConnectionState.CONNECTING
INSTALLING = ConnectionState.INSTALLING  # npx/uvx download the server on its first start
READY = ConnectionState.READY
FAILED = ConnectionState.FAILED
CLOSED = ConnectionState.CLOSED
NEEDS_SIGN_IN = ConnectionState.NEEDS_SIGN_IN
DISABLED = "disabled"

# Each state's look: its icon (app.ui.icons "state-KEY") and colour (app.ui.theme.state_colour),
# both following the palette. Not a failure is never red: in progress is amber, "your turn" is
# blue (sign in, allow it to run), at rest is grey.
STATE_KEYS = {
    IDLE: "disconnected",
    CONNECTING: "connecting",
    INSTALLING: "installing",  # in progress, like connecting: not a failure
    READY: "connected",
    FAILED: "failed",
    CLOSED: "disconnected",
    NEEDS_SIGN_IN: "needs-sign-in",
    DISABLED: "disabled",
}

# The words of glossary.md (translated where shown: QCoreApplication.translate("ServerRow", w)).
STATE_WORDS: dict[str, str] = {  # str(): QT_TRANSLATE_NOOP returns its text, typed object
    IDLE: str(QT_TRANSLATE_NOOP("ServerRow", "not connected")),
    CONNECTING: str(QT_TRANSLATE_NOOP("ServerRow", "connecting…")),
    INSTALLING: str(QT_TRANSLATE_NOOP("ServerRow", "installing the server…")),
    READY: str(QT_TRANSLATE_NOOP("ServerRow", "connected")),
    FAILED: str(QT_TRANSLATE_NOOP("ServerRow", "couldn't connect")),
    CLOSED: str(QT_TRANSLATE_NOOP("ServerRow", "disconnected")),
    DISABLED: str(QT_TRANSLATE_NOOP("ServerRow", "disabled")),
}


def _tr(text: str) -> str:
    return QCoreApplication.translate("ServerRow", text)


class ServerPlurals(QObject):
    """Plurals through `self.tr(text, "", n)`: the form pyside6-lupdate marks as plural (numerus)."""

    def tools(self, n: int) -> str:
        return self.tr("%n tool(s)", "", n)


_plural_words: list[ServerPlurals] = []


def _plurals() -> ServerPlurals:
    if not _plural_words:
        _plural_words.append(ServerPlurals())
    return _plural_words[0]


# The engine's reason when a server simply wants a sign-in; any other reason is worth showing.
PLAIN_SIGN_IN_REASON = "sign in needed"
# The engine's INSTALLING reason, "installing the server… (fetching NAME)": NAME is shown in the
# translated sentence (it is a package's name, not a word to translate).
_FETCHING = re.compile(r"\(fetching (.+)\)\s*$")


class ServerRow:
    """One server's line in the list. A plain class, not a dataclass: a dataclass of this many
    fields costs ~4 M instructions to define (its methods compiled from generated source on
    every import), on the way to the first paint. Rows are compared by their shown fields (not
    the icon or the keychain's answer), as the dataclass compared them."""

    __slots__ = (
        "auth",
        "declined",
        "disabled",
        "icon",
        "name",
        "note",
        "reason",
        "sign_in_url",
        "state",
        "title",
        "tool_count",
        "transport",
    )

    def __init__(
        self,
        name: str,
        transport: str = "stdio",
        disabled: bool = False,
        state: str = IDLE,
        reason: str = "",
        tool_count: int | None = None,
        title: str = "",
        icon: QIcon | None = None,
        note: str = "",
        declined: bool = False,
        sign_in_url: str = "",
        auth: Any = None,
    ) -> None:
        self.name = name
        self.transport = transport
        self.disabled = disabled
        self.state = state
        self.reason = reason
        self.tool_count = tool_count
        self.title = title
        self.icon = icon
        self.note = note  # something true of the entry whatever its state ("key kept for this session only")
        # The person said "Don't run" to it as it is now: the note says so ("press Connect"), and
        # the engine's "waiting for your approval" reads as "not connected".
        self.declined = declined
        # The sign-in page's address while the engine waits for the browser (its SignInWaiting
        # event); empty otherwise. Gone with the next state that is not "connecting".
        self.sign_in_url = sign_in_url
        # What the keychain says of this server's sign-in (app.mcp.auth.AuthStatus), read by the
        # window after the engine's events; None when not known or not signed in.
        self.auth = auth

    def _compared(self) -> tuple[object, ...]:
        return (
            self.name, self.transport, self.disabled, self.state, self.reason, self.tool_count,
            self.title, self.note, self.declined, self.sign_in_url,
        )  # fmt: skip

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ServerRow):
            return NotImplemented
        return self._compared() == other._compared()

    __hash__ = None  # type: ignore[assignment]  # mutable, as the dataclass was

    def __repr__(self) -> str:
        return f"ServerRow{self._compared()!r}"

    @property
    def waiting_for_sign_in(self) -> bool:
        return self.state == CONNECTING and bool(self.sign_in_url)

    @property
    def waiting_for_approval(self) -> bool:
        """The engine said it waits for the person to allow it to run (its turn for the prompt)."""
        return self.state == IDLE and self.reason == WAITING_FOR_APPROVAL

    @property
    def signed_in(self) -> bool:
        return bool(self.auth is not None and getattr(self.auth, "signed_in", False))

    @property
    def shown_state(self) -> str:
        """The state as the list shows it: a disabled server at rest reads "disabled"."""
        return DISABLED if self.disabled and self.state in (IDLE, CLOSED) else self.state

    def state_key(self) -> str:
        """Which look (icon and colour) the row has: a STATE_KEYS value, or "waiting"."""
        if self.waiting_for_sign_in:
            return "needs-sign-in"
        if self.waiting_for_approval and not self.declined:
            return "waiting"
        return STATE_KEYS.get(self.shown_state, "disconnected")

    def title_text(self) -> str:
        """The row's first line: the name the person knows it by (the window, the guide and the
        menus say it too); the server's own title is in the tooltip."""
        return visible_line(self.name)

    def tool_count_text(self) -> str:
        """'12 tools' while connected and the count is known, else ''."""
        if self.shown_state != READY or self.tool_count is None:
            return ""
        return _plurals().tools(self.tool_count)

    def status_text(self) -> str:
        """One line a person can read: 'connected · 12 tools', "couldn't connect: command not found"."""
        base = self.state_text()
        count = self.tool_count_text()
        if count:
            base = f"{base} · {count}"
        return f"{base} · {self.note}" if self.note else base

    def state_text(self) -> str:
        """The state in words (and why, when it did not connect), without the tool count."""
        state = self.shown_state
        if state == NEEDS_SIGN_IN:
            needed = QCoreApplication.translate("ServerRow", "sign in needed")
            if self.reason and self.reason.strip().lower() != PLAIN_SIGN_IN_REASON:
                return f"{needed}: {translate_reason(self.reason)}"
            return needed
        if state == INSTALLING:
            fetching = _FETCHING.search(self.reason or "")
            if fetching is None:
                return QCoreApplication.translate("ServerRow", "installing the server…")
            return QCoreApplication.translate("ServerRow", "installing the server… (fetching %1)").replace(
                "%1", visible_line(fetching.group(1))
            )
        if self.waiting_for_sign_in:
            return QCoreApplication.translate("ServerRow", "waiting for you to sign in…")
        if self.waiting_for_approval and not self.declined:
            return QCoreApplication.translate("ServerRow", "waiting for your OK")
        if state == FAILED and self.reason:
            # The engine's English sentences are translated by their template (app.mcp.reasons);
            # a server's own words stay as they are.
            failed = QCoreApplication.translate("ServerRow", "couldn't connect: %1")
            return failed.replace("%1", translate_reason(self.reason))
        words = STATE_WORDS.get(state)
        return _tr(words) if words is not None else state


class ServerListModel(QAbstractListModel):
    """Rows of ServerRow, updated in place so the selection survives state changes."""

    NameRole = Qt.ItemDataRole.UserRole + 1
    StateRole = Qt.ItemDataRole.UserRole + 2
    ReasonRole = Qt.ItemDataRole.UserRole + 3
    ToolCountRole = Qt.ItemDataRole.UserRole + 4
    StatusTextRole = Qt.ItemDataRole.UserRole + 5
    StateColourRole = Qt.ItemDataRole.UserRole + 6
    TransportRole = Qt.ItemDataRole.UserRole + 7
    DisabledRole = Qt.ItemDataRole.UserRole + 8
    StateKeyRole = Qt.ItemDataRole.UserRole + 9  # "connected", "failed", …: the icon and colour
    StateTextRole = Qt.ItemDataRole.UserRole + 10  # the state in words, without the tool count
    ToolCountTextRole = Qt.ItemDataRole.UserRole + 11  # "12 tools", or ""
    TitleRole = Qt.ItemDataRole.UserRole + 12  # the first line: the name, invisible characters shown

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._rows: list[ServerRow] = []

    # --- Qt model API -------------------------------------------------------------------------
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = self._rows[index.row()]
        if role == self.NameRole:
            return row.name  # the key the window acts on; never shown as it is
        if role == Qt.ItemDataRole.DisplayRole:
            return visible_line(row.name)
        if role == Qt.ItemDataRole.ToolTipRole:
            # The reason is the server's own words (its stderr): escaped, or Qt may render HTML.
            where = (
                QCoreApplication.translate("ServerRow", "runs on this computer")
                if row.transport == "stdio"
                else QCoreApplication.translate("ServerRow", "runs on the internet")
            )
            title = f"{row.title}\n" if row.title and row.title != row.name else ""
            return plain_tooltip(f"{row.name} ({where})\n{title}{row.status_text()}")
        if role == Qt.ItemDataRole.AccessibleTextRole:
            return visible_line(f"{row.name}, {row.status_text()}")
        if role == Qt.ItemDataRole.DecorationRole:
            return row.icon
        if role == self.StateRole:
            return row.state
        if role == self.ReasonRole:
            return row.reason
        if role == self.ToolCountRole:
            return row.tool_count
        if role == self.StatusTextRole:
            return visible_line(row.status_text())
        if role == self.StateColourRole:
            return state_colour(row.state_key())
        if role == self.StateKeyRole:
            return row.state_key()
        if role == self.StateTextRole:
            return visible_line(row.state_text())
        if role == self.ToolCountTextRole:
            return row.tool_count_text()
        if role == self.TitleRole:
            return row.title_text()
        if role == self.TransportRole:
            return row.transport
        if role == self.DisabledRole:
            return row.disabled
        return None

    def roleNames(self) -> dict[int, QByteArray]:
        names = dict(super().roleNames())
        names.update(
            {
                self.NameRole: QByteArray(b"name"),
                self.StateRole: QByteArray(b"state"),
                self.ReasonRole: QByteArray(b"reason"),
                self.ToolCountRole: QByteArray(b"toolCount"),
                self.StatusTextRole: QByteArray(b"statusText"),
                self.StateColourRole: QByteArray(b"stateColour"),
                self.TransportRole: QByteArray(b"transport"),
                self.DisabledRole: QByteArray(b"disabled"),
                self.StateKeyRole: QByteArray(b"stateKey"),
                self.StateTextRole: QByteArray(b"stateText"),
                self.ToolCountTextRole: QByteArray(b"toolCountText"),
                self.TitleRole: QByteArray(b"title"),
            }
        )
        return names

    # --- our API ------------------------------------------------------------------------------
    def names(self) -> list[str]:
        return [r.name for r in self._rows]

    def row_of(self, name: str) -> int:
        for i, r in enumerate(self._rows):
            if r.name == name:
                return i
        return -1

    def server(self, name: str) -> ServerRow | None:
        i = self.row_of(name)
        return self._rows[i] if i >= 0 else None

    def set_servers(self, rows: list[ServerRow]) -> None:
        """Make the list equal `rows` (in that order) with inserts/removes, keeping live state."""
        wanted = [r.name for r in rows]
        # Remove rows no longer wanted (from the bottom so indexes stay valid).
        for i in range(len(self._rows) - 1, -1, -1):
            if self._rows[i].name not in wanted:
                self.beginRemoveRows(QModelIndex(), i, i)
                del self._rows[i]
                self.endRemoveRows()
        for pos, new in enumerate(rows):
            cur = self.row_of(new.name)
            if cur == -1:
                self.beginInsertRows(QModelIndex(), pos, pos)
                self._rows.insert(pos, new)
                self.endInsertRows()
                continue
            if cur != pos:
                self.beginMoveRows(QModelIndex(), cur, cur, QModelIndex(), pos)
                self._rows.insert(pos, self._rows.pop(cur))
                self.endMoveRows()
            old = self._rows[pos]
            old.transport, old.disabled, old.note = new.transport, new.disabled, new.note
            old.declined = new.declined
            self._changed(pos)

    def update_state(self, name: str, state: str, reason: str = "") -> None:
        i = self.row_of(name)
        if i < 0:
            return
        row = self._rows[i]
        row.state, row.reason = state, reason
        if state != CONNECTING or reason != WAITING_FOR_BROWSER:
            row.sign_in_url = ""  # the browser came back (or the attempt ended)
        if state == NEEDS_SIGN_IN:
            row.auth = None
        if state != READY:
            row.tool_count = None if state != FAILED else row.tool_count
        self._changed(i)

    def update_tool_count(self, name: str, count: int | None) -> None:
        i = self.row_of(name)
        if i >= 0:
            self._rows[i].tool_count = count
            self._changed(i)

    def update_sign_in_wait(self, name: str, url: str) -> None:
        """The engine waits for the person to sign in at `url` (its SignInWaiting event)."""
        i = self.row_of(name)
        if i >= 0:
            self._rows[i].sign_in_url = url
            self._changed(i)

    def update_auth(self, name: str, status: Any) -> None:
        """What the keychain says of the server's sign-in (an AuthStatus, or None)."""
        i = self.row_of(name)
        if i >= 0:
            self._rows[i].auth = status
            self._changed(i)

    def update_info(self, name: str, title: str = "", icon: QIcon | None = None) -> None:
        i = self.row_of(name)
        if i >= 0:
            self._rows[i].title = title
            if icon is not None:
                self._rows[i].icon = icon
            self._changed(i)

    def _changed(self, row: int) -> None:
        idx = self.index(row, 0)
        self.dataChanged.emit(idx, idx)
