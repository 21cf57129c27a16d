"""What every part of a `ServerConnection` shares: its state, events, log, masking, the
client it talks through and the request helpers (`_require_client`, `_timed`, `_failures`).

The parts (catalog_sync, person_requests, calls, signing_in) are mixins over `ConnectionCore`;
`app.mcp.connection.ServerConnection` puts them together and owns the lifecycle. The attributes
are declared here and set in `ServerConnection.__init__`."""

from __future__ import annotations

import asyncio
import json
import logging
import sys
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

import anyio
import mcp_types as types
from mcp import Client
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from app.mcp import reasons
from app.mcp.catalog import Catalog
from app.mcp.events import ConnectionState, Event, LogLine, Sink, StateChanged, Traffic, add_sink_to, deliver
from app.mcp.failures import FailureRules, Failures
from app.mcp.handlers import ClientHandlers
from app.mcp.masking import MAX_TRAFFIC_STRING, mask_text, scrub_fresh
from app.mcp.results import REQUEST_TIMEOUT, CallTimedOut, NotConnected
from app.mcp.session_recovery import SessionKeeper
from app.mcp.stdio import ProcessInfo
from app.mcp.target import Target

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class ServerInfo:
    """What the server says about itself (all optional on 2026-07-28 servers)."""

    name: str
    title: str | None
    version: str | None
    icons: list[dict[str, Any]] = field(default_factory=list)


def _dump(model: Any) -> dict[str, Any]:
    """`model.model_dump(by_alias=True, mode="json", exclude_unset=True)`, asking its serializer
    directly: model_dump passes a dozen more arguments on, a third of a small answer's cost (it
    runs on every result, and twice per call for the traffic log)."""
    return cast(
        dict[str, Any],
        model.__pydantic_serializer__.to_python(model, by_alias=True, mode="json", exclude_unset=True),
    )


class ConnectionCore:
    """The state every part of a connection reads and writes (set in ServerConnection.__init__)."""

    target: Target
    handlers: ClientHandlers
    _sinks: list[Sink]
    _http_client: Any
    _inproc: Any
    traffic: bool
    state: ConnectionState
    reason: str | None
    protocol_version: str | None
    server_info: ServerInfo | None
    capabilities: dict[str, Any]
    instructions: str | None
    catalog: Catalog
    log: deque[LogLine]
    process: ProcessInfo | None
    was_ready: bool
    _client: Client | None
    _scope: anyio.CancelScope | None
    _stopping: bool
    _lost_reason: str | None
    _lost: asyncio.Event
    _state_event: asyncio.Event
    _http_observer: Any
    _auth: Any
    _failure_rules: FailureRules
    _session_keeper: SessionKeeper  # h12-session: a lost Streamable HTTP session is renewed

    @property
    def name(self) -> str:
        return self.target.name

    def add_sink(self, sink: Sink) -> Callable[[], None]:
        return add_sink_to(self._sinks, sink)

    def _emit(self, event: Event) -> None:
        if self._sinks:
            deliver(self._sinks, event)

    def _log(self, level: str, source: Any, text: str) -> None:
        if self.target.secret_values:
            text = mask_text(text, self.target.secret_values)
        line = LogLine(self.name, time.time(), level, source, text)
        self.log.append(line)
        self._emit(line)

    def _mask(self, text: str) -> str:
        return mask_text(text, self.target.secret_values) if self.target.secret_values else text

    def _masked(self, data: Any) -> Any:
        """A server's answer (just dumped, held by nobody else) with our secrets masked in place:
        a server that repeats a key it was given must not put it on the screen or in history."""
        secrets = self.target.secret_values
        return scrub_fresh(data, secrets, sys.maxsize) if secrets else data

    def _masked_listing(self, item: dict[str, Any]) -> dict[str, Any]:
        """A listed tool, resource or prompt with our secrets masked in its texts (a description
        may repeat a key); its name and URI are kept as sent: they are how we ask for it."""
        if not self.target.secret_values:
            return item
        keep: dict[str, Any] = {k: item[k] for k in ("name", "uri", "uriTemplate") if k in item}
        masked: dict[str, Any] = self._masked(item)
        masked.update(keep)
        return masked

    def _set_state(self, state: ConnectionState, reason: str | None = None) -> None:
        if reason and self.target.secret_values:
            reason = mask_text(reason, self.target.secret_values)
        self.state = state
        self.reason = reason
        if state == ConnectionState.FAILED:
            logger.info("%s failed: %s", self.name, reason)
        self._state_event.set()
        self._state_event = asyncio.Event()
        self._emit(StateChanged(self.name, state, reason))

    def _tap(self, direction: Any, message: types.JSONRPCMessage, size: int | None = None) -> None:
        sinks = self._sinks
        if not self.traffic or not sinks:
            return
        # `deliver` and `target.name` rather than `_emit` and `name`: two calls fewer on each of
        # the two messages of every call.
        target = self.target
        secrets = target.secret_values
        if not secrets and (direction == "out" or (size is not None and size <= MAX_TRAFFIC_STRING)):
            # Nothing to mask: put in wire form (long strings cut) when read. A server's message
            # that is long, or of unknown length (HTTP), is cut now: a log nobody reads must not
            # keep 5,000 of a hostile server's huge ones whole. What we send is ours already.
            deliver(sinks, Traffic.later(target.name, time.time(), direction, message, size))
            return
        deliver(sinks, Traffic(target.name, time.time(), direction, scrub_fresh(_dump(message), secrets)))

    async def _on_log_message(self, params: types.LoggingMessageNotificationParams) -> None:
        data = params.data
        text = data if isinstance(data, str) else json.dumps(data, default=str)
        if params.logger:
            text = f"[{params.logger}] {text}"
        self._log(str(params.level), "server", text)

    @property
    def _modern(self) -> bool:
        return self.protocol_version in MODERN_PROTOCOL_VERSIONS

    def _require_client(self) -> Client:
        client = self._client
        if client is None or self.state not in (
            ConnectionState.READY,
            ConnectionState.CONNECTING,
            ConnectionState.INSTALLING,
        ):
            raise NotConnected(self.name, self.reason)
        return client

    async def _timed(self, awaitable: Any, timeout: float | None = None) -> Any:
        """Await a request with the target's timeout (the server is told if it runs out)."""
        limit = timeout if timeout is not None else self.target.timeout
        with anyio.move_on_after(limit) as scope:
            return await awaitable
        if scope.cancelled_caught:
            raise CallTimedOut(f"no answer within {limit:g} s", REQUEST_TIMEOUT)
        raise AssertionError("unreachable")

    def _failures(self, what: str) -> Failures:
        return Failures(self._failure_rules, what)

    def _failure_rules_of_this_connection(self) -> FailureRules:
        return FailureRules(
            lost=self._connection_lost,
            refusal=self._take_step_up_refusal,
            mask=self._mask,
            masked=self._masked,
            explain=lambda exc: reasons.explain(exc, self.target, None, self._http_observer),
        )

    def _connection_lost(self, reason: str | None) -> None:
        """The connection is gone (the owner task ends the run and says why)."""
        if reason is None:
            self._lost_reason = self._lost_reason or "the server closed the connection"
        else:
            self._lost_reason = reason
        self._lost.set()

    def _take_step_up_refusal(self) -> str | None:
        """Why the last step-up did not happen (declined, cancelled, timed out), once."""
        desk = getattr(self._auth, "_desk", None)
        refusal = getattr(desk, "refused_step_up", None)
        if refusal is None:
            return None
        desk.refused_step_up = None  # type: ignore[union-attr]
        return str(refusal.reason)
