"""Messages nested too deeply for the SDK's JSON parser are cut down, not dropped.

pydantic's JSON parser (which the SDK and our stdio transport use for every message) gives up at
200 levels of nesting. One tool whose inputSchema nests deeper made the whole `tools/list` answer
unreadable: over stdio it was taken for stray output and the connection waited out its timeout;
over HTTP the listing failed and no tool was shown. Here such a message is rewritten before it
is parsed:

- every value nested deeper than MESSAGE_DEPTH is replaced by a marker `{TOO_DEEP: depth}` (found
  by a scan that never recurses, so any depth is fine), and
- in a tools listing, a tool whose input or output schema held such a marker gets a placeholder
  schema that says why (`{UNUSABLE: "its input description is nested too deeply (N levels)"}`),
  which the catalog turns into the tool's `problem`. The other tools are listed as they are.

Only messages that the parser refuses are touched; the cost for the others is a byte count.
HTTP bodies go through the same on their way to the SDK (app/mcp/deep_http.py).
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any

import mcp_types as types
import pydantic_core
from pydantic import ValidationError

logger = logging.getLogger(__name__)

MESSAGE_DEPTH = 180
"""Levels of objects/arrays kept in one message (the parser's own limit is 200)."""
TOO_DEEP = "x-mcp-desk-too-deep"
"""Key of the marker that replaces a value nested too deeply; its value: the depth it reached."""
UNUSABLE = "x-mcp-desk-unusable"
"""Key of a placeholder schema that stands for one the app cannot use; its value: why."""

_TOOL_SCHEMA_DEPTH = 5  # message {result {tools [tool {inputSchema {  — the schema's own level
_TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)


def may_be_too_deep(data: bytes | bytearray) -> bool:
    return data.count(b"{") + data.count(b"[") > MESSAGE_DEPTH


BIG_MESSAGE = 1 << 16  # above this, a message is parsed with json.loads (see parse_message)


def _is_depth_error(exc: ValueError) -> bool:
    return "recursion limit exceeded" in str(exc)


def cut_deep(data: bytes | bytearray) -> bytes:
    """`data` (JSON text) with every object/array below MESSAGE_DEPTH replaced by a marker."""
    out = bytearray()
    depth = 0
    cut_at = 0  # depth where the current cut began (0: not cutting)
    deepest = 0
    copied = 0  # data[:copied] is dealt with
    for match in _TOKEN.finditer(data):
        token = match.group()
        if token[:1] == b'"':
            continue  # a string: brackets inside it do not count
        if token in (b"{", b"["):
            depth += 1
            if cut_at:
                deepest = max(deepest, depth)
            elif depth > MESSAGE_DEPTH:
                out += data[copied : match.start()]
                cut_at, deepest = depth, depth
        else:
            if cut_at and depth == cut_at:
                out += json.dumps({TOO_DEEP: deepest}).encode()
                copied = match.end()
                cut_at = 0
            depth -= 1
    if not cut_at:
        out += data[copied:]
    return bytes(out)


def _deepest_marker(value: Any) -> int:
    """The greatest depth recorded by the markers inside `value`; 0 when nothing was cut there."""
    found = 0
    stack: list[Any] = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if isinstance(node.get(TOO_DEEP), int):
                found = max(found, node[TOO_DEEP])
                continue
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return found


def _placeholder_schemas(message: Any) -> None:
    """In a tools listing, put a placeholder with the reason in place of each cut schema."""
    result = message.get("result") if isinstance(message, dict) else None
    tools = result.get("tools") if isinstance(result, dict) else None
    if not isinstance(tools, list):
        return
    for tool in tools:
        if not isinstance(tool, dict):
            continue
        for key, what in (("inputSchema", "input"), ("outputSchema", "output")):
            reached = _deepest_marker(tool.get(key))
            if reached:
                levels = reached - _TOOL_SCHEMA_DEPTH + 1
                reason = f"its {what} description is nested too deeply ({levels} levels)"
                tool[key] = {"type": "object", UNUSABLE: reason}
                logger.info("tool %r: %s", tool.get("name"), reason)


def shallow(data: bytes | bytearray) -> bytes | None:
    """`data` made readable when it nests too deeply for the parser; None when it needs nothing
    (or is not JSON at all: the caller's parser says so as before)."""
    if not may_be_too_deep(data):
        return None
    try:
        pydantic_core.from_json(data)
        return None
    except ValueError as exc:
        if not _is_depth_error(exc):
            return None
    return _shallow(data)


def _shallow(data: bytes | bytearray) -> bytes:
    message = json.loads(cut_deep(data))
    _placeholder_schemas(message)
    return json.dumps(message, separators=(",", ":")).encode()


def parse_message(data: bytes | bytearray, *, consume: bool = False) -> types.JSONRPCMessage:
    """One JSON-RPC message from its text, as `jsonrpc_message_adapter.validate_json`, except that
    a message nested too deeply is cut down (see the module doc) instead of refused.

    With `consume`, a big `bytearray` may be emptied on the way (the reader has no further use
    for it): a 100 MB answer is then in memory twice at its peak, not three times.
    """
    if len(data) > BIG_MESSAGE:
        # pydantic's own JSON parser holds about four copies of a 100 MB string at its peak (and
        # takes longer); json.loads of the decoded text builds it once more, and the bytes can go
        # as soon as the text exists. Anything this does not take goes the usual way below.
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = None
        if text is not None:
            if consume and isinstance(data, bytearray):
                data.clear()
            try:
                return types.jsonrpc_message_adapter.validate_python(json.loads(text), by_name=False)
            except (ValueError, RecursionError):
                data = text.encode("utf-8")
            del text
    try:
        return types.jsonrpc_message_adapter.validate_json(data, by_name=False)
    except ValidationError as exc:
        if not _is_depth_error(exc):
            raise
    logger.info("a message nests more than %d levels deep: cutting it down", MESSAGE_DEPTH)
    return types.jsonrpc_message_adapter.validate_json(_shallow(data), by_name=False)
