"""The window's spacing: one set for the whole window, and `calm(layout)` to apply it.

No widget classes here: the server list takes these before the first paint (app/ui/widgets.py's
text and button classes cost their enums' creation, and are needed later)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PySide6.QtWidgets import QLayout

# GNOME's HIG steps (6, 12, 18 px): calm, and the same everywhere. Panels use MARGIN around their
# content and SPACING between controls; SECTION between groups (a heading and what follows);
# a list row pads its content by ROW_PADDING. Icons beside text are ICON_SIZE; a server's state
# in the list is STATE_ICON_SIZE.
MARGIN = 12
SPACING = 6
SECTION = 18
ROW_PADDING = 8
ICON_SIZE = 16
STATE_ICON_SIZE = 20


def calm(layout: QLayout, *, margin: int = MARGIN, spacing: int = SPACING) -> QLayout:
    """Give `layout` the window's margins and spacing (pass margin=0 for a layout inside another)."""
    layout.setContentsMargins(margin, margin, margin, margin)
    layout.setSpacing(spacing)
    return layout
