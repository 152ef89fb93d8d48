"""The Rollerball board as a PNG: rings with their clockwise direction, cards as symbols with
their orientation (a track changer's arrow points where it sends a ball; a splitter shows its
'Y'), balls with their states, bases and workmen in player colours, coordinates and a legend.

Phone-first (layout.py): 616 px wide with type from 21 px (11 px on a 390-px phone); the turn
and what happens next on top, the players' points and cards and a legend of three or four
lines under the board (about 616 x 840 with four players, was 736 x 1100).

Speed (a turn's image in about 10 ms of CPU, bench/render_turn.py): the board, coordinates and legend are
drawn once per board size and number of players as a palette image; a turn copies it, draws
the cards, bases, workmen, balls and text with memoised glyphs (render.common.draw_text) and
writes the PNG at zlib level 3 (bench/render_turn.py)."""

from __future__ import annotations

import math
from functools import cache

from PIL import Image, ImageDraw, ImageFont

from render.common import draw_text, font, text_length, to_png
from render.rollerball.layout import (
    BALL_ENERGISED,
    BALL_NORMAL,
    BALL_RUBBER,
    CARD_BALL,
    CARD_TRACK,
    CENTRE,
    COORD_H,
    COORD_W,
    CORNER_MARK,
    EDGE,
    INK,
    PAPER,
    PLAYER_COLOURS,
    RING_COLOURS,
    TITLE,
    TRACK_LINE,
    TYPE,
    WIDTH,
    board_bottom,
    board_left,
    board_pixels,
    cell_size,
    square_box,
    square_centre,
)
from render.wrap import wrap_words
from rules.rollerball import GameState, describe_next_step, geometry
from rules.rollerball.cards import BALL_CHANGERS, SPLITTERS
from rules.rollerball.movement import card_ends

WHITE = (255, 255, 255)
BALL_LETTERS = {"energiser": "E", "rubberiser": "R", "derubberiser": "R"}
PLAYER_ROW = 28
PLAYER_HEAD = 26  # "VP  cards" over the players' numbers
VP_X, CARDS_X = 214, 286  # right edges of the numbers, from a column's left
LEGEND_ROW = 32


def players_top(size: int) -> int:
    return board_bottom(size) + 2


