"""Messages nested too deeply (app/mcp/deep.py), on HTTP: a response hook that makes the JSON and
event-stream bodies the SDK reads readable on their way through.

Its own module so that a process that speaks only stdio (the CLI's `--stdio` commands) never
imports httpx2 (~40 ms of a command's start, app/mcp/sdk_client_only.py)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any

import httpx2

from app.mcp.deep import may_be_too_deep, shallow

_EVENT_END = re.compile(rb"\r\n\r\n|\n\n|\r\r")


def _guard_event(event: bytes) -> bytes:
    """One server-sent event, its data made readable if it nests too deeply."""
    if not may_be_too_deep(event):
        return event
    lines = event.splitlines()
    data = [line[5:].removeprefix(b" ") for line in lines if line.startswith(b"data:")]
    fixed = shallow(b"\n".join(data)) if data else None
    if fixed is None:
        return event
    kept = [line for line in lines if line and not line.startswith(b"data:")]
    return b"\n".join([*kept, b"data: " + fixed]) + b"\n\n"


class _GuardedStream(httpx2.AsyncByteStream):
    """A response body whose JSON-RPC messages are made readable on the way through: a JSON body
    once complete, an event stream event by event (each passed on as soon as it is complete)."""

    def __init__(self, inner: Any, events: bool) -> None:
        self._inner = inner
        self._events = events

    @property
    def elapsed(self) -> Any:
        return getattr(self._inner, "elapsed", None)

    async def __aiter__(self) -> AsyncIterator[bytes]:
        if not self._events:
            body = b"".join([chunk async for chunk in self._inner])
            yield shallow(body) or body
            return
        buf = bytearray()
        async for chunk in self._inner:
            start = max(0, len(buf) - 3)  # an event end may straddle two chunks
            buf += chunk
            ready: list[bytes] = []
            pos = 0
            while (end := _EVENT_END.search(buf, max(pos, start))) is not None:
                ready.append(_guard_event(bytes(buf[pos : end.end()])))
                pos = end.end()
            if ready:
                del buf[:pos]
                yield b"".join(ready)
        if buf:
            yield _guard_event(bytes(buf))

    async def aclose(self) -> None:
        await self._inner.aclose()


async def guard_response(response: httpx2.Response) -> None:
    """httpx response hook: wrap JSON and event-stream bodies in the depth guard."""
    kind = response.headers.get("content-type", "").lower()
    encoding = response.headers.get("content-encoding", "identity").lower()
    if encoding != "identity":
        return  # compressed bytes: left to the SDK as they are
    if kind.startswith("application/json"):
        response.stream = _GuardedStream(response.stream, events=False)
    elif kind.startswith("text/event-stream"):
        response.stream = _GuardedStream(response.stream, events=True)
