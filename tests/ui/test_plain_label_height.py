"""A wrapped PlainLabel remembers its height per width, and forgets it when what it depends on
changes (its text, font or margins): a stale height would clip the text or leave a gap."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtWidgets import QLabel

from app.ui.safe_text import plain_label

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support")

TEXT = "Welcome to MCP Desk. " * 40


def fresh(text: str, label: Any) -> int:
    """What a QLabel without the memory answers for the same width, font and margins."""
    q = QLabel()
    q.setWordWrap(True)
    q.setText(text)
    q.setFont(label.font())
    q.setContentsMargins(label.contentsMargins())
    return int(q.heightForWidth(200))


def test_height_follows_text_font_and_margins(qtbot: Any) -> None:
    label = plain_label(TEXT)
    qtbot.addWidget(label)
    tall = label.heightForWidth(200)
    assert tall == fresh(TEXT, label)
    assert label.heightForWidth(200) == tall  # asked again: the same answer (from memory)
    assert label.heightForWidth(400) < tall  # another width is laid out, not taken from memory

    label.setText("Short.")
    assert label.heightForWidth(200) == fresh("Short.", label) < tall

    label.setText(TEXT)
    assert label.heightForWidth(200) == tall  # remembered for this text, font and margins
    f = label.font()
    f.setPointSizeF(f.pointSizeF() * 2)
    label.setFont(f)
    bigger = label.heightForWidth(200)
    assert bigger == fresh(TEXT, label) > tall

    label.setContentsMargins(0, 40, 0, 0)
    assert label.heightForWidth(200) == fresh(TEXT, label) == bigger + 40
