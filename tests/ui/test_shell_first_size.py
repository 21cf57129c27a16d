"""The first window fits the screen it opens on (a 1280×800 screen cut its bottom buttons off)."""

from __future__ import annotations

from PySide6.QtCore import QSize

from app.ui.window import FIRST_SIZE, first_size


def test_a_big_screen_gets_the_usual_size() -> None:
    assert first_size(QSize(1920, 1050)) == FIRST_SIZE


def test_a_laptop_screen_leaves_room_for_the_title_bar() -> None:
    size = first_size(QSize(1280, 770))  # 1280×800 less a 30-pixel panel
    assert size.width() == 1280
    assert size.height() <= 770 - 30  # the frame fits too
    assert size.height() >= 480


def test_a_tiny_screen_still_gets_a_usable_window() -> None:
    assert first_size(QSize(600, 400)) == QSize(640, 480)
