"""A fast PNG encoder for the Rollerball II images (RGB, 8 bits, no row filters).

Pillow's PNG writer tries all five row filters on every row to pick the best, which is most of
the cost of encoding these images. Flat fills and text compress just as well unfiltered
(a FAC: 65 KiB here against 71 KiB from Pillow at zlib level 1) in about half the time, and
that is what keeps a card image inside its 15 ms budget (bench/rollerball2_render.py). The output is a plain,
standard PNG; the tests decode it with Pillow and compare every pixel.
"""

from __future__ import annotations

import struct
import zlib

from PIL import Image

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
FILTER_NONE = b"\x00"  # each scanline starts with its filter type byte


def _chunk(kind: bytes, data: bytes) -> bytes:
    """One PNG chunk: length, type, data, CRC of type and data."""
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def encode_png(image: Image.Image, *, level: int = 1) -> bytes:
    """Encode an RGB image (other modes are converted) as PNG bytes."""
    if image.mode != "RGB":
        image = image.convert("RGB")
    width, height = image.size
    pixels = image.tobytes()
    stride = width * 3
    scanlines = b"".join(
        FILTER_NONE + pixels[row * stride : (row + 1) * stride] for row in range(height)
    )
    # IHDR: width, height, bit depth 8, colour type 2 (RGB), deflate, adaptive filtering
    # method 0, no interlace.
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        PNG_SIGNATURE
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(scanlines, level))
        + _chunk(b"IEND", b"")
    )
