"""Small widget makers used across the UI, so the same control is built the same way everywhere.

The window's spacing (margins, gaps, icon sizes) is in app/ui/spacing.py: the server list needs
it before the first paint, and these widgets' classes (and their enums) it does not."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette, QTextOption
from PySide6.QtWidgets import QFrame, QPlainTextEdit, QToolButton, QWidget

from app.mcp.visible import visible


def tool_button(
    text: str, parent: QWidget | None = None, *, tip: str | None = None, auto_raise: bool = False
) -> QToolButton:
    """A QToolButton showing `text` (our own words, not server text), with an optional tooltip."""
    button = QToolButton(parent)
    button.setText(text)
    if tip is not None:
        button.setToolTip(tip)
    button.setAutoRaise(auto_raise)
    return button


class TextLabel(QPlainTextEdit):
    """Read-only, wrapped text that looks like a label but lays out like a text view.

    A word-wrapped QLabel measures its whole text (several times, to find a good width) on each
    layout: 5,000 characters cost tens of milliseconds. A QPlainTextEdit lays out only what is on
    screen, and wraps a long run without spaces anywhere. `text()` is what it holds.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        # It wraps anywhere, so it never needs to scroll sideways (a bar there only eats a line).
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setTabChangesFocus(True)
        self.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        # The window's colour behind the text, like a label's (a style sheet would restyle the
        # scroll bar too).
        palette = self.palette()
        palette.setColor(QPalette.ColorRole.Base, palette.color(QPalette.ColorRole.Window))
        self.setPalette(palette)
        self.document().setDocumentMargin(0)

    def setText(self, text: str) -> None:
        self.setPlainText(visible(text))  # server text: bidi and invisible characters shown

    def text(self) -> str:
        return self.toPlainText()

    # The questions one asks a QLabel showing server text, answered: a QPlainTextEdit only ever
    # holds plain text, and has no links to open.
    def textFormat(self) -> Qt.TextFormat:
        return Qt.TextFormat.PlainText

    def openExternalLinks(self) -> bool:
        return False
