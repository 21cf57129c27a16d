"""SafeMarkdownView: server-supplied Markdown shown without fetching anything or running links.

Kept apart from `safe_text` (which the window needs at start-up): creating QTextBrowser's Python
type costs start-up time, and nothing shows Markdown before the first result.
"""

from __future__ import annotations

import re
from typing import Any

from PySide6.QtCore import QSizeF, QUrl, Signal, Slot
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QFrame, QTextBrowser, QWidget

_FENCE = re.compile(r"^\s{0,3}(```|~~~)")


def keep_line_breaks(text: str) -> str:
    """Markdown joins the lines of a paragraph; tools write their answers line by line and mean
    each line. So every line break outside code blocks becomes a hard break (two trailing spaces);
    blank lines, fenced and indented code, and Markdown's own structure stay as they are."""
    out: list[str] = []
    fenced = False
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if _FENCE.match(line):
            fenced = not fenced
            out.append(line)
            continue
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if (
            fenced
            or not line.strip()
            or not nxt.strip()
            or line.startswith(("    ", "\t"))
            or line.endswith("  ")
        ):
            out.append(line)
        else:
            out.append(line + "  ")
    return "\n".join(out)


class SafeMarkdownView(QTextBrowser):
    """A Markdown viewer that fetches nothing and asks before opening a link.

    Signals:
        link_requested(url): the person clicked a link (the window asks before opening it).
    """

    link_requested = Signal(QUrl)
    height_changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.anchorClicked.connect(self._clicked)
        self._fit_max = 0

    def fit_to_content(self, max_height: int) -> None:
        """Be as tall as the formatted text (it follows the width), up to `max_height`; more scrolls."""
        self.setFrameShape(QFrame.Shape.NoFrame)
        if not self._fit_max:
            self.document().documentLayout().documentSizeChanged.connect(self._fit)
        self._fit_max = max_height
        self._fit(self.document().size())

    @Slot(QSizeF)
    def _fit(self, size: QSizeF) -> None:
        h = min(self._fit_max, int(size.height()) + 2 * self.frameWidth() + 4)
        if h != self.height() or self.minimumHeight() != h:
            self.setFixedHeight(max(24, h))
            self.height_changed.emit()

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
            keep_line_breaks(breakable(visible(text))),
            features.MarkdownDialectGitHub | features.MarkdownNoHTML,
        )

    @Slot(QUrl)
    def _clicked(self, url: QUrl) -> None:
        self.link_requested.emit(url)
