"""Where everything sits on the Rocketball board image, in pixels.

One place for the layout so the drawing code, the animation and the tests (which sample pixels at
square centres) agree. Squares are addressed as (column, row) with column 0 = "a" (West) and row 0
= "1" (North), the way players type them ("c4" is column 2, row 3).
"""

from __future__ import annotations

COLUMNS = 7
ROWS = 11
COLUMN_LETTERS = "abcdefg"
GOAL_COLUMNS = (2, 3, 4)  # c, d, e (docs/rules/rocketball.md: goals three squares wide over c-e)
CENTRE = (3, 5)  # d6

CELL = 52  # one field square; tiles are inset so the grid stays visible between chips
TILE_INSET = 3
TILE = CELL - 2 * TILE_INSET

# Phone-first (render/textsize.py): the image is WIDTH (700) px wide, shown SHOWN_WIDTH (298) px
# wide in a card on a phone, so no text on it is smaller than TYPE = 26 px (11.1 px on the
# screen); and it is
# about as tall as wide (at most 4:3), so a desktop window shows all of it beside the buttons.
# The field with its coordinates and goals is on the left; the panel on the right holds the
# score, what happens next, the windbag and the legend.
TYPE = 26
LABEL_W = 36  # row numbers, both sides ("11" in 24 px bold is 33 px)
GUTTER = 24  # edge arrows, between the row numbers and the field
LETTERS_H = 30  # column letters, above and below
GOAL_H = 64  # goal boxes and the North/South edge arrows; a goal's label takes two lines

FIELD_X = LABEL_W + GUTTER
FIELD_Y = LETTERS_H + GOAL_H
FIELD_W = COLUMNS * CELL
FIELD_H = ROWS * CELL

BOARD_W = FIELD_X * 2 + FIELD_W  # the field with its labels: the panel starts here
SOUTH_GOAL_Y = FIELD_Y + FIELD_H
HEIGHT = SOUTH_GOAL_Y + GOAL_H + LETTERS_H  # at least: a long legend makes the image taller

PANEL_X = BOARD_W
PANEL_W = 216
PANEL_PAD = 10
WIDTH = PANEL_X + PANEL_W
LINE = 31  # a line of TYPE px text
SCORE_BOX = (PANEL_X, 0, WIDTH, 200)  # both players: name, score, the goal each scores in
STATUS_BOX = (PANEL_X, SCORE_BOX[3], WIDTH, SCORE_BOX[3] + 4 * LINE + 10)  # what happens next
NOTE_BOX = (PANEL_X, STATUS_BOX[3], WIDTH, STATUS_BOX[3] + 5 * LINE + 10)  # windbag, the roll
LEGEND_Y = NOTE_BOX[3] + 6

# Unit steps for each facing, in (column, row) terms: North is row - 1.
STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


def square_name(column: int, row: int) -> str:
    """'c4' for (2, 3): the name players type."""
    return f"{COLUMN_LETTERS[column]}{row + 1}"


def parse_square(name: str) -> tuple[int, int]:
    """(2, 3) for 'c4'. Raises ValueError for anything off the field."""
    text = name.strip().lower()
    if len(text) < 2 or text[0] not in COLUMN_LETTERS or not text[1:].isdigit():
        raise ValueError(f"not a square: {name!r}")
    row = int(text[1:]) - 1
    if not 0 <= row < ROWS:
        raise ValueError(f"not a square: {name!r}")
    return COLUMN_LETTERS.index(text[0]), row


def square_box(column: int, row: int) -> tuple[int, int, int, int]:
    """The square's pixel box (left, top, right, bottom), right/bottom exclusive."""
    left = FIELD_X + column * CELL
    top = FIELD_Y + row * CELL
    return left, top, left + CELL, top + CELL


def square_centre(column: int, row: int) -> tuple[int, int]:
    """Pixel centre of a square; rows -1 and ROWS are the North and South goal mouths."""
    return FIELD_X + column * CELL + CELL // 2, FIELD_Y + row * CELL + CELL // 2


def goal_box(end: str) -> tuple[int, int, int, int]:
    """Pixel box of the 'N' or 'S' goal, just beyond that end over columns c-e."""
    left = FIELD_X + GOAL_COLUMNS[0] * CELL
    right = FIELD_X + (GOAL_COLUMNS[-1] + 1) * CELL
    if end == "N":
        return left, FIELD_Y - GOAL_H, right, FIELD_Y
    return left, SOUTH_GOAL_Y, right, SOUTH_GOAL_Y + GOAL_H


def goal_centre(end: str) -> tuple[int, int]:
    left, top, right, bottom = goal_box(end)
    return (left + right) // 2, (top + bottom) // 2


def edge_arrow_centre(column: int, row: int, edge: str) -> tuple[int, int]:
    """Pixel centre of the edge arrow drawn for square (column, row) on field edge 'N'/'E'/'S'/'W'.

    The arrows sit just outside the field, beside the square whose edge they belong to, so a
    corner square shows both of its arrows without overlap.
    """
    x, y = square_centre(column, row)
    if edge == "W":
        return FIELD_X - GUTTER // 2, y
    if edge == "E":
        return FIELD_X + FIELD_W + GUTTER // 2, y
    if edge == "N":
        return x, FIELD_Y - GUTTER // 2
    return x, SOUTH_GOAL_Y + GUTTER // 2
