"""Shared drawing helpers for every game's renderer: the shipped fonts, a palette readable on a
phone (strong contrast, colour-blind-safe pairs) and PNG/GIF encoding to bytes.

Renderers are pure: state (or card) in, image bytes out. Nothing here touches Discord or disk
beyond reading the fonts shipped next to this file.
"""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path

from PIL import Image, ImageFont

FONT_DIR = Path(__file__).resolve().parent / "fonts"

# Okabe-Ito palette: distinguishable with the common colour-vision deficiencies.
INK = (20, 20, 24)
PAPER = (250, 248, 240)
ORANGE = (230, 159, 0)
SKY = (86, 180, 233)
GREEN = (0, 158, 115)
YELLOW = (240, 228, 66)
BLUE = (0, 114, 178)
VERMILION = (213, 94, 0)
PURPLE = (204, 121, 167)
GREY = (120, 120, 120)
LIGHT_GREY = (215, 215, 215)


@cache
def font(size: int, *, bold: bool = False, mono: bool = False) -> ImageFont.FreeTypeFont:
    """The shipped DejaVu font at `size` pixels (cached: loading a TTF costs milliseconds)."""
    if mono:
        name = "DejaVuSansMono.ttf"
    else:
        name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONT_DIR / name), size)


def to_png(image: Image.Image, *, optimize: bool = False) -> bytes:
    """Encode as PNG. Palette images stay small; `optimize` trades time for bytes."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=optimize)
    return buffer.getvalue()


def to_gif(frames: list[Image.Image], *, frame_ms: int | list[int], loop: int = 0) -> bytes:
    """Encode frames as an animated GIF (`loop=0` repeats forever)."""
    if not frames:
        raise ValueError("an animation needs at least one frame")
    buffer = io.BytesIO()
    frames[0].save(
        buffer,
        format="GIF",
        save_all=True,
        append_images=frames[1:],
        duration=frame_ms,
        loop=loop,
        disposal=1,
    )
    return buffer.getvalue()
