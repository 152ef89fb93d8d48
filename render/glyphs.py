"""Which characters a font file has a glyph for, read from its character map (the sfnt "cmap"
table, formats 4 and 12: every TrueType and OpenType font the renderer ships uses one of them).

Pillow draws a character the font lacks as the font's .notdef box and says nothing; the
renderer asks here which of its fonts has the character instead (render.common.font).
"""

from __future__ import annotations

import struct
from functools import cache
from pathlib import Path


@cache
def code_points(path: str) -> frozenset[int]:
    """The code points the font at `path` (the first face of a collection) maps to a glyph."""
    data = Path(path).read_bytes()
    base = struct.unpack_from(">I", data, 12)[0] if data[:4] == b"ttcf" else 0
    (tables,) = struct.unpack_from(">H", data, base + 4)
    offsets = {}
    for index in range(tables):
        tag, _checksum, offset, _length = struct.unpack_from(">4sIII", data, base + 12 + 16 * index)
        offsets[tag] = offset
    cmap = offsets[b"cmap"]
    (subtables,) = struct.unpack_from(">H", data, cmap + 2)
    chosen: tuple[int, int] | None = None
    for index in range(subtables):
        platform, _encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * index)
        (form,) = struct.unpack_from(">H", data, cmap + offset)
        if platform in (0, 3) and form in (4, 12) and (chosen is None or form == 12):
            chosen = (form, cmap + offset)
    if chosen is None:
        raise ValueError(f"{path}: no Unicode character map of format 4 or 12")
    form, at = chosen
    return frozenset(_format_12(data, at) if form == 12 else _format_4(data, at))


def _format_12(data: bytes, at: int) -> set[int]:
    (groups,) = struct.unpack_from(">I", data, at + 12)
    found: set[int] = set()
    for index in range(groups):
        start, end, _glyph = struct.unpack_from(">III", data, at + 16 + 12 * index)
        found.update(range(start, end + 1))
    return found


def _format_4(data: bytes, at: int) -> set[int]:
    segments = struct.unpack_from(">H", data, at + 6)[0] // 2
    ends = struct.unpack_from(f">{segments}H", data, at + 14)
    starts = struct.unpack_from(f">{segments}H", data, at + 16 + 2 * segments)
    deltas = struct.unpack_from(f">{segments}h", data, at + 16 + 4 * segments)
    range_at = at + 16 + 6 * segments
    ranges = struct.unpack_from(f">{segments}H", data, range_at)
    found: set[int] = set()
    for index in range(segments):
        for code in range(starts[index], ends[index] + 1):
            if code == 0xFFFF:
                continue
            if ranges[index] == 0:
                glyph = (code + deltas[index]) & 0xFFFF
            else:
                where = range_at + 2 * index + ranges[index] + 2 * (code - starts[index])
                (glyph,) = struct.unpack_from(">H", data, where)
                glyph = (glyph + deltas[index]) & 0xFFFF if glyph else 0
            if glyph:
                found.add(code)
    return found
