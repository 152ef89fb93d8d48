"""A Rollerball player's hand as a PNG, for their private panel: one tile per card (the card's
symbol as the board draws it, its name in large type), the card just earned when a ball ran over
their base, NEW on the cards that arrived since the player last used their panel, and a
legend.

Phone-first (render/textsize.py): 480 px wide, shown SHOWN_WIDTH (298) px wide on a 390-px
phone, so no type is smaller than 18 px (11.2 px on the screen). The image is drawn from the seat's own view
(rules.rollerball.view_for): it never holds another seat's cards.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache, lru_cache
from typing import NamedTuple, cast

from PIL import Image, ImageDraw

from render.common import GREEN, VERMILION, draw_text, font, text_length, to_png
from render.rollerball.layout import (
    BALL_ENERGISED,
    CARD_BALL,
    CARD_TRACK,
    INK,
    PAPER,
)
from render.textsize import smallest_font
from rules.prose import plural
from rules.rollerball import GameState, Settings, card_name, kind_of, new_game
from rules.rollerball.cards import BALL_CHANGERS, DECK_SIZE, KINDS, OUTWARD, REPLACER, SPLITTERS

WIDTH = 480
EDGE = 16
GAP = 12
COLUMNS = 3
TILE_W = (WIDTH - 2 * EDGE - (COLUMNS - 1) * GAP) // COLUMNS  # 141
FACE_H = 88  # the card's symbol
TILE_H = FACE_H + 58  # and its name on up to two lines
TITLE_TYPE = 24
SMALL = smallest_font(WIDTH)  # the legend, NEW: 18 px, the least the phone rule allows
TYPE = SMALL  # card names, the header's second line (bold, or larger than the legend's lines)
LINE = 24
WHITE = (255, 255, 255)
REPLACER_FACE = (196, 214, 235)
NEW_BADGE = VERMILION
EARNED_FRAME = GREEN
LETTERS = {"energiser": "E", "rubberiser": "R", "derubberiser": "R"}
LEGEND = (
    "↑ Up: a crossing ball goes out a ring",
    "↓ Down: in a ring",
    "Y splits or combines balls",
    "E energises a ball",
    "R makes it rubber, a struck R normal again",
    "⇄ Replacer: swaps the card under your workman",
    "NEW: arrived since you last used your panel",
)
LEGEND_LINE = SMALL + 6


def _draw_face(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], kind: str) -> None:
    """The card's symbol, in the board's colours (render/rollerball/board.py)."""
    left, top, right, bottom = box
    cx, cy = (left + right) // 2, (top + bottom) // 2
    if kind in BALL_CHANGERS:
        draw.rounded_rectangle(box, radius=12, fill=CARD_BALL[kind], outline=INK, width=3)
        draw_text(draw, (cx, cy), LETTERS[kind], font=font(44, bold=True), fill=INK, anchor="mm")
        if kind == "derubberiser":
            draw.line([(cx - 22, cy + 22), (cx + 22, cy - 22)], fill=INK, width=6)
        return
    if kind == REPLACER:
        draw.rounded_rectangle(box, radius=12, fill=REPLACER_FACE, outline=INK, width=3)
        draw_text(draw, (cx, cy), "⇄", font=font(48, bold=True), fill=INK, anchor="mm")
        return
    draw.rounded_rectangle(box, radius=12, fill=CARD_TRACK, outline=INK, width=3)
    up = kind in OUTWARD
    shaft_x = cx - 18 if kind in SPLITTERS else cx
    tip, tail = (cy - 30, cy + 30) if up else (cy + 30, cy - 30)
    head = 16 if up else -16
    draw.line([(shaft_x, tail), (shaft_x, tip + head)], fill=WHITE, width=9)
    draw.polygon(
        [(shaft_x, tip), (shaft_x - 16, tip + head * 1.4), (shaft_x + 16, tip + head * 1.4)],
        fill=WHITE,
    )
    if kind in SPLITTERS:
        draw_text(
            draw,
            (cx + 26, cy),
            "Y",
            font=font(40, bold=True),
            fill=BALL_ENERGISED,
            anchor="mm",
            stroke_width=3,
            stroke_fill=INK,
        )


def _name_lines(kind: str) -> list[str]:
    """The card's name on one line, or two where one is too wide for the tile."""
    face = font(TYPE, bold=True)
    name = card_name(kind)
    if text_length(face, name) <= TILE_W - 8 or " " not in name:
        return [name]
    return name.split(" ", 1)


