"""Turns the engine's plain-callback events into Qt signals the window can connect to.

The engine (app/mcp) knows nothing of Qt: it calls a sink `Callable[[Event], None]`. The bridge is
that sink, and matches the event classes of `app.mcp.events` (plain dataclasses and the
`ConnectionState` enum; the SDK is not behind them). The event classes are imported on the first
event, not with the window: defining their dataclasses is work the first paint does not need.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from app.mcp.states import CATALOG_KINDS, CatalogKind, ConnectionState

if TYPE_CHECKING:
    from app.mcp.events import Event

logger = logging.getLogger(__name__)


_KINDS: dict[str, CatalogKind] = {kind: kind for kind in CATALOG_KINDS}


def state_name(state: ConnectionState) -> str:
    """The engine's ConnectionState as the word the bridge's signal carries: 'ready', 'failed', …"""
    return state.value


def catalog_kind(kind: str) -> CatalogKind:
    """A catalog kind that came through a signal as `str`, typed again ('tools', 'resources',
    'resource_templates' or 'prompts'); ValueError for any other word."""
    try:
        return _KINDS[kind]
    except KeyError:
        raise ValueError(f"not a catalog kind: {kind!r}") from None


class EngineBridge(QObject):
    """Re-emits engine events as signals.

    Signals:
        state_changed(server, state, reason): a connection moved to another state; `state` is a
            `ConnectionState` member (a `str` enum: it equals its word, 'idle', 'connecting',
            'installing', 'ready', 'failed', 'closed' or 'needs_sign_in', and a slot declared
            with `str` gets that word; `ConnectionState(state)` turns it back).
            'installing': npx/uvx download it, reason says what.
        catalog_changed(server, kind, diff): a server's tools/resources/resource_templates/prompts
            list was (re)loaded; diff is a `CatalogDiff` (.added .removed .changed name tuples).
        log_line_received(event): a `LogLine`, a stderr line or a `notifications/message`.
        progress_reported(server, call_id, progress, total, message): a call reported progress
            (total is None when unknown).
        traffic_recorded(event): a `Traffic` event, a JSON-RPC message sent or received (secrets
            masked).
        resource_updated(server, uri): a subscribed resource changed.
        sign_in_waiting(server, url): a sign-in page is open in the browser and the engine waits
            for the person (url: the page's address, for "Copy link").
        task_updated(update): a tool call the server runs as a task changed (a `TaskUpdate`).
    """

    state_changed = Signal(str, str, str)
    catalog_changed = Signal(str, str, object)
    log_line_received = Signal(object)
    progress_reported = Signal(str, str, float, object, str)
    traffic_recorded = Signal(object)
    resource_updated = Signal(str, str)
    sign_in_waiting = Signal(str, str)
    task_updated = Signal(object)

    def __call__(self, event: Event) -> None:
        """The engine sink: called for every event, on the loop's (GUI) thread or any other."""
        from app.mcp.events import (  # imported once the engine runs (see the module's note)
            CatalogChanged,
            LogLine,
            Progress,
            ResourceUpdated,
            SignInWaiting,
            StateChanged,
            TaskUpdate,
            Traffic,
        )

        try:
            match event:
                case StateChanged():
                    self.state_changed.emit(event.server, event.state, event.reason or "")
                case CatalogChanged():
                    self.catalog_changed.emit(event.server, event.kind, event.diff)
                case LogLine():
                    self.log_line_received.emit(event)
                case Progress():
                    total = None if event.total is None else float(event.total)
                    self.progress_reported.emit(
                        event.server, event.call_id, float(event.progress or 0.0), total, event.message or ""
                    )
                case Traffic():
                    self.traffic_recorded.emit(event)
                case ResourceUpdated():
                    self.resource_updated.emit(event.server, event.uri)
                case SignInWaiting():
                    self.sign_in_waiting.emit(event.server, event.url)
                case TaskUpdate():
                    self.task_updated.emit(event)
                case _:
                    logger.debug("unhandled engine event %s", type(event).__name__)
        except RuntimeError:
            # The bridge was deleted (window closed) while the engine was still shutting down.
            logger.debug("engine event %s after the bridge was deleted", type(event).__name__)
