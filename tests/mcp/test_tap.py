"""The traffic tap (app/mcp/tap.py): what it passes on besides the messages."""

from __future__ import annotations

import contextvars
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import mcp_types as types
import pytest
from anyio.streams.memory import MemoryObjectSendStream
from mcp.shared._context_streams import create_context_streams
from mcp.shared.message import SessionMessage

from app.mcp.tap import SizedMessage, TappedTransport

pytestmark = pytest.mark.anyio

_PING = types.JSONRPCRequest(jsonrpc="2.0", id=1, method="ping")


@asynccontextmanager
async def _pair(context_streams: bool) -> AsyncIterator[tuple[Any, Any]]:
    make = create_context_streams if context_streams else anyio.create_memory_object_stream
    send, receive = make[SessionMessage | Exception](1)
    try:
        yield receive, send
    finally:
        send.close()
        receive.close()


@pytest.mark.parametrize("context_streams", [True, False])
async def test_last_context_is_passed_on_only_where_the_transport_has_it(context_streams: bool) -> None:
    seen: list[tuple[str, Any, int | None]] = []
    tap = lambda d, m, size: seen.append((d, m, size))  # noqa: E731
    tapped = TappedTransport(_pair(context_streams), tap, lambda: None)
    read, write = await tapped.__aenter__()
    try:
        await write.send(SizedMessage(_PING, size=42))
        assert await read.receive() is not None
        # The SDK reads the sender's context with getattr(stream, "last_context", None).
        context = getattr(read, "last_context", None)
        if context_streams:
            assert isinstance(context, contextvars.Context)
        else:
            assert not hasattr(read, "last_context")
    finally:
        await tapped.__aexit__(None, None, None)
    # Out: no length known (None); in: the length the transport read.
    assert seen == [("out", _PING, None), ("in", _PING, 42)]


async def test_a_plain_session_message_comes_with_no_length() -> None:
    seen: list[int | None] = []
    tapped = TappedTransport(_pair(False), lambda d, m, size: seen.append(size), lambda: None)
    read, write = await tapped.__aenter__()
    try:
        await write.send(SessionMessage(_PING))
        await read.receive()
    finally:
        await tapped.__aexit__(None, None, None)
    assert seen == [None, None]


async def test_without_a_tap_the_write_end_is_the_transports_and_the_end_is_still_noticed() -> None:
    ended: list[bool] = []
    inner = _pair(False)
    tapped = TappedTransport(inner, None, lambda: ended.append(True))
    read, write = await tapped.__aenter__()
    try:
        assert isinstance(write, MemoryObjectSendStream)  # no wrapper: one coroutine fewer a message
        await write.send(SessionMessage(_PING))
        assert (await read.receive()).message == _PING
        write.close()
        with pytest.raises(anyio.EndOfStream):
            await read.receive()
    finally:
        await tapped.__aexit__(None, None, None)
    assert ended == [True]
