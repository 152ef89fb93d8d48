"""Small pictures pasted onto the Rocketball board: vortex and variant chips, the rocketball(s),
edge arrows.

Each sprite is drawn once at four times its size and shrunk (smooth edges), then cached, so a
board render only pastes ready-made tiles. Directional sprites are drawn pointing North and
turned by exact quarter turns, so an arrow's pixels are where the tests expect them.

Visual language (one idea per shape, colour-blind-safe Okabe-Ito colours, see the legend):
- vortex: blue square tile, one white arrow to its edge;
- gust: green square tile, white double chevron (it pushes the ball one square);
- bumper: orange disc with a "B"; twister: purple diamond with a "T";
- barricade: grey brick wall; mogul: yellow hill with an "M";
- rocketball: vermilion disc with a white pointer (Assault: South's ball is black).

`crisp=True` gives the same sprite with hard edges: every pixel fully opaque or fully clear and
in one of the sprite's own flat colours (`harden`). The round GIF (round.py) uses these: its 16
colours have no shades for smooth edges, so a smooth edge came out as stray grey and pink pixels
that also made the GIF larger (about 150 bytes per chip on the field, measured).
"""

from __future__ import annotations

from functools import cache

from PIL import Image, ImageDraw

from render.common import (
    BLUE,
    GREEN,
    GREY,
    INK,
    ORANGE,
    PURPLE,
    VERMILION,
    YELLOW,
    font,
    hard_alpha,
)
from render.rocketball.geometry import TILE

WHITE = (255, 255, 255)
SCALE = 4  # supersampling factor for smooth edges

CHIP_COLOURS = {
    "vortex": BLUE,
    "gust": GREEN,
    "bumper": ORANGE,
    "twister": PURPLE,
    "barricade": GREY,
    "mogul": YELLOW,
}
DIRECTIONAL_KINDS = ("vortex", "gust")
BALL_RADIUS = 14  # outer radius including the ring; a cell is 52 px
BALL_SIZE = 2 * BALL_RADIUS + 2
# Fill and ring of each ball: the single ball, and in Assault the ball each player owns.
BALL_COLOURS = {
    None: (VERMILION, INK),
    "N": (VERMILION, INK),
    "S": (INK, VERMILION),
}

# Quarter turns that take a North-pointing sprite to each facing.
_TURN = {
    "N": None,
    "E": Image.Transpose.ROTATE_270,
    "S": Image.Transpose.ROTATE_180,
    "W": Image.Transpose.ROTATE_90,
}


