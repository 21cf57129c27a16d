"""The window's side of sign-in: the system browser behind `app.mcp.auth.Browser`, and the box on
the overview page that says where a server's sign-in stands.

The engine decides every state (sign in needed, waiting for the browser, signed in); this module
only shows it and sends the person's choice back (Sign in, Copy link, Cancel, Sign out). What an
authorization server says about the account is its own text: shown as plain text, never trusted.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QUrl, Signal, Slot
from PySide6.QtGui import QDesktopServices, QGuiApplication
from PySide6.QtWidgets import QFrame, QHBoxLayout, QPushButton, QVBoxLayout, QWidget

from app.ui.dialog_style import with_icon
from app.ui.safe_text import plain_label

if TYPE_CHECKING:
    from app.mcp.auth import AuthStatus

logger = logging.getLogger(__name__)

# The reason the engine gives when nothing went wrong: the server simply wants a sign-in. Any other
# reason ("sign-in was cancelled", "your sign-in has expired: sign in again") is worth showing.
PLAIN_REASON = "sign in needed"

# The box's tint per state: the server list's colours for "sign in needed", "connecting", "ready".
NEEDED_ACCENT = (0x35, 0x74, 0xE0)
WAITING_ACCENT = (0xD3, 0x9E, 0x00)
SIGNED_IN_ACCENT = (0x2E, 0x9D, 0x4F)


class QtBrowser:
    """`app.mcp.auth.Browser` for the window: opens the sign-in page in the system browser.

    The URL is kept per server so "Copy link" works when no browser opened (or the person wants
    another one). Only http(s) addresses are opened: the URL comes from the server's metadata.
    """

    def __init__(self) -> None:
        self._urls: dict[str, str] = {}

    async def open(self, server: str, url: str) -> None:
        self._urls[server] = url
        qurl = QUrl(url)
        if not qurl.isValid() or qurl.scheme().lower() not in ("http", "https"):
            logger.warning("not opening a sign-in page for %s that is not http(s)", server)
            return
        if not QDesktopServices.openUrl(qurl):
            # No browser to hand: the window's "Copy link" still has the address.
            logger.info("no browser opened for %s's sign-in page", server)

    def url(self, server: str) -> str | None:
        return self._urls.get(server)

    def forget(self, server: str) -> None:
        self._urls.pop(server, None)


def _tr(text: str) -> str:
    return QCoreApplication.translate("SignIn", text)


def until_text(expires_at: float, now: float | None = None) -> str:
    """The time as "14:05" today, "3 Dec 14:05" on another day (local time)."""
    when = time.localtime(expires_at)
    today = time.localtime(time.time() if now is None else now)
    if when[:3] == today[:3]:
        return time.strftime("%H:%M", when)
    return time.strftime("%d %b %H:%M", when).lstrip("0")


def status_text(status: AuthStatus, now: float | None = None) -> str:
    """One line such as "signed in as ana@example.com · until 14:05", with the parts known."""
    account = status.account or ""
    if status.expires_at is not None:
        until = until_text(status.expires_at, now)
        if account:
            return QCoreApplication.translate("SignIn", "signed in as {account} · until {time}").format(
                account=account, time=until
            )
        return QCoreApplication.translate("SignIn", "signed in · until {time}").format(time=until)
    if account:
        return QCoreApplication.translate("SignIn", "signed in as {account}").format(account=account)
    return QCoreApplication.translate("SignIn", "signed in")


class SignInBox(QFrame):
    """Where one server's sign-in stands, with the one action that fits.

    Signals:
        sign_in_clicked(server): the person pressed Sign in.
        cancel_clicked(server): the person gave up waiting for the browser.
        sign_out_clicked(server): the person pressed Sign out.
        link_copied(server): the sign-in address went to the clipboard.
    """

    sign_in_clicked = Signal(str)
    cancel_clicked = Signal(str)
    sign_out_clicked = Signal(str)
    link_copied = Signal(str)

    NEEDED = "needed"
    WAITING = "waiting"
    SIGNED_IN = "signed_in"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("signInBox")
        self.server = ""
        self.mode = ""
        self.url = ""
        lay = QVBoxLayout(self)
        lay.setContentsMargins(12, 10, 12, 10)
        self.headline = plain_label("")
        self.headline.setObjectName("signInHeadline")
        f = self.headline.font()
        f.setBold(True)
        self.headline.setFont(f)
        lay.addWidget(self.headline)
        self.detail = plain_label("")  # the engine's reason, or the account: plain text
        self.detail.setObjectName("signInDetail")
        lay.addWidget(self.detail)
        row = QHBoxLayout()
        self.sign_in_button = QPushButton(self.tr("Sign in"))
        with_icon(self.sign_in_button, "sign-in")
        self.sign_in_button.setObjectName("signInButton")
        self.sign_in_button.setDefault(True)
        self.sign_in_button.clicked.connect(lambda: self.sign_in_clicked.emit(self.server))
        self.copy_button = QPushButton(self.tr("Copy link"))
        with_icon(self.copy_button, "copy")
        self.copy_button.setObjectName("copyLinkButton")
        self.copy_button.setToolTip(self.tr("Copy the sign-in address, to open it in another browser"))
        self.copy_button.clicked.connect(self._copy)
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.setObjectName("cancelSignInButton")
        self.cancel_button.clicked.connect(lambda: self.cancel_clicked.emit(self.server))
        self.sign_out_button = QPushButton(self.tr("Sign out"))
        self.sign_out_button.setObjectName("signOutButton")
        self.sign_out_button.setToolTip(
            self.tr("Forget this server's sign-in: MCP Desk deletes it from your computer's keychain")
        )
        self.sign_out_button.clicked.connect(lambda: self.sign_out_clicked.emit(self.server))
        for b in (self.sign_in_button, self.copy_button, self.cancel_button, self.sign_out_button):
            row.addWidget(b)
        row.addStretch(1)
        lay.addLayout(row)
        self._style(NEEDED_ACCENT)
        self.hide()

    def _style(self, accent: tuple[int, int, int]) -> None:
        # A tint of the state's colour over the window, text in the palette's own colour: readable
        # in a light and a dark theme alike.
        r, g, b = accent
        self.setStyleSheet(
            f"#signInBox {{ background: rgba({r}, {g}, {b}, 0.13);"
            f" border: 1px solid rgba({r}, {g}, {b}, 0.55); border-radius: 4px; }}"
        )

    def _buttons(self, *shown: QPushButton) -> None:
        for b in (self.sign_in_button, self.copy_button, self.cancel_button, self.sign_out_button):
            b.setVisible(b in shown)

    def show_needed(self, server: str, reason: str = "") -> None:
        """The server wants a sign-in; `reason` says why when it is more than that."""
        self.server, self.mode, self.url = server, self.NEEDED, ""
        self.headline.setText(self.tr("“{server}” needs you to sign in").format(server=server))
        lines = []
        if reason and reason.strip().lower() != PLAIN_REASON:
            from app.ui.i18n import translate_reason  # the engine's English in the window's language

            shown = translate_reason(reason)
            stop = "" if shown.endswith((".", "。")) else ("." if shown == reason else "。")
            lines.append(shown[:1].upper() + shown[1:] + stop)
        lines.append(
            self.tr(
                "Sign in opens the server's sign-in page in your browser. "
                "MCP Desk keeps the sign-in in your computer's keychain."
            )
        )
        self.detail.setText("\n".join(lines))
        self.detail.show()
        self._buttons(self.sign_in_button)
        self._style(NEEDED_ACCENT)
        self.show()

    def show_waiting(self, server: str, url: str) -> None:
        """The sign-in page is open in the browser; the engine waits for its answer."""
        self.server, self.mode, self.url = server, self.WAITING, url
        self.headline.setText(self.tr("Waiting for you to sign in in your browser…"))
        self.detail.setText(
            self.tr("If no browser opened, copy the link and open it yourself. Cancel stops waiting.")
        )
        self.detail.show()
        self._buttons(self.copy_button, self.cancel_button)
        self.copy_button.setEnabled(bool(url))
        self._style(WAITING_ACCENT)
        self.show()

    def show_signed_in(self, server: str, status: AuthStatus) -> None:
        self.server, self.mode, self.url = server, self.SIGNED_IN, ""
        self.headline.setText(status_text(status))
        issuer = status.issuer or ""
        self.detail.setText(self.tr("with {issuer}").format(issuer=issuer) if issuer else "")
        self.detail.setVisible(bool(issuer))
        self.headline.setToolTip(
            self.tr("MCP Desk renews this sign-in by itself when it runs out.") if status.can_refresh else ""
        )
        self._buttons(self.sign_out_button)
        self._style(SIGNED_IN_ACCENT)
        self.show()

    def clear(self) -> None:
        self.server, self.mode, self.url = "", "", ""
        self.detail.setVisible(True)
        self.hide()

    @Slot()
    def _copy(self) -> None:
        if self.url:
            QGuiApplication.clipboard().setText(self.url)
            self.link_copied.emit(self.server)
