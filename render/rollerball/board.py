"""The Rollerball board as a PNG: rings with their clockwise direction, cards as symbols with
their orientation (a track changer's arrow points where it sends a ball; a splitter shows its
'Y'), balls with their states, bases and workmen in player colours, coordinates and a legend."""

from __future__ import annotations

from functools import cache

from PIL import Image, ImageDraw

from render.common import font, to_png
from render.rollerball.layout import (
    BALL_ENERGISED,
    BALL_NORMAL,
    BALL_RUBBER,
    CARD_BALL,
    CARD_TRACK,
    CENTRE,
    CORNER_MARK,
    INK,
    MARGIN,
    PAPER,
    PLAYER_COLOURS,
    RING_COLOURS,
    TITLE,
    TRACK_LINE,
    board_bottom,
    cell_size,
    image_width,
    square_box,
    square_centre,
)
from rules.rollerball import GameState, describe_next_step, geometry
from rules.rollerball.cards import BALL_CHANGERS, SPLITTERS
from rules.rollerball.movement import card_ends

LEGEND_HEIGHT = 300
WHITE = (255, 255, 255)
BALL_LETTERS = {"energiser": "E", "rubberiser": "R", "derubberiser": "R"}


def image_height(size: int) -> int:
    return board_bottom(size) + LEGEND_HEIGHT


@cache
def _background(size: int, players: int) -> Image.Image:
    """The fixed part (board, coordinates, the legend's symbols), once per board size and number
    of players, as a palette image: drawing on it and encoding it is several times faster than
    RGB (the board needs far fewer than 256 colours)."""
    image = _background_rgb(size)
    _draw_symbol_legend(ImageDraw.Draw(image), size, players)
    return image.convert("P", palette=Image.Palette.ADAPTIVE, colors=200)