def _canvas(size: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGBA", (size * SCALE, size * SCALE), (0, 0, 0, 0))
    return image, ImageDraw.Draw(image)


def _shrink(image: Image.Image, size: int) -> Image.Image:
    return image.resize((size, size), Image.Resampling.LANCZOS)


def _scaled(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    return [(x * SCALE, y * SCALE) for x, y in points]


def harden(sprite: Image.Image, colours: tuple[tuple[int, int, int], ...]) -> Image.Image:
    """`sprite` (RGBA) with hard edges: alpha 0 or 255 (cut at half), each colour the nearest of
    `colours` (the flat colours it was drawn with)."""
    palette = Image.new("P", (1, 1))
    flat = list(colours) + [colours[0]] * (256 - len(colours))
    palette.putpalette([channel for colour in flat for channel in colour])
    hard = sprite.convert("RGB").quantize(palette=palette, dither=Image.Dither.NONE).convert("RGBA")
    hard.putalpha(sprite.getchannel("A").point(hard_alpha))
    return hard


def chip_colours(kind: str) -> tuple[tuple[int, int, int], ...]:
    """The flat colours a chip is drawn with: its colour, white (arrows) and ink (outlines)."""
    return CHIP_COLOURS[kind], WHITE, INK


def _turned(image: Image.Image, facing: str) -> Image.Image:
    turn = _TURN[facing]
    return image if turn is None else image.transpose(turn)


def _letter(draw: ImageDraw.ImageDraw, centre: tuple[float, float], text: str, fill) -> None:
    draw.text(
        (centre[0] * SCALE, centre[1] * SCALE),
        text,
        font=font(20 * SCALE, bold=True),
        fill=fill,
        anchor="mm",
    )


@cache
def chip_sprite(kind: str, facing: str = "N", *, crisp: bool = False) -> Image.Image:
    """The TILE x TILE RGBA picture of a chip; `facing` matters for vortex and gust only."""
    if crisp:
        return harden(chip_sprite(kind, facing), chip_colours(kind))
    size = TILE
    mid = size / 2
    image, draw = _canvas(size)
    colour = CHIP_COLOURS[kind]
    if kind == "vortex":
        draw.rounded_rectangle((0, 0, size * SCALE - 1, size * SCALE - 1), 7 * SCALE, fill=colour)
        # Head reaches 2 px from the tile edge so it shows even with the ball on the square.
        draw.polygon(_scaled([(mid, 2), (mid + 14, 17), (mid - 14, 17)]), fill=WHITE)
        draw.rectangle(_scaled([(mid - 5, 16), (mid + 5, 31)]), fill=WHITE)
    elif kind == "gust":
        draw.rounded_rectangle((0, 0, size * SCALE - 1, size * SCALE - 1), 7 * SCALE, fill=colour)
        for apex in (3, 16):
            draw.line(
                _scaled([(mid - 15, apex + 14), (mid, apex), (mid + 15, apex + 14)]),
                fill=WHITE,
                width=6 * SCALE,
                joint="curve",
            )
    elif kind == "bumper":
        draw.ellipse((0, 0, size * SCALE - 1, size * SCALE - 1), fill=INK)
        draw.ellipse(_scaled([(3, 3), (size - 3, size - 3)]), fill=colour)
        _letter(draw, (mid, mid), "B", INK)
    elif kind == "twister":
        diamond = [(mid, 0), (size, mid), (mid, size), (0, mid)]
        draw.polygon(_scaled(diamond), fill=INK)
        inner = [(mid, 4), (size - 4, mid), (mid, size - 4), (4, mid)]
        draw.polygon(_scaled(inner), fill=colour)
        _letter(draw, (mid, mid), "T", INK)
    elif kind == "barricade":
        draw.rectangle((0, 0, size * SCALE - 1, size * SCALE - 1), fill=INK)
        draw.rectangle(_scaled([(2, 2), (size - 2, size - 2)]), fill=colour)
        # Brick courses: mortar lines every 11 px, joints offset on alternate courses.
        course = 11
        for y in range(2 + course, size - 2, course):
            draw.line(_scaled([(2, y), (size - 2, y)]), fill=INK, width=2 * SCALE)
        for index, top in enumerate(range(2, size - 2, course)):
            offset = 0 if index % 2 == 0 else course
            for x in range(2 + offset + course, size - 2, 2 * course):
                draw.line(
                    _scaled([(x, top), (x, min(top + course, size - 2))]),
                    fill=INK,
                    width=2 * SCALE,
                )
    elif kind == "mogul":
        draw.chord(_scaled([(0, 6), (size, 2 * size - 10)]), 180, 360, fill=INK)
        draw.chord(_scaled([(3, 9), (size - 3, 2 * size - 13)]), 180, 360, fill=colour)
        draw.rectangle(_scaled([(0, size - 4), (size, size)]), fill=INK)
        _letter(draw, (mid, mid + 4), "M", INK)
    else:
        raise ValueError(f"no picture for chip kind {kind!r}")
    sprite = _shrink(image, size)
    return _turned(sprite, facing) if kind in DIRECTIONAL_KINDS else sprite


@cache
def ball_sprite(facing: str, owner: str | None = None, *, crisp: bool = False) -> Image.Image:
    """The rocketball: a disc with a white pointer showing its facing; `owner` 'N'/'S' in Assault."""
    if crisp:
        return harden(ball_sprite(facing, owner), (*BALL_COLOURS[owner], WHITE))
    size = BALL_SIZE
    mid = size / 2
    fill, ring = BALL_COLOURS[owner]
    image, draw = _canvas(size)
    r = BALL_RADIUS
    draw.ellipse(_scaled([(mid - r, mid - r), (mid + r, mid + r)]), fill=ring)
    inner = r - 3
    draw.ellipse(_scaled([(mid - inner, mid - inner), (mid + inner, mid + inner)]), fill=fill)
    draw.polygon(_scaled([(mid, mid - 10), (mid + 7, mid + 4), (mid - 7, mid + 4)]), fill=WHITE)
    return _turned(_shrink(image, size), facing)


@cache
def edge_arrow_sprite(
    facing: str, colour: tuple[int, int, int] = INK, *, crisp: bool = False
) -> Image.Image:
    """A small arrow for the field's edge (which way a ball turns when it tries to leave)."""
    if crisp:
        return harden(edge_arrow_sprite(facing, colour), (colour,))
    size = 20
    mid = size / 2
    image, draw = _canvas(size)
    draw.polygon(_scaled([(mid, 1), (mid + 7, 10), (mid - 7, 10)]), fill=colour)
    draw.rectangle(_scaled([(mid - 2.5, 9), (mid + 2.5, 19)]), fill=colour)
    return _turned(_shrink(image, size), facing)
