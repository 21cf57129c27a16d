"""A transport wrapper that sees every JSON-RPC message in and out (for the traffic log) and
notices when the server's side of the stream ends (for "connection lost").

It wraps the (read, write) stream pair any SDK transport yields, so stdio, Streamable HTTP and
SSE are observed the same way. Sends are forwarded in the caller's task, so the HTTP
transports still see the sender's context (they route each message by it).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Literal, Self

import anyio
from mcp.shared.message import SessionMessage
from mcp_types import JSONRPCMessage

Tap = Callable[[Literal["in", "out"], JSONRPCMessage, int | None], None]
"""Called with each message and, when the transport knows it, the length of its wire text."""


@dataclass
class SizedMessage(SessionMessage):
    """A message read by a transport that knows the length of its wire text (our stdio reader):
    no string in it is longer than `size`, so the traffic log need not look for strings to cut."""

    size: int | None = None


class _TappedStream:
    """What both tapped ends share: the wrapped stream, the tap, and closing as a context manager."""

    def __init__(self, inner: Any, tap: Tap | None) -> None:
        self._inner = inner
        self._tap = tap

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> bool | None:
        await self.aclose()
        return None


class _TapRead(_TappedStream):
    """The read end. Without `last_context`: the SDK looks it up on every message read, and a
    stream that has none (stdio's) then answers at once instead of through a property that
    looks it up again on the inner stream (see _TapContextRead)."""

    def __init__(self, inner: Any, tap: Tap | None, on_eof: Callable[[], None]) -> None:
        super().__init__(inner, tap)
        self._on_eof = on_eof

    async def receive(self) -> SessionMessage | Exception:
        try:
            item = await self._inner.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError):
            self._on_eof()
            raise
        tap = self._tap
        if tap is not None and isinstance(item, SessionMessage):
            tap("in", item.message, item.size if isinstance(item, SizedMessage) else None)
        return item  # type: ignore[no-any-return]

    def __aiter__(self) -> _TapRead:
        return self

    async def __anext__(self) -> SessionMessage | Exception:
        # What receive() does, without its extra coroutine: the SDK reads every message this way.
        try:
            item = await self._inner.receive()
        except anyio.EndOfStream:
            self._on_eof()
            raise StopAsyncIteration from None
        except anyio.ClosedResourceError:
            self._on_eof()
            raise
        tap = self._tap
        if tap is not None and isinstance(item, SessionMessage):
            tap("in", item.message, item.size if isinstance(item, SizedMessage) else None)
        return item  # type: ignore[no-any-return]


class _TapContextRead(_TapRead):
    """The read end of a transport whose stream carries the sender's context (the SDK's
    ContextReceiveStream, Streamable HTTP's and SSE's): passed on as the SDK reads it."""

    @property
    def last_context(self) -> Any:
        return getattr(self._inner, "last_context", None)


class _TapWrite(_TappedStream):
    _tap: Tap

    async def send(self, item: SessionMessage, /) -> None:
        self._tap("out", item.message, None)
        await self._inner.send(item)


class TappedTransport:
    """`Transport` (async context manager of a stream pair) that taps another one. Without a
    `tap` (a connection with no traffic log, the CLI's) it only notices the end of the stream:
    the write end is then the inner one as it is, one coroutine fewer on every message sent."""

    def __init__(
        self, inner: AbstractAsyncContextManager[Any], tap: Tap | None, on_eof: Callable[[], None]
    ) -> None:
        self._inner = inner
        self._tap = tap
        self._on_eof = on_eof

    async def __aenter__(self) -> tuple[_TapRead, Any]:
        read, write = await self._inner.__aenter__()
        kind = _TapContextRead if hasattr(read, "last_context") else _TapRead
        tap = self._tap
        return kind(read, tap, self._on_eof), (write if tap is None else _TapWrite(write, tap))

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> bool | None:
        return await self._inner.__aexit__(exc_type, exc, tb)
