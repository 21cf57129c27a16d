"""Colours and styles that follow the palette (light or dark), so no view hard-codes a light colour.

Contract for the views: `notice_style(kind)` for a coloured box (a banner, a notice, a failure
box), `badge_style(kind)` for a small label; kinds are NOTICE_KINDS. Call them when building a
widget and again on `QEvent.PaletteChange` (the look follows the system's scheme while running):
`restyle_on_scheme_change(widget, apply)` does both.
`state_colour(state)` is a server state's colour (its icon in the list), for both schemes;
`text_style(kind)` colours a label's text (no box), `quiet_text_style()` makes a label quieter
(an id under a title, a hint) — instead of a fixed grey that vanishes on a dark window.

The scheme: `follow_color_scheme(app)` (once, before the window) follows the system's light or
dark setting (`QStyleHints.colorScheme()` and its `colorSchemeChanged`). Where the platform's
style has no dark palette of its own (Fusion, offscreen, many Linux desktops), a dark Fusion
palette is put in. `MCP_DESK_COLOR_SCHEME=light|dark` forces one (screenshots, tests).

Every text colour here is checked against its background for WCAG contrast (4.5:1 for text, 3:1
for the state icons) by tests/ui/test_look_theme.py.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from typing import Literal

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette

logger = logging.getLogger(__name__)

NoticeKind = Literal["info", "warning", "error", "success", "neutral"]
NOTICE_KINDS: tuple[NoticeKind, ...] = ("info", "warning", "error", "success", "neutral")
Scheme = Literal["light", "dark"]
SCHEME_ENV = "MCP_DESK_COLOR_SCHEME"

# (background, text, border) for light and for dark palettes
_LIGHT: dict[NoticeKind, tuple[str, str, str]] = {
    "info": ("#e3f2fd", "#0d47a1", "#bbdefb"),
    "warning": ("#fff8e1", "#5d4300", "#f3d98b"),
    "error": ("#fdecea", "#8b1a1a", "#f5c2c0"),
    "success": ("#e8f5e9", "#1b5e20", "#c8e6c9"),
    "neutral": ("#f1f3f4", "#3c4043", "#dadce0"),
}
_DARK: dict[NoticeKind, tuple[str, str, str]] = {
    "info": ("#0d2a45", "#bbdefb", "#1e4a72"),
    "warning": ("#3a2f0b", "#ffe08a", "#6b5616"),
    "error": ("#4a1517", "#ffcdd2", "#7a2a2d"),
    "success": ("#15361a", "#c8e6c9", "#2e5e34"),
    "neutral": ("#2b2d30", "#dadce0", "#45484c"),
}

# A server state's colour (icons/names in app.ui.icons: "state-<state>"). Not a failure is never
# red: in progress is amber, "your turn" (sign in, allow it to run) is blue, at rest is grey.
STATES = (
    "connected", "connecting", "installing", "failed", "disconnected", "disabled", "needs-sign-in", "waiting",
)  # fmt: skip
_STATE_LIGHT: dict[str, str] = {
    "connected": "#1e7b34",
    "connecting": "#946200",
    "installing": "#946200",
    "failed": "#c62828",
    "disconnected": "#6b7079",
    "disabled": "#858a93",
    "needs-sign-in": "#2a66d0",
    "waiting": "#2a66d0",
}
_STATE_DARK: dict[str, str] = {
    "connected": "#5cc879",
    "connecting": "#f0b429",
    "installing": "#f0b429",
    "failed": "#ff7b7b",
    "disconnected": "#9aa0a8",
    "disabled": "#80858d",
    "needs-sign-in": "#6aa8ff",
    "waiting": "#6aa8ff",
}

# The dark palette put in when the platform gives none (Fusion's roles; the base a little darker
# than the window, as GNOME's Adwaita dark does).
# Selection: white text on it at 4.9:1 (Fusion's own #308cc6 gives 3.7).
HIGHLIGHT = "#3370c8"
DARK_ROLES: dict[QPalette.ColorRole, str] = {
    QPalette.ColorRole.Window: "#2b2b2b",
    QPalette.ColorRole.WindowText: "#e6e6e6",
    QPalette.ColorRole.Base: "#1f1f1f",
    QPalette.ColorRole.AlternateBase: "#262626",
    QPalette.ColorRole.ToolTipBase: "#2b2b2b",
    QPalette.ColorRole.ToolTipText: "#e6e6e6",
    QPalette.ColorRole.Text: "#e6e6e6",
    QPalette.ColorRole.Button: "#353535",
    QPalette.ColorRole.ButtonText: "#e6e6e6",
    QPalette.ColorRole.BrightText: "#ff5555",
    QPalette.ColorRole.Light: "#454545",
    QPalette.ColorRole.Midlight: "#3a3a3a",
    QPalette.ColorRole.Mid: "#303030",
    QPalette.ColorRole.Dark: "#1a1a1a",
    QPalette.ColorRole.Shadow: "#0d0d0d",
    QPalette.ColorRole.Highlight: HIGHLIGHT,
    QPalette.ColorRole.HighlightedText: "#ffffff",
    QPalette.ColorRole.PlaceholderText: "#9a9a9a",
    QPalette.ColorRole.Link: "#6cb4ff",
    QPalette.ColorRole.LinkVisited: "#b39ddb",
}
DARK_DISABLED = "#7a7a7a"


def is_dark(palette: QPalette | None = None) -> bool:
    pal = palette if palette is not None else QGuiApplication.palette()
    return pal.color(QPalette.ColorRole.Window).lightness() < 128


def scheme_name(palette: QPalette | None = None) -> Scheme:
    return "dark" if is_dark(palette) else "light"


def colours(kind: NoticeKind, palette: QPalette | None = None) -> tuple[str, str, str]:
    return (_DARK if is_dark(palette) else _LIGHT)[kind]


def scheme_colours(kind: NoticeKind, scheme: Scheme) -> tuple[str, str, str]:
    return (_DARK if scheme == "dark" else _LIGHT)[kind]


def state_colour(state: str, palette: QPalette | None = None) -> QColor:
    """The colour of a server state (STATES) in the palette's scheme; grey for one not known."""
    table = _STATE_DARK if is_dark(palette) else _STATE_LIGHT
    return QColor(table.get(state, table["disconnected"]))