def _draw_tile(draw: ImageDraw.ImageDraw, x: int, y: int, kind: str, *, new: bool) -> None:
    _draw_face(draw, (x + 4, y, x + TILE_W - 4, y + FACE_H), kind)
    face = font(TYPE, bold=True)
    for index, line in enumerate(_name_lines(kind)):
        draw_text(
            draw,
            (x + TILE_W // 2, y + FACE_H + 6 + index * 23),
            line,
            font=face,
            fill=INK,
            anchor="ma",
        )
    if new:
        badge = font(SMALL, bold=True)
        width = int(text_length(badge, "NEW")) + 14
        draw.rounded_rectangle(
            (x + TILE_W - width - 2, y - 8, x + TILE_W + 2, y + 18),
            radius=6,
            fill=NEW_BADGE,
            outline=INK,
            width=2,
        )
        draw_text(
            draw, (x + TILE_W - width // 2, y + 5), "NEW", font=badge, fill=WHITE, anchor="mm"
        )


def _legend_lines() -> list[str]:
    """The legend's phrases, as many to a line as fit."""
    small = font(SMALL)
    lines: list[str] = []
    for phrase in LEGEND:
        joined = f"{lines[-1]} · {phrase}" if lines else phrase
        if lines and text_length(small, joined) <= WIDTH - 2 * EDGE:
            lines[-1] = joined
        else:
            lines.append(phrase)
    return lines


def _rows(count: int) -> int:
    return max(1, (count + COLUMNS - 1) // COLUMNS)


class HandShown(NamedTuple):
    """What a hand image shows, and all it is drawn from: equal ones are the same picture."""

    name: str
    cards: tuple[tuple[str, bool], ...]  # each card's kind, and whether it is marked NEW
    earned: str | None  # the kind of the card just earned
    points: int
    hand_limit: int
    target_vp: int


def shown_hand(
    view: GameState,
    seat: int,
    name: str,
    *,
    new: frozenset[int] = frozenset(),
    earned: int | None = None,
) -> HandShown:
    """What `seat`'s hand image shows: `view` is the seat's own view; `new` the card ids to mark
    NEW; `earned` the card a ball over the seat's base just earned it (bank or keep)."""
    return HandShown(
        name,
        tuple((kind_of(card), card in new) for card in view.hands[seat]),
        None if earned is None else kind_of(earned),
        len(view.victory[seat]),
        view.settings.hand_limit,
        view.settings.target_vp,
    )


def hand_image(
    view: GameState,
    seat: int,
    name: str,
    *,
    new: frozenset[int] = frozenset(),
    earned: int | None = None,
) -> Image.Image:
    """The hand in RGB (`shown_hand`'s arguments), the earned card shown apart from it."""
    return _draw_hand(shown_hand(view, seat, name, new=new, earned=earned))


def _draw_hand(shown: HandShown) -> Image.Image:
    hand, name = shown.cards, shown.name
    title_face, face, small = font(TITLE_TYPE, bold=True), font(TYPE), font(SMALL)
    hand_top = EDGE + 34 + LINE + 18
    hand_bottom = hand_top + _rows(len(hand)) * (TILE_H + GAP)
    earned = shown.earned
    earned_top = hand_bottom + (8 if earned is not None else 0)
    legend_top = earned_top + ((LINE + TILE_H + GAP) if earned is not None else 0) + 8
    legend = _legend_lines()
    height = legend_top + len(legend) * LEGEND_LINE + EDGE
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    title = f"Your hand · {name}"
    while len(title) > 12 and text_length(title_face, title) > WIDTH - 2 * EDGE:
        title = title[:-2] + "…"
    draw_text(draw, (EDGE, EDGE), title, font=title_face, fill=INK)
    points = shown.points
    summary = (
        f"{plural(len(hand)):card} · draw up to {shown.hand_limit}"
        f" · {points} of {shown.target_vp} victory points"
    )
    draw_text(draw, (EDGE, EDGE + 36), summary, font=face, fill=INK)
    if not hand:
        draw_text(draw, (EDGE, hand_top + 40), "No cards in your hand.", font=face, fill=INK)
    for index, (kind, marked) in enumerate(hand):
        x = EDGE + (index % COLUMNS) * (TILE_W + GAP)
        y = hand_top + (index // COLUMNS) * (TILE_H + GAP)
        _draw_tile(draw, x, y, kind, new=marked)
    if earned is not None:
        draw.line((EDGE, earned_top - 4, WIDTH - EDGE, earned_top - 4), fill=INK, width=2)
        draw_text(
            draw,
            (EDGE, earned_top + 2),
            "Just earned: bank it or keep it",
            font=font(TYPE, bold=True),
            fill=INK,
        )
        x, y = EDGE, earned_top + LINE + 10
        draw.rounded_rectangle(
            (x - 6, y - 6, x + TILE_W + 6, y + TILE_H), radius=14, outline=EARNED_FRAME, width=5
        )
        _draw_tile(draw, x, y, earned, new=False)
    draw.line((EDGE, legend_top - 4, WIDTH - EDGE, legend_top - 4), fill=(200, 195, 180), width=2)
    for index, line in enumerate(legend):
        draw_text(draw, (EDGE, legend_top + 2 + index * LEGEND_LINE), line, font=small, fill=INK)
    return image


def render_hand(
    view: GameState,
    seat: int,
    name: str,
    *,
    new: frozenset[int] = frozenset(),
    earned: int | None = None,
) -> bytes:
    """The hand as PNG bytes (see `hand_image`). An open panel is drawn again after every move
    to see whether it changed, and most seats' hands did not: a hand that shows what one drawn
    lately showed is that one's bytes."""
    return _hand_png(shown_hand(view, seat, name, new=new, earned=earned))


@lru_cache(maxsize=256)  # about 13 KB each
def _hand_png(shown: HandShown) -> bytes:
    """In the colours of `hand_palette`: a third of the bytes of the same picture in RGB, and
    half the time to draw and encode."""
    image = _draw_hand(shown)
    return to_png(image.quantize(palette=hand_palette(), dither=Image.Dither.NONE))


@cache
def hand_palette() -> Image.Image:
    """The colours of every hand: the 256 most used in a hand holding a card of each kind,
    plain and NEW, and one just earned, so each tile, badge and frame colour is there with
    most shades of the type on them. Pillow maps a pixel to a near entry (its lookup is by
    a few bits a channel, not exact: a shade or two off, which no eye sees), with no
    dithering, so flat colours stay flat."""
    state, _ = new_game(0, Settings(edition="later", players=2, board=9))
    one_of_each = [next(c for c in range(DECK_SIZE) if kind_of(c) == kind) for kind in KINDS]
    sample = replace(state, hands=[one_of_each, []])
    image = hand_image(
        sample, 0, "Every card", new=frozenset(one_of_each[::2]), earned=one_of_each[0]
    )
    counted = cast("list[tuple[int, tuple[int, int, int]]]", image.getcolors(1 << 20))
    most_used = sorted(counted, reverse=True)[:256]
    palette = Image.new("P", (1, 1))
    palette.putpalette([channel for _, colour in most_used for channel in colour])
    return palette
