"""Showing server-supplied text safely.

Servers are untrusted: their descriptions and results may hold HTML, `javascript:` links or
remote images (tracking pixels). Plain text is the default everywhere. The optional Markdown view
(`app.ui.markdown_view`) loads no resources at all (no remote or local images) and opens a link
only after showing the person the full URL and getting a yes; only http, https and mailto links
are ever opened.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QUrl
from PySide6.QtWidgets import QLabel, QWidget

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
        from PySide6.QtGui import QDesktopServices

        QDesktopServices.openUrl(url)
    return ok
