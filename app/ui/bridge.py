"""Turns the engine's plain-callback events into Qt signals the window can connect to.

The engine (app/mcp) knows nothing of Qt: it calls a sink `Callable[[Event], None]`. The bridge is
that sink. Events are dispatched by class name so this module does not import the engine (and the
SDK behind it) before the window has painted.
"""

from __future__ import annotations

import logging
from typing import Any

from PySide6.QtCore import QObject, Signal

logger = logging.getLogger(__name__)


def state_name(state: Any) -> str:
    """The engine's ConnectionState (an enum) as a lower-case word: 'ready', 'failed', ..."""
    value = getattr(state, "value", None)
    if isinstance(value, str):
        return value.lower()
    name = getattr(state, "name", None)
    if isinstance(name, str):
        return name.lower()
    return str(state).lower()


class EngineBridge(QObject):
    """Re-emits engine events as signals.

    Signals:
        state_changed(server, state, reason): a connection moved to another state
            (state is 'idle', 'connecting', 'installing', 'ready', 'failed', 'closed' or
            'needs_sign_in'; 'installing': npx/uvx download it, reason says what).
        catalog_changed(server, kind, diff): a server's tools/resources/resource_templates/prompts
            list was (re)loaded; diff has .added .removed .changed name lists.
        log_line_received(event): a stderr line or a `notifications/message` arrived.
        progress_reported(server, call_id, progress, total, message): a call reported progress
            (total is None when unknown).
        traffic_recorded(event): a JSON-RPC message was sent or received (secrets masked).
        resource_updated(server, uri): a subscribed resource changed.
        sign_in_waiting(server, url): a sign-in page is open in the browser and the engine waits
            for the person (url: the page's address, for "Copy link").
    """

    state_changed = Signal(str, str, str)
    catalog_changed = Signal(str, str, object)
    log_line_received = Signal(object)
    progress_reported = Signal(str, str, float, object, str)
    traffic_recorded = Signal(object)
    resource_updated = Signal(str, str)
    sign_in_waiting = Signal(str, str)

    def __call__(self, event: Any) -> None:
        """The engine sink: called for every event, on the loop's (GUI) thread or any other."""
        kind = type(event).__name__
        try:
            if kind == "StateChanged":
                self.state_changed.emit(event.server, state_name(event.state), event.reason or "")
            elif kind == "CatalogChanged":
                self.catalog_changed.emit(event.server, str(event.kind), event.diff)
            elif kind == "LogLine":
                self.log_line_received.emit(event)
            elif kind == "Progress":
                total = None if event.total is None else float(event.total)
                self.progress_reported.emit(
                    event.server, str(event.call_id), float(event.progress or 0.0), total, event.message or ""
                )
            elif kind == "Traffic":
                self.traffic_recorded.emit(event)
            elif kind == "ResourceUpdated":
                self.resource_updated.emit(event.server, event.uri)
            elif kind == "SignInWaiting":
                self.sign_in_waiting.emit(event.server, event.url)
            else:
                logger.debug("unhandled engine event %s", kind)
        except RuntimeError:
            # The bridge was deleted (window closed) while the engine was still shutting down.
            logger.debug("engine event %s after the bridge was deleted", kind)
