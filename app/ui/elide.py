"""Server text of any size in bounded space: names elided, long text previewed, lines broken.

A server decides how long its names, descriptions and answers are, and Qt's text layout is not
made for a megabyte on one line: wrapping a single unbroken line costs far more than linear time
(1 MB of one character froze the window for over half a minute), and a label as wide as a 100 KB
name makes the whole window that wide (gigabytes of backing store). So before server text reaches
a widget it is bounded here:

- names and titles are capped (`cap_middle`) and drawn elided to the width they get
  (`ElidedLabel`, `Qt.ElideMiddle` in lists), so the layout never grows with them;
- long text is shown as a preview of its first `PREVIEW_CHARS` characters (`preview`), the rest on
  request, and every line longer than `LINE_CHARS` is broken into display lines (`display_lines`),
  so each block Qt lays out is short. The text itself is never changed: saving and copying use it.

Nothing here interprets the text: it stays plain text (see `app.ui.safe_text`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QPainter, QPaintEvent
from PySide6.QtWidgets import QLabel, QWidget

from app.mcp.visible import visible_json, visible_line

ELLIPSIS = "…"
NAME_CHARS = 200  # a name or title on one line: real ones are far shorter, the rest is elided
PREVIEW_CHARS = 100_000  # of a long text, what is shown until the person asks for more
LINE_CHARS = 2_000  # longer lines are broken for display into pieces of about this length
BREAK_LOOKBACK = 200  # a piece ends after a space found in its last this-many characters
JSON_STRING_CHARS = 2_000  # in a JSON preview, a longer string is shown cut


def cap_middle(text: str, limit: int = NAME_CHARS) -> str:
    """`text` if it is at most `limit` characters, else its start and end around an ellipsis."""
    if len(text) <= limit:
        return text
    head = (limit - 1) // 2 + (limit - 1) % 2
    tail = limit - 1 - head
    return text[:head] + ELLIPSIS + (text[-tail:] if tail else "")


def cap_end(text: str, limit: int) -> str:
    """`text` cut to `limit` characters (the last one an ellipsis) if longer."""
    return text if len(text) <= limit else text[: limit - 1] + ELLIPSIS


def display_pieces(
    text: str, start: int = 0, end: int | None = None, width: int = LINE_CHARS
) -> Iterator[tuple[str, int]]:
    """The lines of `text[start:end]` as they are shown, each with the position in `text` just
    after it: no line is longer than `width`.

    A longer line is cut after its last space within the final `BREAK_LOOKBACK` characters of
    each piece, or at `width` if there is none (one long run: a hash, base64, minified JSON).
    Works through the text by position, so a 100 MB text is never split into one huge list.
    """
    stop = len(text) if end is None else min(end, len(text))
    pos = start
    while pos < stop:
        nl = text.find("\n", pos, stop)
        line_end = stop if nl < 0 else nl
        while line_end - pos > width:
            cut = text.rfind(" ", pos + width - BREAK_LOOKBACK, pos + width)
            cut = pos + width if cut < 0 else cut + 1
            yield text[pos:cut], cut
            pos = cut
        if nl < 0:
            yield text[pos:line_end], line_end
            return
        yield text[pos:line_end], nl + 1
        pos = nl + 1
        if pos == stop:
            yield "", stop  # the text ends with a line break: an empty last line, as a view shows it


def display_lines(
    text: str, start: int = 0, end: int | None = None, width: int = LINE_CHARS
) -> Iterator[str]:
    """`display_pieces` without the positions."""
    for piece, _ in display_pieces(text, start, end, width):
        yield piece


def display_text(text: str, start: int = 0, end: int | None = None) -> str:
    """`text[start:end]` with long lines broken for display (see `display_lines`)."""
    return "\n".join(display_lines(text, start, end))


def preview(text: str, limit: int = PREVIEW_CHARS) -> tuple[str, bool]:
    """(what to show of `text`, whether that is less than all of it)."""
    truncated = len(text) > limit
    return display_text(text, 0, limit if truncated else None), truncated


def breakable(text: str, run: int = 200) -> str:
    """`text` with a zero-width space after every `run` characters without white space, so a
    rich-text layout (the Markdown view) can wrap a long run instead of measuring it whole."""
    import re

    return re.sub(rf"\S{{{run}}}", lambda m: m.group(0) + "\u200b", text)


def json_preview(value: Any, *, indent: int | None = 2, string_chars: int = JSON_STRING_CHARS) -> str:
    """`value` as JSON with every string longer than `string_chars` cut, so a message holding a
    100 MB string costs a few kilobytes to show (the full value is still what gets copied)."""

    def cut(v: Any) -> Any:
        if isinstance(v, str):
            if len(v) <= string_chars:
                return v
            return f"{v[:string_chars]}{ELLIPSIS} ({len(v) - string_chars:,} more characters)"
        if isinstance(v, dict):
            return {cap_middle(str(k), string_chars): cut(x) for k, x in v.items()}
        if isinstance(v, list | tuple):
            return [cut(x) for x in v]
        return v

    # JSON escapes for bidi and invisible characters: the preview stays JSON and shows them.
    return visible_json(cut(value), indent=indent)


class ElidedLabel(QLabel):
    """One line of server text, elided in the middle to the width it is given.

    `text()` is the (capped) full text; `displayed_text()` what is drawn. Its size hint is
    bounded, so a long name never widens the layout; the tooltip is the owner's business.
    """

    def __init__(self, text: str = "", parent: QWidget | None = None, *, max_hint_chars: int = 60) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setWordWrap(False)
        self._max_hint_chars = max_hint_chars
        self.setText(text)

    def setText(self, text: str) -> None:
        # One line, bidi and invisible characters shown (server text), capped before Qt measures it.
        super().setText(visible_line(cap_middle(text.replace("\n", " "), NAME_CHARS)))

    def displayed_text(self) -> str:
        width = max(0, self.contentsRect().width())
        return self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideMiddle, width)

    def sizeHint(self) -> QSize:
        fm = self.fontMetrics()
        shown = cap_middle(self.text(), self._max_hint_chars)
        m = self.contentsMargins()
        return QSize(
            fm.horizontalAdvance(shown) + m.left() + m.right() + 2, fm.height() + m.top() + m.bottom()
        )

    def minimumSizeHint(self) -> QSize:
        fm = self.fontMetrics()
        m = self.contentsMargins()
        return QSize(fm.horizontalAdvance(ELLIPSIS) * 3, fm.height() + m.top() + m.bottom())

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        self.style().drawItemText(
            painter,
            self.contentsRect(),
            int(self.alignment()),
            self.palette(),
            self.isEnabled(),
            self.displayed_text(),
            self.foregroundRole(),
        )
