"""Shared drawing helpers for every game's renderer: the shipped fonts, a palette readable on a
phone (strong contrast, colour-blind-safe pairs) and PNG/GIF encoding to bytes.

Renderers are pure: state (or card) in, image bytes out. Nothing here touches Discord or disk
beyond reading the fonts shipped next to this file.
"""

from __future__ import annotations

import io
import math
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

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


def to_png(
    image: Image.Image, *, optimize: bool = False, compress_level: int | None = None
) -> bytes:
    """Encode as PNG. Palette images stay small; `optimize` trades time for bytes, as does
    `compress_level` (zlib 0-9, Pillow's default 6)."""
    buffer = io.BytesIO()
    if compress_level is None:
        image.save(buffer, format="PNG", optimize=optimize)
    else:
        image.save(buffer, format="PNG", optimize=optimize, compress_level=compress_level)
    return buffer.getvalue()


@lru_cache(maxsize=8192)
def text_length(face: ImageFont.FreeTypeFont, text: str) -> float:
    """`face.getlength(text)`, memoised (layouts measure the same names turn after turn)."""
    return face.getlength(text)


@lru_cache(maxsize=4096)
def _text_mask(
    face: ImageFont.FreeTypeFont,
    text: str,
    mode: str,
    anchor: str | None,
    stroke_width: float,
    start: tuple[float, float],
) -> tuple[object, tuple[int, int]]:
    return face.getmask2(text, mode, None, None, None, stroke_width, anchor, start=start)


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    *,
    fill,
    font: ImageFont.FreeTypeFont,
    anchor: str | None = None,
    stroke_width: float = 0,
    stroke_fill=None,
) -> None:
    """One line of text, as `ImageDraw.text` draws it (the same pixels, tested), with its
    rasterised glyphs memoised: a board's labels, numbers and names come back image after
    image, and FreeType is most of what drawing them costs."""
    x, y = xy
    start = (math.modf(x)[0], math.modf(y)[0])

    def ink_of(colour) -> int:
        ink, fill_ink = draw._getink(colour)  # one of them: the draw's own ink for None
        chosen = fill_ink if ink is None else ink
        if chosen is None:
            raise ValueError(f"no ink for {colour!r}")
        return chosen

    ink = ink_of(fill)
    passes = [(ink, 0.0)]
    if stroke_width:
        stroke_ink = ink_of(stroke_fill) if stroke_fill is not None else ink
        passes = [(stroke_ink, stroke_width)] + ([(ink, 0.0)] if ink != stroke_ink else [])
    for pass_ink, width in passes:
        mask, (dx, dy) = _text_mask(font, text, draw.fontmode, anchor, width, start)
        draw.draw.draw_bitmap((int(x) + dx, int(y) + dy), mask, pass_ink)


def hard_alpha(alpha: int) -> int:
    """An alpha made all-or-nothing (Image.point): opaque where at least half covered."""
    return 255 if alpha >= 128 else 0


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
