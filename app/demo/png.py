"""A tiny PNG encoder in pure Python (zlib only), so the demo server can return images without PIL."""

from __future__ import annotations

import struct
import zlib

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

Rgb = tuple[int, int, int]


def _chunk(kind: bytes, data: bytes) -> bytes:
    # Each chunk: length, type, data, CRC over type+data (PNG spec §5.3).
    return (
        struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    )


def encode_png(width: int, height: int, rows: list[bytes]) -> bytes:
    """Encode 8-bit RGB rows (each `3 * width` bytes) as a PNG file."""
    if width < 1 or height < 1 or len(rows) != height:
        raise ValueError("rows must hold `height` rows of a non-empty image")
    raw = bytearray()
    for row in rows:
        if len(row) != 3 * width:
            raise ValueError("each row must hold 3 * width bytes")
        raw.append(0)  # filter type 0 (None) for every scanline: simplest, and the images are tiny
        raw += row
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit depth, colour type 2 (RGB)
    return (
        PNG_SIGNATURE
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(bytes(raw), 9))
        + _chunk(b"IEND", b"")
    )


def badge(width: int, height: int, color: Rgb, background: Rgb = (255, 255, 255)) -> bytes:
    """A filled circle of `color` on `background`, with a soft vertical shade: recognisable at a glance."""
    cx, cy = (width - 1) / 2, (height - 1) / 2
    radius_sq = (min(width, height) * 0.42) ** 2
    rows = []
    for y in range(height):
        shade = 1.0 - 0.35 * (y / max(height - 1, 1))
        inside = bytes(int(c * shade) for c in color)
        outside = bytes(background)
        row = bytearray()
        for x in range(width):
            row += inside if (x - cx) ** 2 + (y - cy) ** 2 <= radius_sq else outside
        rows.append(bytes(row))
    return encode_png(width, height, rows)
