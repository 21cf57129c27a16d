"""theme.py: every colour readable in both schemes (WCAG contrast), and the scheme followed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

from app.ui import theme


def palettes() -> dict[str, QPalette]:
    return {"light": theme.light_palette(), "dark": theme.dark_palette()}


def test_contrast_is_computed_as_wcag_says() -> None:
    assert theme.contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert theme.contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)
    assert theme.contrast("#ffffff", "#ffffff") == pytest.approx(1.0)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("kind", theme.NOTICE_KINDS)
def test_notice_and_badge_text_is_readable(qapp: Any, scheme: theme.Scheme, kind: theme.NoticeKind) -> None:
    bg, fg, _border = theme.scheme_colours(kind, scheme)
    assert theme.contrast(fg, bg) >= 4.5, (kind, scheme, fg, bg)
    # the box belongs to its scheme: a dark box on a dark window, a light one on a light window
    window = palettes()[scheme].color(QPalette.ColorRole.Window)
    assert (QColor(bg).lightness() < 128) == (scheme == "dark"), (kind, scheme, bg, window.name())
    # and the style sheet of the palette's scheme is the one used
    assert f"background: {bg}" in theme.notice_style(kind, palette=palettes()[scheme])
    assert f"color: {fg}" in theme.badge_style(kind, palette=palettes()[scheme])


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_state_colours_stand_out_of_the_list_and_the_window(qapp: Any, scheme: theme.Scheme) -> None:
    pal = palettes()[scheme]
    for state in theme.STATES:
        colour = theme.scheme_state_colour(state, scheme)
        assert theme.state_colour(state, pal).rgb() == colour.rgb()
        for role in (QPalette.ColorRole.Base, QPalette.ColorRole.Window):
            # WCAG's 3:1 for the parts of a picture one needs to see (an icon), text 4.5:1 below
            assert theme.contrast(colour, pal.color(role)) >= 3.0, (state, scheme, colour.name(), role)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_dark_palettes_text_and_the_secondary_text_are_readable(qapp: Any, scheme: theme.Scheme) -> None:
    pal = palettes()[scheme]
    for text, back in (
        (QPalette.ColorRole.Text, QPalette.ColorRole.Base),
        (QPalette.ColorRole.WindowText, QPalette.ColorRole.Window),
        (QPalette.ColorRole.ButtonText, QPalette.ColorRole.Button),
        (QPalette.ColorRole.HighlightedText, QPalette.ColorRole.Highlight),
    ):
        assert theme.contrast(pal.color(text), pal.color(back)) >= 4.5, (scheme, text, back)
    for role in (QPalette.ColorRole.Base, QPalette.ColorRole.Window):
        assert theme.contrast(theme.secondary_text(pal), pal.color(role)) >= 4.5, (scheme, role)
        for kind in theme.NOTICE_KINDS:  # coloured text straight on the window or a list
            assert theme.contrast(theme.text_colour(kind, pal), pal.color(role)) >= 4.5, (scheme, kind, role)
    assert theme.quiet_text_style(pal) == f"color: {theme.secondary_text(pal).name()};"
    assert theme.is_dark(pal) == (scheme == "dark")


@pytest.fixture
def restore_palette(qapp: Any) -> Iterator[None]:
    old = QApplication.palette()
    yield
    QApplication.setPalette(old)
    theme._follower = None


def test_the_scheme_can_be_forced_for_screenshots(qapp: Any, restore_palette: None, monkeypatch: Any) -> None:
    monkeypatch.setenv(theme.SCHEME_ENV, "dark")
    follower = theme.follow_color_scheme(qapp)
    assert follower.scheme == "dark" and theme.is_dark()
    assert QApplication.style().name().lower() == "fusion"
    assert (
        QApplication.palette().color(QPalette.ColorRole.Base).name()
        == theme.DARK_ROLES[QPalette.ColorRole.Base]
    )
    monkeypatch.setenv(theme.SCHEME_ENV, "light")
    theme._follower = None
    theme.follow_color_scheme(qapp)
    assert not theme.is_dark()


def test_the_systems_scheme_is_followed_while_running(
    qapp: Any, restore_palette: None, monkeypatch: Any
) -> None:
    monkeypatch.delenv(theme.SCHEME_ENV, raising=False)
    system: list[theme.Scheme] = ["light"]
    monkeypatch.setattr(theme, "system_scheme", lambda: system[0])
    follower = theme.SchemeFollower(qapp)
    assert not theme.is_dark()
    # The desktop switches to dark: Qt tells through colorSchemeChanged (the offscreen platform
    # has no desktop to ask, so the signal is given here as the platform gives it).
    system[0] = "dark"
    qapp.styleHints().colorSchemeChanged.emit(Qt.ColorScheme.Dark)
    assert follower.scheme == "dark" and theme.is_dark()
    system[0] = "light"
    qapp.styleHints().colorSchemeChanged.emit(Qt.ColorScheme.Light)
    assert follower.scheme == "light" and not theme.is_dark()
    qapp.styleHints().colorSchemeChanged.disconnect(follower._changed)
    follower.setParent(None)


def test_a_widget_is_restyled_when_the_scheme_changes(qapp: Any, qtbot: Any, restore_palette: None) -> None:
    from PySide6.QtWidgets import QLabel

    QApplication.setPalette(theme.light_palette())
    label = QLabel("Done in 0.04 s.")
    qtbot.addWidget(label)
    calls: list[str] = []

    def apply() -> None:
        calls.append(theme.scheme_name())
        label.setStyleSheet(theme.text_style("success"))  # changes the label's palette itself

    theme.restyle_on_scheme_change(label, apply)
    assert calls == ["light"] and theme.scheme_colours("success", "light")[1] in label.styleSheet()
    QApplication.setPalette(theme.dark_palette())
    qtbot.waitUntil(lambda: calls == ["light", "dark"])
    assert theme.scheme_colours("success", "dark")[1] in label.styleSheet()
    QApplication.setPalette(theme.dark_palette())  # the same scheme again: nothing to do
    qapp.processEvents()
    assert calls == ["light", "dark"]
