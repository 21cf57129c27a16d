"""The pure-Python PNG encoder behind the demo's image tool."""

from __future__ import annotations

import pytest

from app.demo.png import badge, encode_png
from tests.demo.support import decode_png


def test_encoded_rows_come_back_unchanged() -> None:
    rows = [bytes([x * 40, y * 60, 7]) * 1 for y in range(3) for x in range(1)]
    width, height, decoded = decode_png(encode_png(1, 3, rows))
    assert (width, height, decoded) == (1, 3, rows)


def test_badge_is_a_circle_of_the_colour_on_white() -> None:
    width, height, rows = decode_png(badge(21, 21, (200, 100, 50)))
    assert (width, height) == (21, 21)
    assert rows[0][0:3] == b"\xff\xff\xff"  # corner: background
    centre = rows[10][30:33]
    assert centre[0] > centre[1] > centre[2] > 0  # shaded, but still the colour's hue order


@pytest.mark.parametrize(
    ("width", "height", "rows"), [(0, 1, [b""]), (2, 1, [b"\0\0\0"]), (1, 2, [b"\0\0\0"])]
)
def test_bad_dimensions_are_refused(width: int, height: int, rows: list[bytes]) -> None:
    with pytest.raises(ValueError):
        encode_png(width, height, rows)
