"""Palette (8-bit) drawing for the Fast Action Card: a third of the bytes to compress.

A FAC is flat fills and antialiased text, a few dozen colours in all. Drawn as a palette image
(one byte a pixel instead of three) and written as an indexed PNG, it encodes in about a third
of the time of the RGB image and at under half the size (a FAC under 10 ms: bench/rollerball2_render.py). Text keeps
its antialiasing: each (text colour, ground colour) pair gets a ramp of LEVELS palette entries
from the ground to the ink, and a line's coverage mask picks the entry (16 levels, so an edge
pixel differs from true blending by at most 1/16 of the contrast). Lines' masks and index images
are remembered, as their glyphs are (render.rollerball2.text).
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterable, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from render.common import font
from render.rollerball2.png import FILTER_NONE, PNG_SIGNATURE, _chunk, encode_png
from render.rollerball2.text import Colour, PlacedText, draw_texts

LEVELS = 16  # antialiasing steps per text-colour/ground pair
MAX_COLOURS = 256


@lru_cache(maxsize=4096)
def _line_mask(text: str, size: int, bold: bool) -> tuple[Image.Image, int, int]:
    """The line's coverage (mode L) and where its top-left sits from the pen (anchor "la")."""
    face = font(size, bold=bold)
    left, top, right, bottom = face.getbbox(text, anchor="la")
    mask = Image.new("L", (max(1, int(right - left)), max(1, int(bottom - top))), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=face, fill=255, anchor="la")
    return mask, int(left), int(top)


@lru_cache(maxsize=8192)
def _line_indices(text: str, size: int, bold: bool, base: int) -> tuple[Image.Image, Image.Image]:
    """The line as palette indices on the ramp starting at `base`, and where it has ink."""
    mask, _, _ = _line_mask(text, size, bold)
    steps = [(value * LEVELS) // 256 for value in range(256)]
    indices = mask.point([base + min(step, LEVELS - 1) for step in steps]).convert("P")
    where = mask.point([255 if value else 0 for value in range(256)])
    return indices, where


class PaletteCanvas:
    """A palette image plus the colours behind its indices: the flat colours first (declared
    up front), then one ramp per text-colour/ground pair."""

    def __init__(
        self,
        size: tuple[int, int],
        ground: Colour,
        colours: Iterable[Colour],
        text_pairs: Iterable[tuple[Colour, Colour]],
    ) -> None:
        self.colours: list[Colour] = []
        self.flat: dict[Colour, int] = {}
        for colour in dict.fromkeys((ground, *colours)):
            self.flat[colour] = len(self.colours)
            self.colours.append(colour)
        self.ramps: dict[tuple[Colour, Colour], int] = {}
        for ink, behind in text_pairs:  # a fixed order: stable ramp bases, so the caches hit
            self.ramp(ink, behind)
        self.image = Image.new("P", size, self.flat[ground])
        self.draw = ImageDraw.Draw(self.image)

    def index(self, colour: Colour) -> int:
        """The palette entry of a declared flat colour."""
        if colour not in self.flat:
            raise ValueError(f"colour {colour} was not declared for this canvas")
        return self.flat[colour]

    def ramp(self, ink: Colour, behind: Colour) -> int:
        """The first entry of the ramp from `behind` towards `ink` (added on first use)."""
        key = (ink, behind)
        if key not in self.ramps:
            if len(self.colours) + LEVELS > MAX_COLOURS:
                raise ValueError("more colours than a palette PNG holds (256)")
            self.ramps[key] = len(self.colours)
            for level in range(1, LEVELS + 1):
                share = level / LEVELS
                red, green, blue = (
                    round(b + (i - b) * share) for i, b in zip(ink, behind, strict=True)
                )
                self.colours.append((red, green, blue))
        return self.ramps[key]

    def text(self, texts: Sequence[PlacedText]) -> None:
        """Draw placed lines; each line's ground is read where its box begins (draw the fills
        first)."""
        for item in texts:
            if not item.text:
                continue
            index = self.image.getpixel((item.box[0], item.box[1]))
            if not isinstance(index, int):
                raise TypeError("a palette image's pixel is an index")
            behind = self.colours[index]
            base = self.ramp(item.fill, behind)
            _, dx, dy = _line_mask(item.text, item.size, item.bold)
            indices, where = _line_indices(item.text, item.size, item.bold, base)
            self.image.paste(indices, (item.x + dx, item.y + dy), where)

    def png(self, level: int = 1) -> bytes:
        """An indexed-colour PNG (colour type 3) of the canvas, rows unfiltered."""
        width, height = self.image.size
        pixels = self.image.tobytes()
        scanlines = b"".join(
            FILTER_NONE + pixels[row * width : (row + 1) * width] for row in range(height)
        )
        header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
        palette = bytes(value for colour in self.colours for value in colour)
        return (
            PNG_SIGNATURE
            + _chunk(b"IHDR", header)
            + _chunk(b"PLTE", palette)
            + _chunk(b"IDAT", zlib.compress(scanlines, level))
            + _chunk(b"IEND", b"")
        )


Box = tuple[int, int, int, int]


def paint_png(
    size: tuple[int, int],
    ground: Colour,
    *,
    fills: Sequence[tuple[Box, Colour]] = (),
    lines: Sequence[tuple[Box, Colour, int]] = (),
    texts: Sequence[PlacedText] = (),
    outlines: Sequence[tuple[Box, Colour, int]] = (),
    level: int = 6,
) -> bytes:
    """A laid-out image (rectangles filled in order, then lines, then text, then outlines:
    boxes right/bottom exclusive, lines as (x0, y0, x1, y1)) as an indexed PNG.

    One byte a pixel, so drawing and encoding cost a third of an RGB image's, and zlib can
    afford level 6: flat fills and text compress to about a third of the RGB image at level 9
    (a box score page: measured with bench/render_turn.py). Outlines come after the text so a
    line's ground is read from the fill beneath it, never from a border. An image needing more
    than 256 colours is drawn in RGB instead, the same picture (`paint_rgb`).
    """
    colours = [colour for _, colour in fills]
    colours += [colour for _, colour, _ in lines] + [colour for _, colour, _ in outlines]
    try:
        canvas = PaletteCanvas(size, ground, colours, ())
        draw, index = canvas.draw, canvas.index
        for box, colour in fills:
            draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), fill=index(colour))
        for xy, colour, width in lines:
            draw.line(xy, fill=index(colour), width=width)
        canvas.text(texts)
        for box, colour, width in outlines:
            draw.rectangle(
                (box[0], box[1], box[2] - 1, box[3] - 1), outline=index(colour), width=width
            )
    except ValueError:  # more colours than a palette holds
        return encode_png(paint_rgb(size, ground, fills, lines, texts, outlines), level=level)
    return canvas.png(level)


def paint_rgb(
    size: tuple[int, int],
    ground: Colour,
    fills: Sequence[tuple[Box, Colour]] = (),
    lines: Sequence[tuple[Box, Colour, int]] = (),
    texts: Sequence[PlacedText] = (),
    outlines: Sequence[tuple[Box, Colour, int]] = (),
) -> Image.Image:
    """The picture of `paint_png` as an RGB image."""
    image = Image.new("RGB", size, ground)
    draw = ImageDraw.Draw(image)
    for box, colour in fills:
        draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), fill=colour)
    for xy, colour, width in lines:
        draw.line(xy, fill=colour, width=width)
    draw_texts(draw, texts)
    for box, colour, width in outlines:
        draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), outline=colour, width=width)
    return image
