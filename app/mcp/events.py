"""Events a connection publishes. Plain dataclasses; a sink is any `Callable[[Event], None]`.

Sinks are called synchronously on the event loop, so they must be quick (the GUI bridge turns
each event into a Qt signal; the CLI prints). A sink that raises is logged and skipped.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from app.mcp.masking import MAX_TRAFFIC_STRING, scrub_fresh

# The states, their reasons' words and the catalog kinds live in app.mcp.states (no dataclass
# there: the window's first paint imports only that); re-exported here.
from app.mcp.states import (
    CATALOG_KINDS,
    SETTLED_STATES,
    SIGN_IN_CANCELLED,
    SIGN_IN_DECLINED,
    SIGN_IN_EXPIRED,
    SIGN_IN_NEEDED,
    SIGN_IN_TIMED_OUT,
    SIGNED_OUT,
    WAITING_FOR_APPROVAL,
    WAITING_FOR_BROWSER,
    CatalogKind,
    ConnectionState,
)
from app.mcp.tasks_events import TaskUpdate

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class CatalogDiff:
    """Names added, removed, and changed (any field the server sent) by one refresh."""

    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.added or self.removed or self.changed)


@dataclass(frozen=True)
class StateChanged:
    server: str
    state: ConnectionState
    reason: str | None = None


@dataclass(frozen=True)
class CatalogChanged:
    server: str
    kind: CatalogKind
    diff: CatalogDiff


@dataclass(frozen=True)
class LogLine:
    server: str
    time: float
    level: str
    """"debug" … "emergency" for server messages; "info" for stderr lines, "warning" for stdout noise."""
    source: Literal["stderr", "server", "client"]
    text: str


@dataclass(frozen=True)
class Progress:
    server: str
    call_id: str
    progress: float
    total: float | None
    message: str | None


class Traffic:
    """A JSON-RPC message sent ("out") or received ("in"). `message` is its wire dict with our
    secrets masked and strings longer than MAX_TRAFFIC_STRING cut.

    Made by `later` (a server with no secrets to mask, so nothing in it is secret), it keeps the
    SDK's message and puts it in wire form, long strings cut, the first time `message` is read:
    the two dumps and walks per call were most of what the traffic log cost a call, and a log
    nobody looks at never pays them. A server with secrets gets the message masked at once
    (app.mcp.connection_base), so no event ever holds a secret in clear."""

    __slots__ = ("_message", "_size", "_source", "direction", "server", "time")

    def __init__(
        self, server: str, time: float, direction: Literal["out", "in"], message: dict[str, Any]
    ) -> None:
        self.server = server
        self.time = time
        self.direction = direction
        self._message: dict[str, Any] | None = message
        self._source: Any = None
        self._size: int | None = None

    @classmethod
    def later(
        cls, server: str, time: float, direction: Literal["out", "in"], source: Any, size: int | None
    ) -> Traffic:
        """The event of the SDK message `source` (a pydantic model; `size`, when known, the length
        of its wire text), put in wire form when read. Only for a message with nothing to mask."""
        self = cls.__new__(cls)
        self.server = server
        self.time = time
        self.direction = direction
        self._message = None
        self._source = source
        self._size = size
        return self

    @property
    def message(self) -> dict[str, Any]:
        message = self._message
        if message is None:
            source = self._source
            message = source.__pydantic_serializer__.to_python(
                source, by_alias=True, mode="json", exclude_unset=True
            )
            # A message whose whole wire text is shorter than the limit has no string to cut.
            size = self._size
            if size is None or size > MAX_TRAFFIC_STRING:
                message = scrub_fresh(message, frozenset())
            self._message = message
            self._source = None
        return message

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Traffic):
            return NotImplemented
        return (self.server, self.time, self.direction, self.message) == (
            other.server,
            other.time,
            other.direction,
            other.message,
        )

    def __hash__(self) -> int:
        return hash((self.server, self.time, self.direction))

    def __repr__(self) -> str:
        return (
            f"Traffic(server={self.server!r}, time={self.time!r}, direction={self.direction!r},"
            f" message={self.message!r})"
        )


@dataclass(frozen=True)
class ResourceUpdated:
    server: str
    uri: str


@dataclass(frozen=True)
class SignInWaiting:
    """A sign-in waits on the person: `url` is the authorization page the browser was sent to
    (for a "copy link" button). Comes with StateChanged(CONNECTING, WAITING_FOR_BROWSER)."""

    server: str
    url: str


Event = (
    StateChanged
    | CatalogChanged
    | LogLine
    | Progress
    | Traffic
    | ResourceUpdated
    | SignInWaiting
    | TaskUpdate
)
Sink = Callable[[Event], None]


def add_sink_to(sinks: list[Sink], sink: Sink) -> Callable[[], None]:
    """Append `sink`; the returned call takes it out again (harmless to call twice)."""
    sinks.append(sink)

    def remove() -> None:
        if sink in sinks:
            sinks.remove(sink)

    return remove


def deliver(sinks: list[Sink], event: Event) -> None:
    """Call every sink; one that raises must not stop the others or the connection."""
    for sink in list(sinks):
        try:
            sink(event)
        except Exception:
            logger.exception("event sink %r raised on %s", sink, type(event).__name__)


class EventStream:
    """Events as an async iterator, for code that prefers `async for` to a callback.

        stream = EventStream(manager.add_sink)
        async for event in stream:
            ...
        stream.close()   # or use it as a context manager

    Bounded: when the consumer falls behind by `maxsize` events, the oldest are dropped (and
    counted in `dropped`) rather than letting memory grow without limit.
    """

    def __init__(self, add_sink: Callable[[Sink], Callable[[], None]], maxsize: int = 10_000) -> None:
        import asyncio
        from collections import deque

        self._items: deque[Event] = deque()
        self._maxsize = maxsize
        self._wake = asyncio.Event()
        self._closed = False
        self.dropped = 0
        self._remove = add_sink(self._push)

    def _push(self, event: Event) -> None:
        if len(self._items) >= self._maxsize:
            self._items.popleft()
            self.dropped += 1
        self._items.append(event)
        self._wake.set()

    def close(self) -> None:
        self._closed = True
        self._remove()
        self._wake.set()

    def __enter__(self) -> EventStream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __aiter__(self) -> EventStream:
        return self

    async def __anext__(self) -> Event:
        while not self._items:
            if self._closed:
                raise StopAsyncIteration
            self._wake.clear()
            await self._wake.wait()
        return self._items.popleft()


__all__ = [  # noqa: RUF022  (the re-exported names first, then this module's)
    "ConnectionState",
    "SETTLED_STATES",
    "SIGN_IN_NEEDED",
    "SIGN_IN_EXPIRED",
    "SIGN_IN_CANCELLED",
    "SIGN_IN_TIMED_OUT",
    "SIGN_IN_DECLINED",
    "SIGNED_OUT",
    "WAITING_FOR_BROWSER",
    "WAITING_FOR_APPROVAL",
    "CatalogKind",
    "CATALOG_KINDS",
    "CatalogDiff",
    "StateChanged",
    "CatalogChanged",
    "LogLine",
    "Progress",
    "Traffic",
    "ResourceUpdated",
    "SignInWaiting",
    "Event",
    "Sink",
    "add_sink_to",
    "deliver",
    "EventStream",
    "TaskUpdate",
]