def scheme_state_colour(state: str, scheme: Scheme) -> QColor:
    return QColor((_STATE_DARK if scheme == "dark" else _STATE_LIGHT)[state])


def notice_style(kind: NoticeKind, selector: str = "", palette: QPalette | None = None) -> str:
    """A style sheet for a coloured box; `selector` ("#objectName") keeps it off the children."""
    bg, fg, border = colours(kind, palette)
    body = f"background: {bg}; color: {fg}; border: 1px solid {border}; border-radius: 6px; padding: 8px;"
    return f"{selector} {{ {body} }}" if selector else body


def badge_style(kind: NoticeKind, palette: QPalette | None = None) -> str:
    bg, fg, border = colours(kind, palette)
    return f"background: {bg}; color: {fg}; border: 1px solid {border}; border-radius: 8px; padding: 1px 6px;"


def text_colour(kind: NoticeKind, palette: QPalette | None = None) -> QColor:
    """A coloured text on the window itself (no box): "Done in 0.04 s." in success, a line in error."""
    return QColor(colours(kind, palette)[1])


def text_style(kind: NoticeKind, palette: QPalette | None = None) -> str:
    """`text_colour` as a style sheet for a QLabel."""
    return f"color: {text_colour(kind, palette).name()};"


def quiet_text_style(palette: QPalette | None = None) -> str:
    """A quieter label (an id under a title, a hint under a list), readable in both schemes."""
    return f"color: {secondary_text(palette).name()};"


def secondary_text(palette: QPalette | None = None) -> QColor:
    """A quieter text colour for a second line (a state, a count), still readable (≥ 4.5:1)."""
    pal = palette if palette is not None else QGuiApplication.palette()
    text, base = pal.color(QPalette.ColorRole.Text), pal.color(QPalette.ColorRole.Base)
    return mix(text, base, 0.3)


def mix(a: QColor, b: QColor, t: float) -> QColor:
    """`a` moved a fraction `t` toward `b`."""
    return QColor(
        round(a.red() + (b.red() - a.red()) * t),
        round(a.green() + (b.green() - a.green()) * t),
        round(a.blue() + (b.blue() - a.blue()) * t),
    )


class _SchemeWatcher(QObject):
    """Calls `apply` when the widget's palette turns from light to dark or back."""

    def __init__(self, widget: QObject, apply: Callable[[], None]) -> None:
        super().__init__(widget)
        self._apply = apply
        self._dark = is_dark()
        self._busy = False

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.PaletteChange and not self._busy:
            dark = is_dark()
            # Only on a change of scheme: a style sheet set by `apply` changes the palette too.
            if dark != self._dark:
                self._dark = dark
                self._busy = True
                try:
                    self._apply()
                finally:
                    self._busy = False
        return False


