"""How our stdio reader cuts the pipe into lines and reads big messages: without extra copies of a
big line, and with the same result as for a small one."""

from __future__ import annotations

import json

from app.mcp.deep import BIG_MESSAGE, parse_message
from app.mcp.stdio import _complete_lines, _decode
from app.mcp.tap import SizedMessage


def test_one_whole_line_is_handed_over_as_it_is() -> None:
    buf = bytearray(b'{"a": 1}\n')
    lines, rest = _complete_lines(buf)
    assert lines == [bytearray(b'{"a": 1}')] and rest == b""
    assert lines[0] is buf  # the big-answer case: no copy of the line


def test_several_lines_and_a_partial_one() -> None:
    lines, rest = _complete_lines(bytearray(b"one\r\ntwo\n\nthree\npart"))
    assert lines == [b"one\r", b"two", b"", b"three"]
    assert rest == b"part"
    lines, rest = _complete_lines(bytearray(b"only\npartial line"))
    assert lines == [b"only"] and rest == b"partial line"


def test_big_and_small_messages_read_the_same() -> None:
    for size in (10, BIG_MESSAGE + 10):
        text = "x" * size + "\u202e\u00e9"
        raw = json.dumps({"jsonrpc": "2.0", "id": 7, "result": {"content": [{"type": "text", "text": text}]}})
        message = parse_message(bytearray(raw.encode() + b"\r"))
        assert message.model_dump(by_alias=True, exclude_none=True) == json.loads(raw)


def test_a_line_that_is_not_a_message_is_reported_by_its_start() -> None:
    assert _decode(bytearray(b"  \r")) is None
    head = _decode(bytearray(b"Starting server on port 3000... " + b"y" * (BIG_MESSAGE * 2)))
    assert isinstance(head, bytes) and head.startswith(b"Starting server") and len(head) <= 500
    assert _decode(bytearray(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}')) is not None


def test_a_big_line_is_given_up_once_its_text_exists() -> None:
    raw = json.dumps(
        {"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "z" * BIG_MESSAGE * 2}]}}
    )
    line = bytearray(raw.encode())
    message = _decode(line)
    assert line == b""  # emptied: the answer is not held as bytes and as text at once
    assert not isinstance(message, bytes) and message is not None
    assert message.message.model_dump(by_alias=True, exclude_none=True) == json.loads(raw)
    # Broken JSON of the same size is still reported by its start.
    broken = bytearray(raw[:-1].encode())
    head = _decode(broken)
    assert isinstance(head, bytes) and head.startswith(b'{"jsonrpc"')


def test_a_line_read_with_its_newline_counts_without_it() -> None:
    """The usual read is one whole line, parsed with its newline: the size the traffic log goes
    by (app.mcp.tap.SizedMessage) is still the line's own, and a lone newline is a blank line."""
    line = b'{"jsonrpc": "2.0", "id": 1, "result": {}}'
    read = _decode(line + b"\n", 1)
    assert isinstance(read, SizedMessage) and read.size == len(line)
    plain = _decode(bytearray(line))
    assert isinstance(plain, SizedMessage) and plain.size == len(line) and plain.message == read.message
    assert _decode(b"\n", 1) is None and _decode(b"\r\n", 1) is None
    noise = _decode(b"Listening on stdio\n", 1)
    assert noise == b"Listening on stdio"
