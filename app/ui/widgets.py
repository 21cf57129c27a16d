"""Small widget makers used across the UI, so the same control is built the same way everywhere."""

from __future__ import annotations

from PySide6.QtWidgets import QToolButton, QWidget


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
