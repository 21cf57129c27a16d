"""The app's icons by name, for actions and server states.

Contract for the views: `icon(NAME)` with a name from NAMES; an unknown name is a programming
error (KeyError), a missing file an empty QIcon (the button keeps its text).

The images are Lucide's (lucide-static on npm, ISC licence, resources/icons/LICENSE.lucide):
one consistent line set of 24×24 strokes, well kept, with an icon for each thing we name, and
plain SVG files we can ship without a font or another dependency. Each icon is drawn from its SVG
at the size and device pixel ratio asked for (crisp on high-DPI), in a colour read from the
palette at paint time: an icon made before the scheme changed still follows it. Action icons take
the text colour (dimmed when disabled, the highlighted text colour when selected); state icons
take their state's colour from `theme.state_colour`.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QByteArray, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QGuiApplication, QIcon, QIconEngine, QPainter, QPalette, QPixmap

logger = logging.getLogger(__name__)

NAMES = frozenset(
    {
        # actions
        "add", "remove", "edit", "run", "cancel", "connect", "disconnect", "sign-in", "diagnose",
        "browse", "package", "paste", "copy", "open-link", "refresh", "log", "settings", "key",
        # server states
        "state-connected", "state-connecting", "state-installing", "state-failed",
        "state-disconnected", "state-disabled", "state-needs-sign-in", "state-waiting",
        # kinds of things a server offers
        "tool", "resource", "prompt",
    }
)  # fmt: skip

# Our name -> Lucide's file name (resources/icons/NAME.svg).
FILES: dict[str, str] = {
    "add": "plus",
    "remove": "trash-2",
    "edit": "pencil",
    "run": "play",
    "cancel": "circle-stop",
    "connect": "plug",
    "disconnect": "unplug",
    "sign-in": "log-in",
    "diagnose": "stethoscope",
    "browse": "compass",
    "package": "package",
    "paste": "clipboard-paste",
    "copy": "copy",
    "open-link": "external-link",
    "refresh": "refresh-cw",
    "log": "scroll-text",
    "settings": "settings",
    "key": "key-round",
    "state-connected": "circle-check",
    "state-connecting": "loader-circle",
    "state-installing": "circle-arrow-down",
    "state-failed": "circle-x",
    "state-disconnected": "circle",
    "state-disabled": "ban",
    "state-needs-sign-in": "lock-keyhole",
    "state-waiting": "shield-question-mark",
    "tool": "wrench",
    "resource": "file-text",
    "prompt": "message-square-text",
}


def icon_dir() -> Path:
    """resources/icons in a checkout, or in the frozen app (PyInstaller puts resources/ beside it)."""
    base = getattr(sys, "_MEIPASS", None)
    root = Path(base) if base else Path(__file__).resolve().parents[2]
    return root / "resources" / "icons"


Tint = Callable[[QIcon.Mode], QColor]


def _palette_tint(mode: QIcon.Mode) -> QColor:
    pal = QGuiApplication.palette()
    if mode == QIcon.Mode.Disabled:
        return pal.color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.WindowText)
    if mode == QIcon.Mode.Selected:
        return pal.color(QPalette.ColorRole.HighlightedText)
    return pal.color(QPalette.ColorRole.WindowText)


def _state_tint(state: str) -> Tint:
    def tint(mode: QIcon.Mode) -> QColor:
        if mode in (QIcon.Mode.Disabled, QIcon.Mode.Selected):
            return _palette_tint(mode)  # on a selected row the state's colour may not be seen
        from app.ui.theme import state_colour

        return state_colour(state)

    return tint


class TintedSvgEngine(QIconEngine):
    """Draws one SVG (stroked in `currentColor`) in the colour `tint(mode)` gives, at any size."""

    def __init__(self, name: str, svg: bytes, tint: Tint) -> None:
        super().__init__()
        self._name = name
        self._svg = svg
        self._tint = tint
        self._renderers: dict[str, object] = {}  # colour -> QSvgRenderer
        self._pixmaps: dict[tuple[int, int, int, str], QPixmap] = {}

    def _renderer(self, colour: QColor) -> object:
        from PySide6.QtSvg import QSvgRenderer  # only when something is drawn (start-up)

        key = colour.name(QColor.NameFormat.HexArgb)
        found = self._renderers.get(key)
        if found is None:
            rgb = colour.name().encode()
            data = self._svg.replace(b"currentColor", rgb)
            if colour.alpha() < 255:
                data = data.replace(b"<svg", b'<svg opacity="%.3f"' % colour.alphaF(), 1)
            found = QSvgRenderer(QByteArray(data))
            self._renderers[key] = found
        return found

    def paint(self, painter: QPainter, rect: QRect, mode: QIcon.Mode, state: QIcon.State) -> None:
        renderer = self._renderer(self._tint(mode))
        side = min(rect.width(), rect.height())
        target = QRectF(
            rect.x() + (rect.width() - side) / 2, rect.y() + (rect.height() - side) / 2, side, side
        )
        renderer.render(painter, target)  # type: ignore[attr-defined]

    def _draw(self, size: QSize, mode: QIcon.Mode, scale: float) -> QPixmap:
        colour = self._tint(mode)
        w, h = max(1, round(size.width() * scale)), max(1, round(size.height() * scale))
        key = (w, h, int(scale * 100), colour.name(QColor.NameFormat.HexArgb))
        pixmap = self._pixmaps.get(key)
        if pixmap is None:
            pixmap = QPixmap(w, h)
            pixmap.fill(Qt.GlobalColor.transparent)
            painter = QPainter(pixmap)
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            self.paint(painter, QRect(0, 0, w, h), mode, QIcon.State.Off)
            painter.end()
            pixmap.setDevicePixelRatio(scale)
            if len(self._pixmaps) > 32:  # sizes and colours seen are few; keep it bounded
                self._pixmaps.clear()
            self._pixmaps[key] = pixmap
        return pixmap

    def pixmap(self, size: QSize, mode: QIcon.Mode, state: QIcon.State) -> QPixmap:
        return self._draw(size, mode, 1.0)

    def scaledPixmap(self, size: QSize, mode: QIcon.Mode, state: QIcon.State, scale: float) -> QPixmap:
        return self._draw(size, mode, scale)

    def actualSize(self, size: QSize, mode: QIcon.Mode, state: QIcon.State) -> QSize:
        side = min(size.width(), size.height())
        return QSize(side, side)

    def clone(self) -> QIconEngine:
        engine = TintedSvgEngine(self._name, self._svg, self._tint)
        _ENGINES.append(engine)
        return engine

    def key(self) -> str:
        return "mcp-desk-tinted-svg"

    def iconName(self) -> str:
        return self._name

    def isNull(self) -> bool:
        return False


# The engines stay referenced from Python: the QIcons hold them by pointer only.
_ENGINES: list[TintedSvgEngine] = []
_ICONS: dict[str, QIcon] = {}


def icon(name: str) -> QIcon:
    if name not in NAMES:
        raise KeyError(name)
    found = _ICONS.get(name)
    if found is not None:
        return QIcon(found)
    path = icon_dir() / f"{FILES[name]}.svg"
    try:
        svg = path.read_bytes()
    except OSError:
        logger.warning("icon %s: %s is missing", name, path)
        return QIcon()
    tint = _state_tint(name.removeprefix("state-")) if name.startswith("state-") else _palette_tint
    engine = TintedSvgEngine(name, svg, tint)
    _ENGINES.append(engine)
    made = QIcon(engine)
    _ICONS[name] = made
    return QIcon(made)