def restyle_on_scheme_change(widget: QObject, apply: Callable[[], None]) -> None:
    """Run `apply` now and again whenever the scheme changes (light <-> dark) while `widget`
    lives: the one-line alternative to overriding changeEvent for QEvent.PaletteChange.
    A widget has one look at a time: a second call replaces the first one's `apply`."""
    for old in widget.findChildren(_SchemeWatcher):
        if old.parent() is widget:
            widget.removeEventFilter(old)
            old.deleteLater()
    apply()
    widget.installEventFilter(_SchemeWatcher(widget, apply))


# --- contrast (WCAG 2.x) ---------------------------------------------------------------------
def relative_luminance(colour: QColor) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return (
        0.2126 * channel(colour.redF()) + 0.7152 * channel(colour.greenF()) + 0.0722 * channel(colour.blueF())
    )


def contrast(a: QColor | str, b: QColor | str) -> float:
    la, lb = relative_luminance(QColor(a)), relative_luminance(QColor(b))
    hi, lo = max(la, lb), min(la, lb)
    return (hi + 0.05) / (lo + 0.05)


# --- the scheme ------------------------------------------------------------------------------
def dark_palette() -> QPalette:
    pal = QPalette()
    for role, colour in DARK_ROLES.items():
        pal.setColor(role, QColor(colour))
    for role in (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText):
        pal.setColor(QPalette.ColorGroup.Disabled, role, QColor(DARK_DISABLED))
    return pal


def light_palette() -> QPalette:
    """Fusion's light palette with a selection colour white text can be read on."""
    from PySide6.QtWidgets import QApplication

    style = QApplication.style() if isinstance(QGuiApplication.instance(), QApplication) else None
    pal = style.standardPalette() if style is not None else QPalette()
    for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive):
        pal.setColor(group, QPalette.ColorRole.Highlight, QColor(HIGHLIGHT))
    return pal


def forced_scheme() -> Scheme | None:
    value = os.environ.get(SCHEME_ENV, "").strip().lower()
    if value in ("light", "dark"):
        return value  # type: ignore[return-value]
    if value and value != "system":
        logger.warning("%s=%r: expected light, dark or system", SCHEME_ENV, value)
    return None


def system_scheme() -> Scheme:
    hints = QGuiApplication.styleHints()
    return "dark" if hints.colorScheme() == Qt.ColorScheme.Dark else "light"


class SchemeFollower(QObject):
    """Keeps the application's palette in the system's (or the forced) scheme."""

    def __init__(self, app: QGuiApplication) -> None:
        super().__init__(app)
        self._app = app
        self._forced = forced_scheme()
        self._fusion = False  # True once we set Fusion (then we own the palette)
        self.scheme: Scheme = "light"
        if self._forced is None:
            app.styleHints().colorSchemeChanged.connect(self._changed)
        self.apply()

    def _changed(self, _scheme: Qt.ColorScheme) -> None:
        self.apply()

    def apply(self) -> None:
        wanted = self._forced or system_scheme()
        self.scheme = wanted
        if self._forced is not None:
            # Ask the platform too (Qt ≥ 6.8), so its own widgets (file dialogs) agree where it can.
            self._app.styleHints().setColorScheme(
                Qt.ColorScheme.Dark if wanted == "dark" else Qt.ColorScheme.Light
            )
        if is_dark(self._app.palette()) == (wanted == "dark") and not self._fusion:
            return  # the platform's style already gives this scheme's palette
        self._use_fusion()
        self._app.setPalette(dark_palette() if wanted == "dark" else light_palette())

    def _use_fusion(self) -> None:
        from PySide6.QtWidgets import QApplication

        if isinstance(self._app, QApplication) and not self._fusion:
            QApplication.setStyle("Fusion")
        self._fusion = True


_follower: SchemeFollower | None = None


def follow_color_scheme(app: QGuiApplication) -> SchemeFollower:
    """Follow the system's light/dark scheme from now on (or MCP_DESK_COLOR_SCHEME); once per app."""
    global _follower
    if _follower is None or _follower.parent() is not app:
        _follower = SchemeFollower(app)
    else:
        _follower.apply()
    return _follower
