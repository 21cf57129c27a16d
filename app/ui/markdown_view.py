"""SafeMarkdownView: server-supplied Markdown shown without fetching anything or running links.

Kept apart from `safe_text` (which the window needs at start-up): creating QTextBrowser's Python
type costs start-up time, and nothing shows Markdown before the first result.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QUrl, Signal, Slot
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QTextBrowser, QWidget


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

    # QTextBrowser lays out the whole document at once, and a long run without spaces in one
    # paragraph costs far more than linear time: the view gets at most this much, runs made breakable.
    MAX_CHARS = 50_000

    def set_markdown(self, text: str) -> None:
        from app.ui.elide import breakable

        if len(text) > self.MAX_CHARS:
            note = self.tr(
                "(The text goes on: the Markdown view shows its first %n characters.)", "", self.MAX_CHARS
            )
            text = text[: self.MAX_CHARS] + "\n\n" + note
        # Raw HTML inside Markdown is not rendered: MarkdownNoHTML keeps it as literal text.
        from app.mcp.visible import visible  # bidi and invisible characters shown, as in plain text

        features = QTextDocument.MarkdownFeature
        self.document().setMarkdown(
            breakable(visible(text)), features.MarkdownDialectGitHub | features.MarkdownNoHTML
        )

    @Slot(QUrl)
    def _clicked(self, url: QUrl) -> None:
        self.link_requested.emit(url)
