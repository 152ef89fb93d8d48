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

MARGIN = 44
TITLE = 64
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
    return 72 if size == 9 else 60


def board_pixels(size: int) -> int:
    return cell_size(size) * size


def square_box(size: int, square: int) -> tuple[int, int, int, int]:
    cell = cell_size(size)
    x, y = square % size, square // size
    left, top = MARGIN + x * cell, TITLE + MARGIN + y * cell
    return left, top, left + cell, top + cell


def square_centre(size: int, square: int) -> tuple[int, int]:
    """Pixel centre of a square (int, see rules.rollerball.geometry)."""
    left, top, right, bottom = square_box(size, square)
    return (left + right) // 2, (top + bottom) // 2


def image_width(size: int) -> int:
    return board_pixels(size) + 2 * MARGIN


def board_bottom(size: int) -> int:
    return TITLE + 2 * MARGIN + board_pixels(size)