def legend_top(size: int, players: int) -> int:
    return players_top(size) + PLAYER_HEAD + ((players + 1) // 2) * PLAYER_ROW + 6


def image_height(size: int, players: int = 6) -> int:
    return legend_top(size, players) + legend_rows() * LEGEND_ROW + 6


@cache
def _background(size: int, players: int) -> Image.Image:
    """The fixed part (board, coordinates, the legend's symbols), once per board size and number
    of players, as a palette image: drawing on it and encoding it is several times faster than
    RGB (the board needs far fewer than 256 colours)."""
    image = _background_rgb(size, players)
    _draw_symbol_legend(ImageDraw.Draw(image), size, players)
    return image.convert("P", palette=Image.Palette.ADAPTIVE, colors=200)


def _background_rgb(size: int, players: int) -> Image.Image:
    """Track tiles, ring lines with direction chevrons, corner marks, coordinates."""
    board = geometry(size)
    image = Image.new("RGB", (WIDTH, image_height(size, players)), PAPER)
    draw = ImageDraw.Draw(image)
    cell = cell_size(size)
    for square in range(size * size):
        box = square_box(size, square)
        ring = board.ring(square)
        colour = CENTRE if ring == 0 else RING_COLOURS[(ring - 1) % len(RING_COLOURS)]
        draw.rectangle(box, fill=colour, outline=(200, 195, 180))
        if board.is_corner(square):
            left, top = box[0], box[1]
            draw.polygon(
                [(left + 2, top + 2), (left + 16, top + 2), (left + 2, top + 16)], fill=CORNER_MARK
            )
    for square in range(size * size):
        if board.ring(square) == 0:
            continue
        start, end = square_centre(size, square), square_centre(size, board.next_on_ring(square))
        draw.line([start, end], fill=TRACK_LINE, width=3)
    for square in range(size * size):
        x, y = board.xy(square)
        low = board.ring(square) - 1
        if board.ring(square) and y == low and x == size // 2:  # one chevron per ring, on top
            _chevron(draw, square_centre(size, square), cell)
    coord = font(TYPE, bold=True)
    left, top = board_left(size), TITLE + COORD_H
    for index in range(size):
        letter, number = "abcdefghijk"[index], str(index + 1)
        cx = left + index * cell + cell // 2
        cy = top + index * cell + cell // 2
        draw.text((cx, TITLE + COORD_H // 2), letter, font=coord, fill=INK, anchor="mm")
        for x in (left - COORD_W // 2 - 2, left + board_pixels(size) + COORD_W // 2 + 2):
            draw.text((x, cy), number, font=coord, fill=INK, anchor="mm")
    return image


def _chevron(draw: ImageDraw.ImageDraw, centre: tuple[int, int], cell: int) -> None:
    """A '>' on the top side of a ring: balls run clockwise (rightwards along the top)."""
    x, y = centre
    w = cell // 6
    draw.line([(x - w, y - w), (x + w // 2, y), (x - w, y + w)], fill=TRACK_LINE, width=5)


def draw_cards(draw: ImageDraw.ImageDraw, state: GameState) -> None:
    size = state.settings.board
    for card in state.cards:
        a, b = card.squares
        box_a, box_b = square_box(size, a), square_box(size, b)
        box = (
            min(box_a[0], box_b[0]) + 5,
            min(box_a[1], box_b[1]) + 5,
            max(box_a[2], box_b[2]) - 5,
            max(box_a[3], box_b[3]) - 5,
        )
        if card.kind in BALL_CHANGERS:
            draw.rounded_rectangle(box, radius=10, fill=CARD_BALL[card.kind], outline=INK, width=3)
            centre = ((box[0] + box[2]) // 2, (box[1] + box[3]) // 2)
            letter = BALL_LETTERS[card.kind]
            letter_font = font(max(TYPE, cell_size(size) // 2), bold=True)
            draw_text(draw, centre, letter, font=letter_font, fill=INK, anchor="mm")
            if card.kind == "derubberiser":  # a struck-through R: un-rubberises
                cx, cy = centre
                r = cell_size(size) // 4
                draw.line([(cx - r, cy + r), (cx + r, cy - r)], fill=INK, width=5)
            continue
        draw.rounded_rectangle(box, radius=10, fill=CARD_TRACK, outline=INK, width=3)
        entry, exit_square = card_ends(card, size)
        _arrow(draw, square_centre(size, entry), square_centre(size, exit_square), cell_size(size))
        if card.kind in SPLITTERS and card.y is not None:  # a splitter has its Y
            _y_glyph(draw, size, card.y)


def _arrow(draw: ImageDraw.ImageDraw, start, end, cell: int) -> None:
    (x0, y0), (x1, y1) = start, end
    dx, dy = (x1 - x0) / cell, (y1 - y0) / cell
    head = cell * 0.28
    tip = (x1 - dx * cell * 0.12, y1 - dy * cell * 0.12)
    base = (tip[0] - dx * head, tip[1] - dy * head)
    tail = (x0 + dx * cell * 0.1, y0 + dy * cell * 0.1)
    draw.line([tail, base], fill=WHITE, width=9)
    left = (base[0] - dy * head * 0.7, base[1] + dx * head * 0.7)
    right = (base[0] + dy * head * 0.7, base[1] - dx * head * 0.7)
    draw.polygon([tip, left, right], fill=WHITE)


def _y_glyph(draw: ImageDraw.ImageDraw, size: int, y_square: int) -> None:
    """A big yellow 'Y' on the splitter's Y square (docs/rules/rollerball.md, "the Y")."""
    centre = square_centre(size, y_square)
    draw_text(
        draw,
        centre,
        "Y",
        font=font(cell_size(size) * 2 // 3, bold=True),
        fill=BALL_ENERGISED,
        anchor="mm",
        stroke_width=3,
        stroke_fill=INK,
    )


def draw_bases_and_workmen(draw: ImageDraw.ImageDraw, state: GameState) -> None:
    size = state.settings.board
    cell = cell_size(size)
    label = font(max(TYPE, cell // 3), bold=True)
    for seat, base in enumerate(state.bases):
        if base is None:
            continue
        left, top, right, bottom = square_box(size, base)
        draw.rectangle(
            (left + 4, top + 4, right - 4, bottom - 4),
            fill=PLAYER_COLOURS[seat],
            outline=INK,
            width=3,
        )
        draw_text(
            draw,
            (left + 8, top + 6),
            str(seat + 1),
            font=label,
            fill=WHITE,
            stroke_width=2,
            stroke_fill=INK,
        )
    seen: dict[int, int] = {}
    for seat, workman in enumerate(state.workmen):
        if workman is None:
            continue
        shift = seen.get(workman, 0) * cell // 6
        seen[workman] = seen.get(workman, 0) + 1
        cx, cy = square_centre(size, workman)
        cx += shift
        r = cell * 0.3
        points = [(cx, cy - r), (cx + r, cy + r * 0.8), (cx - r, cy + r * 0.8)]
        draw.polygon(points, fill=PLAYER_COLOURS[seat], outline=INK, width=3)
        draw_text(
            draw,
            (cx, cy + r * 0.25),
            str(seat + 1),
            font=label,
            fill=WHITE,
            anchor="mm",
            stroke_width=2,
            stroke_fill=INK,
        )


def draw_ball(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], state_name: str, cell: int
) -> None:
    """White = normal, yellow = energised; a pink ring with an arrow = rubber, up or down."""
    cx, cy = centre
    r = cell * 0.3
    fill = BALL_ENERGISED if "energised" in state_name else BALL_NORMAL
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=INK, width=3)
    if "rubber" in state_name:
        inner = r - 5
        draw.ellipse((cx - inner, cy - inner, cx + inner, cy + inner), outline=BALL_RUBBER, width=6)
        glyph = "↑" if state_name.startswith("up") else "↓"
        glyph_font = font(max(TYPE, int(r * 1.3)), bold=True)
        draw_text(draw, (cx, cy), glyph, font=glyph_font, fill=INK, anchor="mm")


def _clip(text: str, width: float, face: ImageFont.FreeTypeFont) -> str:
    while len(text) > 1 and text_length(face, text) > width:
        text = text[:-2] + "…"
    return text


def _wrap(text: str, width: float, face: ImageFont.FreeTypeFont) -> list[str]:
    """Greedy word wrap (render.wrap) in `face`; a word too wide on its own stays whole."""
    return wrap_words(text, lambda line: text_length(face, line) <= width)


def draw_title(draw: ImageDraw.ImageDraw, state: GameState, names: dict[int, str] | None) -> None:
    """The header: the turn, then what happens next, on up to two lines."""
    turn = f"Turn {state.turn_number}: " if state.turn_number else ""
    face = font(TYPE, bold=True)
    width = WIDTH - 2 * EDGE
    lines = _wrap(turn + describe_next_step(state, names), width, face)
    if len(lines) > 2:
        lines = [lines[0], _clip(" ".join(lines[1:]) + "…", width, face)]
    for index, line in enumerate(lines):
        draw_text(draw, (EDGE, 8 + index * 27), line, font=face, fill=INK)


def draw_players(draw: ImageDraw.ImageDraw, state: GameState, names: dict[int, str] | None) -> None:
    """The players under the board: colour, number and name, victory points, cards in hand."""
    size = state.settings.board
    top = players_top(size) + PLAYER_HEAD
    face = font(TYPE, bold=True)
    column = (WIDTH - 2 * EDGE) // 2
    for seat in range(state.players):
        x = EDGE + (seat % 2) * column
        y = top + (seat // 2) * PLAYER_ROW
        draw.rectangle((x, y + 3, x + 24, y + 27), fill=PLAYER_COLOURS[seat], outline=INK, width=2)
        name = (names or {}).get(seat, f"Player {seat + 1}")
        room = VP_X - 46 - 32 - text_length(face, f"{seat + 1} ")
        line = f"{seat + 1} {_clip(name, room, face)}"
        draw_text(draw, (x + 32, y + 4), line, font=face, fill=INK)
        for right, value in ((VP_X, len(state.victory[seat])), (CARDS_X, len(state.hands[seat]))):
            draw_text(draw, (x + right, y + 4), str(value), font=face, fill=INK, anchor="ra")


SYMBOL = 30  # a legend symbol's square
# The legend's entries, in reading order: a symbol (None: the label alone) and what it means.
LEGEND = (
    ("arrow", "move"),
    ("y", "split"),
    ("E", "energise"),
    ("R", "rubber"),
    ("-R", "unrubber"),
    ("normal", "ball"),
    ("energised", "energised"),
    ("up rubber", "up rubber"),
    ("down rubber", "down"),
    ("base", "base"),
    ("workman", "workman"),
    (None, "◤ corner"),
    (None, "· balls go clockwise"),
)


@cache
def legend_places() -> tuple[tuple[int, int], ...]:
    """Each legend entry's (x, row): left to right, a new row where the next would not fit."""
    small = font(TYPE)
    places: list[tuple[int, int]] = []
    x, row = EDGE, 0
    for kind, label in LEGEND:
        width = (SYMBOL + 2 if kind else 0) + math.ceil(text_length(small, label))
        if x > EDGE and x + width > WIDTH - EDGE:
            x, row = EDGE, row + 1
        places.append((x, row))
        x += width + 8
    return tuple(places)


def legend_rows() -> int:
    return legend_places()[-1][1] + 1


def _draw_symbol(draw: ImageDraw.ImageDraw, kind: str, x: int, y: int) -> None:
    box = (x, y, x + SYMBOL, y + SYMBOL)
    if kind == "arrow":
        draw.rounded_rectangle(box, radius=6, fill=CARD_TRACK)
        draw.polygon([(x + 15, y + 4), (x + 26, y + 17), (x + 4, y + 17)], fill=WHITE)
        draw.line([(x + 15, y + 15), (x + 15, y + 27)], fill=WHITE, width=5)
    elif kind == "y":
        draw.rounded_rectangle(box, radius=6, fill=CARD_TRACK)
        draw.line([(x + 15, y + 27), (x + 15, y + 16)], fill=BALL_ENERGISED, width=5)
        draw.line([(x + 15, y + 16), (x + 5, y + 5)], fill=BALL_ENERGISED, width=5)
        draw.line([(x + 15, y + 16), (x + 25, y + 5)], fill=BALL_ENERGISED, width=5)
    elif kind in ("E", "R", "-R"):
        colour = {
            "E": CARD_BALL["energiser"],
            "R": CARD_BALL["rubberiser"],
            "-R": CARD_BALL["derubberiser"],
        }[kind]
        draw.rounded_rectangle(box, radius=6, fill=colour, outline=INK, width=2)
        letter = font(TYPE, bold=True)
        draw.text(
            (x + 15, y + 15), "R" if kind == "-R" else kind, font=letter, fill=INK, anchor="mm"
        )
        if kind == "-R":
            draw.line([(x + 6, y + 24), (x + 24, y + 6)], fill=INK, width=3)
    elif kind == "base":
        draw.rectangle((x + 2, y + 2, x + 28, y + 28), fill=GREY_BASE, outline=INK, width=2)
    elif kind == "workman":
        draw.polygon(
            [(x + 15, y + 2), (x + 28, y + 28), (x + 2, y + 28)],
            fill=GREY_BASE,
            outline=INK,
            width=2,
        )
    else:  # a ball's state
        draw_ball(draw, (x + 15, y + 15), kind, 52)


def _draw_symbol_legend(draw: ImageDraw.ImageDraw, size: int, players: int) -> None:
    """Over the players' columns, what the numbers are; then under the players, every symbol
    the board uses and what it means, in as many rows as the type needs."""
    small = font(TYPE)
    column = (WIDTH - 2 * EDGE) // 2
    for index in range(min(2, players)):
        x = EDGE + index * column
        for right, label in ((VP_X, "VP"), (CARDS_X, "cards")):
            draw.text((x + right, players_top(size)), label, font=small, fill=INK, anchor="ra")
    top = legend_top(size, players)
    draw.line((EDGE, top - 5, WIDTH - EDGE, top - 5), fill=(200, 195, 180), width=2)
    for (kind, label), (x, row) in zip(LEGEND, legend_places(), strict=True):
        y = top + row * LEGEND_ROW
        if kind:
            _draw_symbol(draw, kind, x, y)
            x += SYMBOL + 2
        draw.text((x, y + 15), label, font=small, fill=INK, anchor="lm")


GREY_BASE = (160, 160, 160)


def board_image(
    state: GameState, names: dict[int, str] | None = None, *, balls: bool = True
) -> Image.Image:
    size = state.settings.board
    image = _background(size, state.players).copy()
    draw = ImageDraw.Draw(image)
    draw_cards(draw, state)
    draw_bases_and_workmen(draw, state)
    if balls:
        for ball in state.balls:
            draw_ball(draw, square_centre(size, ball.square), ball.state_name(), cell_size(size))
    draw_title(draw, state, names)
    draw_players(draw, state, names)
    return image


# zlib level 3: about a third of level 6's time on this palette image, for a few KB more
# (bench/render_turn.py).
PNG_COMPRESS_LEVEL = 3


def render_board(state: GameState, names: dict[int, str] | None = None) -> bytes:
    """The board as PNG bytes. `state` may be a view (hands are only counted)."""
    return to_png(board_image(state, names), compress_level=PNG_COMPRESS_LEVEL)
