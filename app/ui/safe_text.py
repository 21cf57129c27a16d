"""Showing server-supplied text safely.

Servers are untrusted: their descriptions and results may hold HTML, `javascript:` links or
remote images (tracking pixels). Plain text is the default everywhere. The optional Markdown view
(`app.ui.markdown_view`) loads no resources at all (no remote or local images) and opens a link
only after showing the person the full URL and getting a yes; only http, https and mailto links
are ever opened.

Every place that shows server text goes through this module: labels (`plain_label`, whose
`setText` keeps doing so), tooltips (`plain_tooltip`), message boxes (`plain_box`), and for
the rest (item views' display text, window titles, status messages, text editors) `visible` /
`visible_line` / `visible_json` from `app.mcp.visible`, which show bidi controls, zero-width and
control characters as ⟨U+XXXX⟩ so a name cannot pose as another.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QLabel, QWidget

from app.mcp.visible import visible, visible_json, visible_line

if TYPE_CHECKING:
    # For annotations only: each Qt class costs its enums' creation when first imported
    # (QMessageBox ~5 M instructions, QUrl ~7 M), and the first paint needs neither.
    from PySide6.QtCore import QUrl
    from PySide6.QtWidgets import QMessageBox

__all__ = [
    "PlainLabel",
    "confirm_and_open",
    "is_openable",
    "plain_box",
    "plain_label",
    "plain_labels",
    "plain_tooltip",
    "visible",
    "visible_json",
    "visible_line",
]

logger = logging.getLogger(__name__)

OPENABLE_SCHEMES = ("http", "https", "mailto")


def plain_tooltip(text: str) -> str:
    """A tooltip that shows `text` literally: Qt renders tooltips as HTML when they look like it
    (Qt::mightBeRichText), so the text is escaped inside an explicit rich-text paragraph, its
    invisible characters shown."""
    import html

    return "<p style='white-space:pre-wrap'>" + html.escape(visible(text)) + "</p>"


class PlainLabel(QLabel):
    """A QLabel that shows its text literally: plain text (QLabel's default is AutoText, which
    renders anything that looks like HTML), invisible characters shown, on every `setText`."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        # What heightForWidth answered, per width and everything else it depends on.
        self._heights: dict[tuple[object, ...], int] = {}
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setText(text)

    def setText(self, text: str) -> None:
        self._heights.clear()
        super().setText(visible(text))

    def heightForWidth(self, width: int) -> int:
        # A wrapped QLabel lays its whole text out again on every call, and one layout pass asks
        # many times for the same few widths: the welcome guide was laid out 21 times on the way
        # to the first paint (about 5% of the start-up's instructions). The answer depends only
        # on the width, the text (setText clears this), the font and the margins.
        m = self.contentsMargins()
        key = (
            width,
            self.font().key(),
            m.left(),
            m.top(),
            m.right(),
            m.bottom(),
            self.margin(),
            self.indent(),
            self.wordWrap(),
            self.textFormat(),
        )
        height = self._heights.get(key)
        if height is None:
            if len(self._heights) > 32:
                self._heights.clear()  # a window dragged wider and narrower: keep it small
            height = self._heights[key] = super().heightForWidth(width)
        return height


def plain_label(text: str = "", parent: QWidget | None = None, *, wrap: bool = True) -> QLabel:
    """A PlainLabel, wrapped and selectable."""
    label = PlainLabel(text, parent)
    label.setWordWrap(wrap)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


def plain_box(box: QMessageBox) -> QMessageBox:
    """Make a message box show its texts literally: the main text and the informative text (a
    separate QLabel, left AutoText with external links opened by Qt) become plain text, with
    their invisible characters and the title's shown. Call after setting the texts."""
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setWindowTitle(visible_line(box.windowTitle()))
    box.setText(visible(box.text()))
    plain_labels(box)
    return box


def plain_labels(dialog: QWidget) -> None:
    """Make every QLabel a ready-made dialog built (QMessageBox, QInputDialog's prompt) show its
    text literally: plain text, no links opened, invisible characters shown."""
    for label in dialog.findChildren(QLabel):
        if label.text():
            label.setTextFormat(Qt.TextFormat.PlainText)
            label.setOpenExternalLinks(False)
            label.setText(visible(label.text()))


def is_openable(url: QUrl) -> bool:
    return url.isValid() and url.scheme().lower() in OPENABLE_SCHEMES


async def confirm_and_open(parent: QWidget | None, url: QUrl) -> bool:
    """Show the full URL and open it in the browser only if the person agrees."""
    from app.ui.async_dialogs import ask, inform

    text = url.toString()
    if not is_openable(url):
        await inform(
            parent,
            QCoreApplication.translate("SafeText", "Link not opened"),
            QCoreApplication.translate("SafeText", "This link cannot be opened from MCP Desk:")
            + "\n\n"
            + text,
        )
        return False
    ok, _ = await ask(
        parent,
        QCoreApplication.translate("SafeText", "Open link?"),
        QCoreApplication.translate("SafeText", "Open this address in your web browser?") + "\n\n" + text,
        yes=QCoreApplication.translate("SafeText", "Open"),
        no=QCoreApplication.translate("SafeText", "Cancel"),
    )
    if ok:
        from PySide6.QtGui import QDesktopServices

        QDesktopServices.openUrl(url)
    return ok
