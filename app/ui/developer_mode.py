"""Developer mode: one switch (View → Developer mode, remembered) that brings back what only a
developer needs — tool ids, the JSON tab, raw results, protocol versions, traffic, the Add dialog's
protocol fields. Off by default: the window speaks to people first.

One process-wide object, so every view can listen without being handed it. The window loads the
remembered value from its settings at start and saves it on change; this module stores nothing.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal


class DeveloperMode(QObject):
    """Whether developer mode is on; `changed(bool)` when it flips."""

    changed = Signal(bool)

    def __init__(self) -> None:
        super().__init__()
        self._on = False

    def enabled(self) -> bool:
        return self._on

    def set_enabled(self, on: bool) -> None:
        if on != self._on:
            self._on = on
            self.changed.emit(on)


_INSTANCE: DeveloperMode | None = None


def developer_mode() -> DeveloperMode:
    """The one DeveloperMode of this process (made on first use, after the QApplication)."""
    global _INSTANCE
    if _INSTANCE is None:
        _INSTANCE = DeveloperMode()
    return _INSTANCE
