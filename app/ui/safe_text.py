"""Showing server-supplied text safely.

Servers are untrusted: their descriptions and results may hold HTML, `javascript:` links or
remote images (tracking pixels). Plain text is the default everywhere. The optional Markdown view
loads no resources at all (no remote or local images) and opens a link only after showing the
person the full URL and getting a yes; only http, https and mailto links are ever opened.
"""

from __future__ import annotations

import logging
from typing import Any

from PySide6.QtCore import QUrl, Signal, Slot
from PySide6.QtGui import QDesktopServices, QTextDocument
from PySide6.QtWidgets import QLabel, QTextBrowser, QWidget

logger = logging.getLogger(__name__)

OPENABLE_SCHEMES = ("http", "https", "mailto")


def plain_tooltip(text: str) -> str:
    """A tooltip that shows `text` literally: Qt renders tooltips as HTML when they look like it,
    so the text is escaped inside an explicit rich-text paragraph."""
    import html

    return "<p style='white-space:pre-wrap'>" + html.escape(text) + "</p>"


def plain_label(text: str = "", parent: QWidget | None = None, *, wrap: bool = True) -> QLabel:
    """A QLabel that never interprets its text as rich text (QLabel's default is AutoText)."""
    from PySide6.QtCore import Qt

    label = QLabel(parent)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setText(text)
    label.setWordWrap(wrap)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


class SafeMarkdownView(QTextBrowser):
    """A Markdown viewer that fetches nothing and asks before opening a link.

    Signals:
        link_requested(url): the person clicked a link (the window asks before opening it).
    """

    link_requested = Signal(QUrl)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.anchorClicked.connect(self._clicked)

    def loadResource(self, type_: int, name: QUrl | str) -> Any:
        # Images and style sheets referenced by server text are never fetched or read from disk.
        return None

    def set_markdown(self, text: str) -> None:
        # Raw HTML inside Markdown is not rendered: MarkdownNoHTML keeps it as literal text.
        features = QTextDocument.MarkdownFeature
        self.document().setMarkdown(text, features.MarkdownDialectGitHub | features.MarkdownNoHTML)

    @Slot(QUrl)
    def _clicked(self, url: QUrl) -> None:
        self.link_requested.emit(url)


def is_openable(url: QUrl) -> bool:
    return url.isValid() and url.scheme().lower() in OPENABLE_SCHEMES


async def confirm_and_open(parent: QWidget | None, url: QUrl) -> bool:
    """Show the full URL and open it in the browser only if the person agrees."""
    from app.ui.async_dialogs import ask

    text = url.toString()
    if not is_openable(url):
        await ask(
            parent,
            "Link not opened",
            f"This link cannot be opened from MCP Desk:\n\n{text}",
            yes="OK",
            no="Close",
        )
        return False
    ok, _ = await ask(
        parent, "Open link?", f"Open this address in your web browser?\n\n{text}", yes="Open", no="Cancel"
    )
    if ok:
        QDesktopServices.openUrl(url)
    return ok
