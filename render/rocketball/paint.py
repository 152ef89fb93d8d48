"""Two ways to draw the same Rocketball picture: in RGB, or straight into the round's 16 colours.

The board's drawing code (board.py) calls a painter: rectangles, lines and ellipses, sprites
pasted by their centre, and text blocks. `RGBPainter` draws an RGB image (the legacy move GIF
maps it onto a 256-colour palette afterwards). `PalettePainter` draws a palette image in the
round palette directly: fills and outlines are colour indices, a sprite is used in its
hard-edged form (sprites.py) turned once into indices and a mask, and a text block is its ground
with each line's ink pasted through the line's mask, cut at half coverage. Nothing is quantised
per image, which is what made a round cost 60 ms (bench/render_turn.py).

A text block is a small image of a few lines on one ground, laid out by its caller and memoised
whole: the same names, scores and phrases come back round after round.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache

from PIL import Image, ImageDraw

from render.common import font, hard_alpha

Colour = tuple[int, int, int]
Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class TextLine:
    """One line of a block: at (x, y) in the block, with Pillow's `anchor`."""

    text: str
    x: int
    y: int
    size: int
    bold: bool = True
    anchor: str = "la"


@dataclass(frozen=True)
class TextBlock:
    """Lines of one ink on one ground, `size` px large (the area the block repaints)."""

    size: tuple[int, int]
    ground: Colour
    ink: Colour
    lines: tuple[TextLine, ...]


def _draw_lines(draw: ImageDraw.ImageDraw, block: TextBlock, fill: int | Colour) -> None:
    for line in block.lines:
        draw.text(
            (line.x, line.y),
            line.text,
            font=font(line.size, bold=line.bold),
            fill=fill,
            anchor=line.anchor,
        )


# Caches sized by what they save. A line's mask (up to 216 x 31 px) is shared by every match that
# shows the phrase (coordinates, the legend, "scores ▲"); a whole block is worth keeping only
# while its match is being drawn (the same names and score turn after turn) and costs about
# 25 us to build again from its lines' masks, so a few hundred blocks would hold tens of MiB to
# save that: 1,024 blocks with a thousand matches in play held 50 MiB (bench/memory.py, distinct
# players).
LINE_MASKS = 512
BLOCKS = 96


@lru_cache(maxsize=LINE_MASKS)
def _line_mask(
    text: str, size: int, bold: bool, anchor: str
) -> tuple[Image.Image, tuple[int, int]]:
    """A line's ink in the round colours, as a mask (255 where the line covers at least half
    of the pixel: hard-edged text, below), and its offset from the anchor point: a note that
    changes every round ("… 45 chips in it") shares most of its lines with the round before."""
    mask, offset = font(size, bold=bold).getmask2(text, "L", anchor=anchor, start=(0, 0))
    coverage = Image.new("L", mask.size, 0)
    ImageDraw.Draw(coverage).draw.draw_bitmap((0, 0), mask, 255)
    return Image.frombytes("L", mask.size, coverage.tobytes().translate(_HALF)), offset


_HALF = bytes(255 if level >= 128 else 0 for level in range(256))  # coverage -> hard mask


@lru_cache(maxsize=BLOCKS)
def rgb_block(block: TextBlock) -> Image.Image:
    image = Image.new("RGB", block.size, block.ground)
    _draw_lines(ImageDraw.Draw(image), block, block.ink)
    return image


class RGBPainter:
    """Draws on an RGB image; sprites are pasted through their own alpha."""

    def __init__(self, image: Image.Image) -> None:
        self.image = image
        self.draw = ImageDraw.Draw(image)

    def ink(self, colour: Colour) -> Colour:
        return colour

    def sprite(self, sprite: Image.Image, centre: tuple[int, int]) -> None:
        left, top = centre[0] - sprite.width // 2, centre[1] - sprite.height // 2
        self.image.paste(sprite, (left, top), sprite)

    def block(self, block: TextBlock, origin: tuple[int, int]) -> None:
        self.image.paste(rgb_block(block), origin)


# Text in the 16 colours is hard-edged: each pixel the ink or the ground, cut at half coverage.
# A smooth edge mapped to the nearest of every round colour came out reddish purple (the
# twister's colour), pink fringes on letters; mapped to greys, it cost 3 KB of every round GIF
# (of 25: the coordinates, names and legend), and a phone shrinks the image to half its size,
# which smooths the edges anyway. So a line is kept as its mask cut at half (_line_mask), and a
# block is its ground with each line's ink pasted through it.


class PalettePainter:
    """Draws on a palette image whose first colours are `colours` (exact colours only)."""

    def __init__(self, image: Image.Image, colours: tuple[Colour, ...]) -> None:
        self.image = image
        self.draw = ImageDraw.Draw(image)
        self.colours = colours
        self.index = _index_of(colours)

    def ink(self, colour: Colour) -> int:
        return self.index[colour]

    def sprite(self, sprite: Image.Image, centre: tuple[int, int]) -> None:
        indices, mask = palette_sprite(sprite, self.colours)
        left, top = centre[0] - sprite.width // 2, centre[1] - sprite.height // 2
        self.image.paste(indices, (left, top), mask)

    def block(self, block: TextBlock, origin: tuple[int, int]) -> None:
        self.image.paste(palette_block(block, self.colours), origin)


@cache
def _index_of(colours: tuple[Colour, ...]) -> dict[Colour, int]:
    index: dict[Colour, int] = {}
    for position, colour in enumerate(colours):
        index.setdefault(colour, position)
    return index


@cache
def palette_template(colours: tuple[Colour, ...]) -> Image.Image:
    """A 1-pixel palette image holding exactly `colours` (16 of them: 4-bit codes in the GIF,
    4 bits a pixel in the PNG)."""
    image = Image.new("P", (1, 1))
    image.putpalette([channel for colour in colours for channel in colour])
    return image


_sprites: dict[tuple[int, tuple[Colour, ...]], tuple[Image.Image, Image.Image, Image.Image]] = {}


def palette_sprite(
    sprite: Image.Image, colours: tuple[Colour, ...]
) -> tuple[Image.Image, Image.Image]:
    """A hard-edged RGBA sprite as palette indices and a 1-bit mask (memoised per sprite: the
    sprites are themselves memoised, so the object is the key)."""
    key = (id(sprite), colours)
    found = _sprites.get(key)
    if found is not None and found[0] is sprite:
        return found[1], found[2]
    indices = sprite.convert("RGB").quantize(
        palette=palette_template(colours), dither=Image.Dither.NONE
    )
    mask = sprite.getchannel("A").point(hard_alpha).convert("1")
    _sprites[key] = (sprite, indices, mask)  # the sprite kept alive: its id stays its own
    return indices, mask


@lru_cache(maxsize=BLOCKS)
def palette_block(block: TextBlock, colours: tuple[Colour, ...]) -> Image.Image:
    """The block in palette indices: its ground, and its ink where a line covers at least half
    of a pixel (the lines' masks are kept: a block made again costs their pastes alone)."""
    index = _index_of(colours)
    image = Image.new("P", block.size, index[block.ground])
    image.putpalette(palette_template(colours).getpalette() or [])
    ink = index[block.ink]
    for line in block.lines:
        mask, (dx, dy) = _line_mask(line.text, line.size, line.bold, line.anchor)
        image.paste(ink, (line.x + dx, line.y + dy), mask)  # clipped to the block
    return image
