"""Colours and styles that follow the palette (light or dark), so no view hard-codes a light colour.

Contract for the views: `notice_style(kind)` for a coloured box (a banner, a notice, a failure
box), `badge_style(kind)` for a small label; kinds are NOTICE_KINDS. Call them when building a
widget and again on `QEvent.PaletteChange` (the look follows the system's scheme while running).
"""

from __future__ import annotations

from typing import Literal

from PySide6.QtGui import QGuiApplication, QPalette

NoticeKind = Literal["info", "warning", "error", "success", "neutral"]
NOTICE_KINDS: tuple[NoticeKind, ...] = ("info", "warning", "error", "success", "neutral")

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


def is_dark(palette: QPalette | None = None) -> bool:
    pal = palette if palette is not None else QGuiApplication.palette()
    return pal.color(QPalette.ColorRole.Window).lightness() < 128


def colours(kind: NoticeKind, palette: QPalette | None = None) -> tuple[str, str, str]:
    return (_DARK if is_dark(palette) else _LIGHT)[kind]


def notice_style(kind: NoticeKind, selector: str = "", palette: QPalette | None = None) -> str:
    """A style sheet for a coloured box; `selector` ("#objectName") keeps it off the children."""
    bg, fg, border = colours(kind, palette)
    body = f"background: {bg}; color: {fg}; border: 1px solid {border}; border-radius: 4px; padding: 6px;"
    return f"{selector} {{ {body} }}" if selector else body


def badge_style(kind: NoticeKind, palette: QPalette | None = None) -> str:
    bg, fg, border = colours(kind, palette)
    return f"background: {bg}; color: {fg}; border: 1px solid {border}; border-radius: 8px; padding: 1px 6px;"
