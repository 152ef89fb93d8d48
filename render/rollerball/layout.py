"""Where things go on the Rollerball board image, and the colours (shared by the PNG, the GIF
and the pixel-sampling tests)."""

from __future__ import annotations

from render.common import (
    BLUE,
    GREEN,
    GREY,
    INK,
    LIGHT_GREY,
    ORANGE,
    PAPER,
    PURPLE,
    SKY,
    VERMILION,
    YELLOW,
)
from render.textsize import smallest_font

# Phone-first (render/textsize.py): WIDTH px wide, shown SHOWN_WIDTH px wide on a phone, so no
# text is smaller than TYPE, the smallest font readable there (23 px: 11.1 px on the screen). The board is centred under a
# header of two lines (the turn and what happens next), its column letters above it and its
# row numbers on both sides (letters below too would make it taller than a desktop window
# shows beside the buttons).
WIDTH = 616
TYPE = smallest_font(WIDTH)
EDGE = 12  # outer margin
COORD_W = 26  # row numbers, left and right of the board
COORD_H = 26  # column letters, above the board
TITLE = 64  # the header: "Turn 20: ..." on up to two lines
MARGIN = COORD_W  # kept for callers that placed things beside the board
#: Player 1..6: colour-blind-safe, each strong against the pale track.
PLAYER_COLOURS = (ORANGE, BLUE, GREEN, VERMILION, PURPLE, SKY)
RING_COLOURS = ((236, 226, 200), (222, 233, 240), (236, 226, 200), (222, 233, 240), (236, 226, 200))
CENTRE = (70, 70, 78)
TRACK_LINE = (150, 140, 120)
CORNER_MARK = (185, 170, 140)
CARD_TRACK = (38, 52, 74)  # track changers: dark slate with white symbols
CARD_BALL = {"energiser": YELLOW, "rubberiser": (255, 182, 193), "derubberiser": LIGHT_GREY}
BALL_NORMAL = (255, 255, 255)
BALL_ENERGISED = YELLOW
BALL_RUBBER = (255, 105, 180)
__all__ = ["GREEN", "GREY", "INK", "PAPER"]


def cell_size(size: int) -> int:
    return 56 if size == 9 else 46


def board_pixels(size: int) -> int:
    return cell_size(size) * size


def board_left(size: int) -> int:
    """The board's left edge: centred in the image."""
    return (WIDTH - board_pixels(size)) // 2


def square_box(size: int, square: int) -> tuple[int, int, int, int]:
    cell = cell_size(size)
    x, y = square % size, square // size
    left, top = board_left(size) + x * cell, TITLE + COORD_H + y * cell
    return left, top, left + cell, top + cell


def square_centre(size: int, square: int) -> tuple[int, int]:
    """Pixel centre of a square (int, see rules.rollerball.geometry)."""
    left, top, right, bottom = square_box(size, square)
    return (left + right) // 2, (top + bottom) // 2


def image_width(size: int) -> int:
    return WIDTH


def board_bottom(size: int) -> int:
    """Just below the board: where the players' lines start."""
    return TITLE + COORD_H + board_pixels(size) + 6
