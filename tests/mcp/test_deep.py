"""app.mcp.deep on its own: any depth is cut without recursion, strings are left alone, and the
HTTP guard passes event streams through whole, however the bytes are chunked."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import httpx2
import pytest

from app.mcp.deep import MESSAGE_DEPTH, TOO_DEEP, UNUSABLE, cut_deep, parse_message, shallow
from app.mcp.deep_http import _GuardedStream

pytestmark = pytest.mark.anyio


def deep_list(levels: int) -> str:
    return "[" * levels + "]" * levels


def listing(schema_text: str) -> bytes:
    return (
        '{"jsonrpc":"2.0","id":7,"result":{"tools":['
        '{"name":"ok","description":"has [[[ and {{{ in \\"quotes\\"","inputSchema":{"type":"object"}},'
        '{"name":"bad","inputSchema":{"type":"object","default":' + schema_text + "}}]}}"
    ).encode()


def test_any_depth_is_cut_and_strings_do_not_count() -> None:
    message = parse_message(listing(deep_list(100_000)))  # far past Python's recursion limit
    tools = json.loads(message.model_dump_json(by_alias=True))["result"]["tools"]
    assert tools[0]["description"] == 'has [[[ and {{{ in "quotes"'
    assert tools[0]["inputSchema"] == {"type": "object"}
    assert tools[1]["inputSchema"] == {
        "type": "object",
        UNUSABLE: "its input description is nested too deeply (100001 levels)",
    }


def test_shallow_messages_are_left_as_they_are() -> None:
    text = listing(deep_list(MESSAGE_DEPTH - 10))
    assert shallow(text) is None
    assert shallow(b"not json at all " + b"[" * 500) is None  # the caller's parser says what is wrong
    cut = json.loads(cut_deep(b"[" * (MESSAGE_DEPTH + 5) + b"]" * (MESSAGE_DEPTH + 5)))
    for _ in range(MESSAGE_DEPTH - 1):
        cut = cut[0]
    assert cut == [{TOO_DEEP: MESSAGE_DEPTH + 5}]


class Chunks(httpx2.AsyncByteStream):
    def __init__(self, data: bytes, size: int) -> None:
        self.parts = [data[i : i + size] for i in range(0, len(data), size)]

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for part in self.parts:
            yield part

    async def aclose(self) -> None:
        pass


@pytest.mark.parametrize("size", [1, 2, 3, 7, 1 << 16])
async def test_event_stream_guard_keeps_every_event(size: int) -> None:
    deep = listing(deep_list(300))
    small = b'{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}'
    stream = b"event: message\r\ndata: " + small + b"\r\n\r\n"
    stream += b"id: 2\nevent: message\ndata: " + deep + b"\n\n"
    out = b"".join([part async for part in _GuardedStream(Chunks(stream, size), events=True)])
    events = [e for e in out.replace(b"\r\n", b"\n").split(b"\n\n") if e]
    assert len(events) == 2
    assert events[0] == b"event: message\ndata: " + small
    lines = events[1].split(b"\n")
    assert lines[:2] == [b"id: 2", b"event: message"]
    fixed = json.loads(lines[2].removeprefix(b"data: "))
    assert UNUSABLE in fixed["result"]["tools"][1]["inputSchema"]
