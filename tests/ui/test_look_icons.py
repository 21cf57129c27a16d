"""The icons: every name gives a real image, tinted to the palette, drawn crisp at any scale."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import QSize
from PySide6.QtGui import QColor, QIcon, QImage, QPalette
from PySide6.QtWidgets import QApplication

from app.ui import icons, theme


@pytest.fixture
def palette(qapp: Any) -> Iterator[Any]:
    old = QApplication.palette()

    def use(scheme: str) -> None:
        QApplication.setPalette(
            theme.dark_palette() if scheme == "dark" else QApplication.style().standardPalette()
        )

    yield use
    QApplication.setPalette(old)


def ink(image: QImage) -> list[QColor]:
    """The colours of the drawn (mostly opaque) pixels."""
    found = []
    for y in range(image.height()):
        for x in range(image.width()):
            c = image.pixelColor(x, y)
            if c.alpha() > 200:
                found.append(c)
    return found


def test_the_licence_of_the_icon_set_is_shipped() -> None:
    text = (icons.icon_dir() / "LICENSE.lucide").read_text(encoding="utf-8")
    assert "ISC License" in text and "Lucide" in text
    for name in icons.NAMES:
        assert (icons.icon_dir() / f"{icons.FILES[name]}.svg").is_file(), name


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_name_gives_an_icon_in_the_palettes_colour(palette: Any, scheme: str) -> None:
    palette(scheme)
    text = QApplication.palette().color(QPalette.ColorRole.WindowText)
    window = QApplication.palette().color(QPalette.ColorRole.Window)
    assert theme.is_dark() == (scheme == "dark")
    for name in sorted(icons.NAMES):
        made = icons.icon(name)
        assert not made.isNull(), name
        image = made.pixmap(QSize(24, 24)).toImage()
        drawn = ink(image)
        assert len(drawn) > 20, f"{name}: nothing drawn"
        want = theme.state_colour(name.removeprefix("state-")) if name.startswith("state-") else text
        # Antialiased strokes: the fully opaque pixels are the colour asked for.
        assert any(c.rgb() == want.rgb() for c in drawn), (name, {c.name() for c in drawn}, want.name())
        # and stand out from the window behind them
        assert theme.contrast(want, window) >= 3.0, name


def test_an_icon_follows_a_change_of_palette(palette: Any) -> None:
    made = icons.icon("run")  # made once, as a button keeps it
    palette("light")
    light = ink(made.pixmap(QSize(24, 24)).toImage())
    palette("dark")
    dark = ink(made.pixmap(QSize(24, 24)).toImage())
    assert max(c.lightness() for c in light) < 100
    assert min(c.lightness() for c in dark) > 150


def test_disabled_and_selected_icons_use_those_colours(palette: Any) -> None:
    palette("dark")
    pal = QApplication.palette()
    made = icons.icon("state-failed")
    disabled = ink(made.pixmap(QSize(24, 24), QIcon.Mode.Disabled).toImage())
    selected = ink(made.pixmap(QSize(24, 24), QIcon.Mode.Selected).toImage())
    assert any(
        c.rgb() == pal.color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.WindowText).rgb()
        for c in disabled
    )
    assert any(c.rgb() == pal.color(QPalette.ColorRole.HighlightedText).rgb() for c in selected)


def test_high_dpi_pixmaps_are_drawn_at_the_device_scale(palette: Any) -> None:
    palette("light")
    made = icons.icon("diagnose")
    pixmap = made.pixmap(QSize(16, 16), 2.0)
    assert (pixmap.width(), pixmap.height()) == (32, 32)
    assert pixmap.devicePixelRatio() == 2.0
    # drawn from the vector at 32 px, not a 16 px image scaled up: thin strokes, many edge pixels
    assert len(ink(pixmap.toImage())) > len(ink(made.pixmap(QSize(16, 16)).toImage())) * 2


def test_an_unknown_name_is_a_programming_error() -> None:
    with pytest.raises(KeyError):
        icons.icon("no-such-icon")
