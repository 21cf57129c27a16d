"""The app's icons by name, for actions and server states.

Contract for the views: `icon(NAME)` with a name from NAMES; an unknown name is a programming
error (KeyError), a missing file an empty QIcon (the button keeps its text). The look follows the
palette (light or dark), so call `icon()` when building a widget and again on a palette change.
"""

from __future__ import annotations

from PySide6.QtGui import QIcon

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


def icon(name: str) -> QIcon:
    if name not in NAMES:
        raise KeyError(name)
    return QIcon()