def _background_rgb(size: int) -> Image.Image:
    """Track tiles, ring lines with direction chevrons, corner marks, coordinates."""
    board = geometry(size)
    image = Image.new("RGB", (image_width(size), image_height(size)), PAPER)
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
    coord = font(22, bold=True)
    for index in range(size):
        letter, number = "abcdefghijk"[index], str(index + 1)
        cx = MARGIN + index * cell + cell // 2
        cy = TITLE + MARGIN + index * cell + cell // 2
        for y in (TITLE + MARGIN // 2, board_bottom(size) - MARGIN // 2):
            draw.text((cx, y), letter, font=coord, fill=INK, anchor="mm")
        for x in (MARGIN // 2, image_width(size) - MARGIN // 2):
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
            draw.text(
                centre, letter, font=font(cell_size(size) // 2, bold=True), fill=INK, anchor="mm"
            )
            if card.kind == "derubberiser":  # a struck-through R: un-rubberises
                cx, cy = centre
                r = cell_size(size) // 4
                draw.line([(cx - r, cy + r), (cx + r, cy - r)], fill=INK, width=5)
            continue
        draw.rounded_rectangle(box, radius=10, fill=CARD_TRACK, outline=INK, width=3)
        entry, exit_square = card_ends(card, size)
        _arrow(draw, square_centre(size, entry), square_centre(size, exit_square), cell_size(size))
        if card.kind in SPLITTERS:
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
    draw.text(
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
    label = font(cell // 3, bold=True)
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
        draw.text(
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
        draw.text(
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
        draw.text((cx, cy), glyph, font=font(int(r * 1.3), bold=True), fill=INK, anchor="mm")


def draw_title(draw: ImageDraw.ImageDraw, state: GameState, names: dict[int, str] | None) -> None:
    edition = "later edition" if state.settings.later else "earlier edition"
    turn = f" · turn {state.turn_number}" if state.turn_number else ""
    draw.text((MARGIN, 10), f"Rollerball · {edition}{turn}", font=font(26, bold=True), fill=INK)
    prompt = describe_next_step(state, names)
    if len(prompt) > 58:
        prompt = prompt[:57] + "…"
    draw.text((MARGIN, 40), prompt, font=font(20), fill=INK)


def draw_players(draw: ImageDraw.ImageDraw, state: GameState, names: dict[int, str] | None) -> None:
    """The legend's player lines: colour, name, victory points, cards in hand."""
    size = state.settings.board
    top = board_bottom(size)
    width = image_width(size)
    text = font(21, bold=True)
    column = (width - 2 * MARGIN) // 2
    for seat in range(state.players):
        x = MARGIN + (seat % 2) * column
        y = top + 4 + (seat // 2) * 32
        draw.rectangle((x, y + 2, x + 24, y + 26), fill=PLAYER_COLOURS[seat], outline=INK, width=2)
        cards = len(state.hands[seat])
        tail = f": {len(state.victory[seat])} VP, {cards} card{'s' if cards != 1 else ''}"
        name = (names or {}).get(seat, f"Player {seat + 1}")
        room = column - 40 - draw.textlength(f"{seat + 1} {tail}", font=text)
        while len(name) > 1 and draw.textlength(name, font=text) > room:
            name = name[:-2] + "…"
        line = f"{seat + 1} {name}{tail}"
        draw.text((x + 32, y + 3), line, font=text, fill=INK)


def _draw_symbol_legend(draw: ImageDraw.ImageDraw, size: int, players: int) -> None:
    width = image_width(size)
    y = board_bottom(size) + 4 + ((players + 1) // 2) * 32 + 12
    small = font(19, bold=True)
    samples = [
        ("up / down move", "arrow"),
        ("splitter (Y)", "y"),
        ("energiser", "E"),
        ("rubberiser", "R"),
        ("derubberiser", "-R"),
    ]
    x = MARGIN
    for label, kind in samples:
        box = (x, y, x + 34, y + 34)
        if kind in ("arrow", "y"):
            draw.rounded_rectangle(box, radius=6, fill=CARD_TRACK)
            if kind == "arrow":
                draw.polygon([(x + 17, y + 5), (x + 29, y + 20), (x + 5, y + 20)], fill=WHITE)
                draw.line([(x + 17, y + 18), (x + 17, y + 30)], fill=WHITE, width=5)
            else:
                draw.line([(x + 17, y + 30), (x + 17, y + 18)], fill=BALL_ENERGISED, width=5)
                draw.line([(x + 17, y + 18), (x + 6, y + 6)], fill=BALL_ENERGISED, width=5)
                draw.line([(x + 17, y + 18), (x + 28, y + 6)], fill=BALL_ENERGISED, width=5)
        else:
            colour = {
                "E": CARD_BALL["energiser"],
                "R": CARD_BALL["rubberiser"],
                "-R": CARD_BALL["derubberiser"],
            }[kind]
            draw.rounded_rectangle(box, radius=6, fill=colour, outline=INK, width=2)
            draw.text(
                (x + 17, y + 17), "R" if kind == "-R" else kind, font=small, fill=INK, anchor="mm"
            )
            if kind == "-R":
                draw.line([(x + 8, y + 26), (x + 26, y + 8)], fill=INK, width=3)
        x += 40
        draw.text((x, y + 7), label, font=small, fill=INK)
        x += int(draw.textlength(label, font=small)) + 18
        if x > width - 200:
            x, y = MARGIN, y + 44
    y += 48
    x = MARGIN
    for label, state_name in (
        ("ball", "normal"),
        ("energised", "energised"),
        ("up rubber", "up rubber"),
        ("down rubber", "down rubber"),
    ):
        draw_ball(draw, (x + 18, y + 18), state_name, 60)
        x += 44
        draw.text((x, y + 7), label, font=small, fill=INK)
        x += int(draw.textlength(label, font=small)) + 30
    y += 46
    draw.rectangle((MARGIN, y, MARGIN + 30, y + 30), fill=GREY_BASE, outline=INK, width=2)
    draw.text((MARGIN + 40, y + 5), "base", font=small, fill=INK)
    tri_x = MARGIN + 110
    draw.polygon(
        [(tri_x + 15, y), (tri_x + 30, y + 30), (tri_x, y + 30)],
        fill=GREY_BASE,
        outline=INK,
        width=2,
    )
    draw.text(
        (tri_x + 40, y + 5), "workman    ◤ corner    balls run clockwise", font=small, fill=INK
    )


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


def render_board(state: GameState, names: dict[int, str] | None = None) -> bytes:
    """The board as PNG bytes. `state` may be a view (hands are only counted)."""
    return to_png(board_image(state, names))
