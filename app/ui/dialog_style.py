"""Colours of the dialogs' notes, errors and example fields, from theme.py, kept right when the
palette changes (light to dark while a dialog is open).

`keep_styled(widget, style)` sets `style()` now and again when the scheme changes (theme.py's
watcher), so no dialog hard-codes a light colour (a light box in a dark palette is unreadable).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QAbstractButton, QListWidgetItem, QWidget

from app.ui.icons import icon
from app.ui.theme import NoticeKind, colours, notice_style, restyle_on_scheme_change


def keep_styled(widget: QWidget, style: Callable[[], str]) -> None:
    """Style `widget` with `style()` now and whenever the scheme changes (theme's one watcher;
    a later call replaces an earlier one)."""

    def apply() -> None:
        sheet = style()
        if widget.styleSheet() != sheet:  # the same sheet again would change the palette again
            widget.setStyleSheet(sheet)

    restyle_on_scheme_change(widget, apply)


def note(widget: QWidget, kind: NoticeKind, selector: str = "") -> None:
    """A coloured note box (info, warning, error, success, neutral) that follows the palette."""
    keep_styled(widget, lambda: notice_style(kind, selector))


def error_text(widget: QWidget, selector: str = "") -> None:
    """Error words under a field: the theme's error colour on the window's own background."""

    def style() -> str:
        body = f"color: {colours('error')[1]};"
        return f"{selector} {{ {body} }}" if selector else body

    keep_styled(widget, style)


def example_field(widget: QWidget) -> None:
    """A field holding an example value to replace: the warning colours."""
    keep_styled(
        widget, lambda: notice_style("warning", "QLineEdit").replace("padding: 6px;", "padding: 1px;")
    )


def example_item(item: QListWidgetItem) -> None:
    """An argument holding an example value (list items have no style sheet: brushes)."""
    background, text, _border = colours("warning")
    item.setBackground(QBrush(QColor(background)))
    item.setForeground(QBrush(QColor(text)))


def label_colour(kind: NoticeKind) -> str:
    """The labels inside a note box: its text colour, on the box's background."""
    return f" QLabel {{ color: {colours(kind)[1]}; background: transparent; border: none; }}"


class _Reicon(QObject):
    def __init__(self, button: QAbstractButton, name: str) -> None:
        super().__init__(button)
        self.name = name

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.PaletteChange and isinstance(watched, QAbstractButton):
            watched.setIcon(icon(self.name))  # the icons are tinted to the palette
        return False


def with_icon(button: QAbstractButton, name: str) -> QAbstractButton:
    """`button` with the app's icon `name` (icons.py), again on each palette change; its text stays."""
    button.setIcon(icon(name))
    button.installEventFilter(_Reicon(button, name))
    return button
