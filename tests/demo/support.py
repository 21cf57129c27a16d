"""Helpers to talk to the real demo server process from tests."""

from __future__ import annotations

import base64
import struct
import sys
import zlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from mcp import Client, StdioServerParameters

REPO = Path(__file__).resolve().parents[2]

# Both protocol eras: the initialize handshake (2025-11-25) and the stateless 2026-07-28 one.
MODES = ["legacy", "auto"]
EXPECTED_VERSION = {"legacy": "2025-11-25", "auto": "2026-07-28"}


def demo_params(*extra: str) -> StdioServerParameters:
    """The demo server as MCP Desk's first-run config starts it: `python -m app demo-server`."""
    return StdioServerParameters(
        command=sys.executable, args=["-m", "app", "demo-server", *extra], cwd=str(REPO)
    )


@asynccontextmanager
async def demo_client(mode: str, **kwargs: Any) -> AsyncIterator[Client]:
    async with Client(demo_params(), mode=mode, **kwargs) as client:
        assert client.protocol_version == EXPECTED_VERSION[mode]
        yield client


def decode_png(data: bytes) -> tuple[int, int, list[bytes]]:
    """A strict little PNG reader (8-bit RGB, filter 0 only): checks every CRC; returns rows."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG signature"
    pos, idat, header = 8, b"", None
    kinds = []
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length : pos + 12 + length])
        assert crc == zlib.crc32(kind + body) & 0xFFFFFFFF, f"bad CRC in {kind!r}"
        kinds.append(kind)
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    assert kinds[0] == b"IHDR" and kinds[-1] == b"IEND"
    assert header is not None
    width, height, depth, color_type = header[:4]
    assert (depth, color_type) == (8, 2)
    raw = zlib.decompress(idat)
    stride = 1 + 3 * width
    assert len(raw) == stride * height
    rows = []
    for y in range(height):
        assert raw[y * stride] == 0
        rows.append(raw[y * stride + 1 : (y + 1) * stride])
    return width, height, rows


def decode_png_b64(data: str) -> tuple[int, int, list[bytes]]:
    return decode_png(base64.b64decode(data))
