"""The Rocketball board image: field, coordinates, goals, edge arrows, chips, ball(s), and a panel
beside the field with the score, what happens next, the windbag and the legend.

Phone-first (geometry.py): 700 px wide, type from 24 px (11 px on a 390-px phone), about as tall
as wide, so the score and whose turn stay in view next to the field on a desktop too.

Drawn in layers for speed: the static field (grid, coordinates, edge arrows, goals) and the
legend are drawn once per board layout and cached (never per pair of players: a ball named
after its owner in the legend is written on each copy); each image copies them and adds the
highlights, goal labels, chips, balls and the panel's text. Everything goes through a painter
(paint.py): `paint_board` draws straight into the round palette's 16 colours with hard-edged
sprites (the board PNG and the round GIF: no quantising), `compose_board` draws RGB (the legacy
move GIF, mapped onto a 256-colour palette by `to_palette`).
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from functools import cache, lru_cache

from PIL import Image, ImageFont

from render.common import GREY, INK, LIGHT_GREY, PAPER, VERMILION, font
from render.rocketball import geometry as g
from render.rocketball.paint import (
    PalettePainter,
    RGBPainter,
    TextBlock,
    TextLine,
    palette_template,
)
from render.rocketball.sprites import (
    CHIP_COLOURS,
    WHITE,
    ball_sprite,
    chip_colours,
    chip_sprite,
    edge_arrow_sprite,
    harden,
)
from render.rocketball.view import BallView, BoardView, ChipView
from render.wrap import wrap_words

CHECKER = (238, 236, 226)  # every other square, faintly, so rows and columns are easy to follow
HIGHLIGHT = (255, 222, 120)  # squares of the last move
GOAL_FILL = (226, 240, 250)
NOTE_GREY = INK  # the panel's notes: 24 px ink (a grey would not survive the 16 colours)
FIELD_BORDER = 3
TYPE = g.TYPE

Painter = RGBPainter | PalettePainter

# Colours that must come out exactly (flat areas the tests sample and players rely on); the
# first 16 are the round palette (round.py), the board PNG's too.
EXACT_COLOURS = [
    PAPER,
    CHECKER,
    HIGHLIGHT,
    GOAL_FILL,
    INK,
    WHITE,
    LIGHT_GREY,
    VERMILION,
    *CHIP_COLOURS.values(),
]
ROUND_COLOURS = 16


def round_colours() -> tuple[tuple[int, int, int], ...]:
    """The board's exact colours, padded to ROUND_COLOURS (16: every LZW code starts at 5 bits
    in the round GIF, and the PNG is written 4 bits a pixel)."""
    exact = list(dict.fromkeys(EXACT_COLOURS))[:ROUND_COLOURS]
    return tuple(exact + [exact[0]] * (ROUND_COLOURS - len(exact)))


# --- text layout --------------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def _length(text: str, size: int, bold: bool) -> float:
    return font(size, bold=bold).getlength(text)


def wrap(text: str, width: int, size: int = TYPE, *, bold: bool = True) -> list[str]:
    """Greedy word wrap in the font of `size` (render.wrap). A word wider than `width` on its
    own keeps the letters that fit, ended with …; a text of one such word
    ("xXx_DragonSlayer_xXx") is split between letters instead, so two lines show more of it."""

    def fits(line: str) -> bool:
        return _length(line, size, bold) <= width

    split = len(text.split()) == 1

    def too_wide(word: str) -> list[str]:
        pieces: list[str] = []
        while split and len(word) > 1 and not fits(word):
            cut = len(word) - 1
            while cut > 1 and not fits(word[:cut]):
                cut -= 1
            pieces.append(word[:cut])
            word = word[cut:]
        if not fits(word):
            while len(word) > 1 and not fits(word + "…"):
                word = word[:-1]
            word += "…"
        return [*pieces, word]

    return wrap_words(text, fits, too_wide)


def clip(lines: list[str], count: int, width: int, size: int = TYPE, *, bold: bool = True):
    """At most `count` lines, the last ending in … when text was left out."""
    if len(lines) <= count:
        return lines
    kept = lines[:count]
    last = kept[-1]
    while last and _length(last + "…", size, bold) > width:
        last = last[:-1].rstrip()
    return [*kept[:-1], last + "…"]


def _text_fitting(
    text: str, width: int, size: int, *, bold: bool = True, smallest: int = TYPE
) -> tuple[str, ImageFont.FreeTypeFont]:
    """The largest font (from `size` down) in which `text` fits `width`; clipped with … if none."""
    for candidate in range(size, smallest - 1, -1):
        if _length(text, candidate, bold) <= width:
            return text, font(candidate, bold=bold)
    while len(text) > 1 and _length(text + "…", smallest, bold) > width:
        text = text[:-1]
    return text + "…", font(smallest, bold=bold)


def lines_block(
    lines: list[str],
    size: tuple[int, int],
    *,
    ground=PAPER,
    ink=INK,
    bold: bool = True,
    text_size: int = TYPE,
    step: int = g.LINE,
    left: int = g.PANEL_PAD,
    top: int = 0,
) -> TextBlock:
    """Left-aligned lines from (left, top), one every `step` px."""
    placed = tuple(
        TextLine(line, left, top + index * step, text_size, bold)
        for index, line in enumerate(lines)
    )
    return TextBlock(size, ground, ink, placed)


def centred_block(
    lines: list[str], size: tuple[int, int], *, ground=PAPER, ink=INK, bold: bool = True
) -> TextBlock:
    """Lines centred in the block, one every LINE px."""
    first = size[1] // 2 - g.LINE * (len(lines) - 1) // 2
    placed = tuple(
        TextLine(line, size[0] // 2, first + index * g.LINE, TYPE, bold, "mm")
        for index, line in enumerate(lines)
    )
    return TextBlock(size, ground, ink, placed)


# --- the static field -------------------------------------------------------------------------


def _draw_centre_mark(p: Painter) -> None:
    """The centre square can never hold a chip (docs/rules/rocketball.md, "Placing"): a ring marks it, wider than the ball."""
    cx, cy = g.square_centre(*g.CENTRE)
    grey = p.ink(GREY)
    p.draw.ellipse((cx - 21, cy - 21, cx + 21, cy + 21), outline=grey, width=3)
    p.draw.line((cx - 5, cy, cx + 5, cy), fill=grey, width=2)
    p.draw.line((cx, cy - 5, cx, cy + 5), fill=grey, width=2)


def _draw_field(p: Painter) -> None:
    for column in range(g.COLUMNS):
        for row in range(g.ROWS):
            left, top, right, bottom = g.square_box(column, row)
            fill = CHECKER if (column + row) % 2 else PAPER
            p.draw.rectangle(
                (left, top, right - 1, bottom - 1), fill=p.ink(fill), outline=p.ink(LIGHT_GREY)
            )
    _draw_centre_mark(p)
    p.draw.rectangle(
        (
            g.FIELD_X - FIELD_BORDER + 1,
            g.FIELD_Y - FIELD_BORDER + 1,
            g.FIELD_X + g.FIELD_W + FIELD_BORDER - 2,
            g.FIELD_Y + g.FIELD_H + FIELD_BORDER - 2,
        ),
        outline=p.ink(INK),
        width=FIELD_BORDER,
    )
    # Open the border across both goal mouths: the ball passes through there.
    mouth_left = g.FIELD_X + g.GOAL_COLUMNS[0] * g.CELL + 2
    mouth_right = g.FIELD_X + (g.GOAL_COLUMNS[-1] + 1) * g.CELL - 3
    for y in (g.FIELD_Y - FIELD_BORDER + 1, g.FIELD_Y + g.FIELD_H):
        p.draw.rectangle((mouth_left, y, mouth_right, y + FIELD_BORDER - 2), fill=p.ink(GOAL_FILL))


def _draw_goals(p: Painter) -> None:
    """Each goal: a pale blue box behind the posts, its label drawn on it (draw_goal_labels)."""
    ink, paper = p.ink(INK), p.ink(PAPER)
    for end in ("N", "S"):
        left, top, right, bottom = g.goal_box(end)
        p.draw.rectangle((left, top, right - 1, bottom - 1), fill=p.ink(GOAL_FILL))
        # Posts and back; the side facing the field stays open (the goal mouth).
        back = top if end == "N" else bottom - 1
        p.draw.line((left, back, right - 1, back), fill=ink, width=4)
        p.draw.line((left, top, left, bottom - 1), fill=ink, width=4)
        p.draw.line((right - 1, top, right - 1, bottom - 1), fill=ink, width=4)
        mouth = bottom - 1 if end == "N" else top
        p.draw.line((left, mouth, right - 1, mouth), fill=paper, width=3)


def _draw_coordinates(p: Painter) -> None:
    letter_box = (g.CELL, g.LETTERS_H)
    for column in range(g.COLUMNS):
        left = g.FIELD_X + column * g.CELL
        block = centred_block([g.COLUMN_LETTERS[column]], letter_box)
        for top in (0, g.SOUTH_GOAL_Y + g.GOAL_H):
            p.block(block, (left, top))
    number_box = (g.LABEL_W, g.CELL)
    for row in range(g.ROWS):
        block = centred_block([str(row + 1)], number_box)
        top = g.FIELD_Y + row * g.CELL
        for left in (0, g.BOARD_W - g.LABEL_W):
            p.block(block, (left, top))


def _draw_edge_arrows(
    p: Painter, edge_arrows: Iterable[tuple[int, int, str, str]], *, crisp: bool
) -> None:
    for column, row, edge, facing in edge_arrows:
        p.sprite(edge_arrow_sprite(facing, crisp=crisp), g.edge_arrow_centre(column, row, edge))


# --- the legend ---------------------------------------------------------------------------------

LEGEND_ICON = 24
LEGEND_TEXT_X = g.PANEL_X + g.PANEL_PAD + LEGEND_ICON + 8


def _legend_items(
    chip_kinds: tuple[str, ...], ball_labels: tuple[tuple[str | None, str], ...], *, crisp: bool
):
    items = []
    for kind in chip_kinds:
        items.append((legend_icon(kind, crisp=crisp), kind))
    items.extend((ball_sprite("N", owner, crisp=crisp), label) for owner, label in ball_labels)
    items.append((edge_arrow_sprite("N", crisp=crisp), "edge arrow"))
    return items


@cache
def legend_icon(kind: str, *, crisp: bool = False) -> Image.Image:
    icon = chip_sprite(kind).resize((LEGEND_ICON, LEGEND_ICON), Image.Resampling.LANCZOS)
    return harden(icon, chip_colours(kind)) if crisp else icon


def board_height(view: BoardView) -> int:
    """The image's height: the field's, or more when this match's legend needs it."""
    return _static_height(view.chip_kinds, legend_layout(view))


def _label_lines(label: str) -> list[str]:
    """A legend label's lines: it wraps onto three at most."""
    width = g.WIDTH - g.PANEL_PAD - LEGEND_TEXT_X
    return clip(wrap(label, width), 3, width)


def _draw_legend(p: Painter, chip_kinds, labels, *, crisp: bool) -> None:
    """The legend at the panel's foot: an icon, then its name, one item a line. A label given
    as a number of lines (legend_layout: a ball named after its owner) is left blank."""
    items = _legend_items(chip_kinds, labels, crisp=crisp)
    p.draw.line(
        (g.PANEL_X + g.PANEL_PAD, g.LEGEND_Y - 3, g.WIDTH - g.PANEL_PAD, g.LEGEND_Y - 3),
        fill=p.ink(LIGHT_GREY),
        width=2,
    )
    for index, top, lines in _legend_rows(chip_kinds, labels):
        icon, _ = items[index]
        p.sprite(icon, (g.PANEL_X + g.PANEL_PAD + LEGEND_ICON // 2, top + g.LINE // 2))
        if isinstance(lines, list):
            _draw_legend_label(p, top, lines)


def _draw_legend_label(p: Painter, top: int, lines: list[str]) -> None:
    block = lines_block(lines, (g.WIDTH - LEGEND_TEXT_X, len(lines) * g.LINE), left=0, bold=False)
    p.block(block, (LEGEND_TEXT_X, top))


def _legend_rows(chip_kinds, labels) -> list[tuple[int, int, list[str] | int]]:
    """(item index, its top, its label's lines or how many lines it takes) for each item."""
    rows = []
    top = g.LEGEND_Y + 4
    names = [*chip_kinds, *(label for _, label in labels), "edge arrow"]
    for index, label in enumerate(names):
        lines = label if isinstance(label, int) else _label_lines(label)
        rows.append((index, top, lines))
        top += (lines if isinstance(lines, int) else len(lines)) * g.LINE + 4
    return rows


def ball_labels(view: BoardView) -> tuple[tuple[str | None, str], ...]:
    """Legend entries for the ball(s): in Assault each ball is named after its owner."""
    if not view.assault:
        return ((None, "rocketball"),)
    return tuple((player, f"ball of {view.names[player]}") for player in ("N", "S"))


def legend_layout(view: BoardView) -> tuple[tuple[str | None, str | int], ...]:
    """The ball entries as the cached static layer knows them: a label naming a player
    (Assault) only as the number of lines it takes, so the cache holds one layer per board
    layout, not one per pair of players (a 700 x 760 image each); base_palette and base_layer
    write the names on each copy."""
    return tuple(
        (owner, label if owner is None else len(_label_lines(label)))
        for owner, label in ball_labels(view)
    )


def _draw_legend_names(p: Painter, view: BoardView) -> None:
    """The labels legend_layout left blank, on a copy of the static layer."""
    labels = ball_labels(view)
    for index, top, lines in _legend_rows(view.chip_kinds, labels):
        owner = index - len(view.chip_kinds)
        if 0 <= owner < len(labels) and labels[owner][0] is not None:
            assert isinstance(lines, list)
            _draw_legend_label(p, top, lines)


def _static_height(chip_kinds, labels) -> int:
    rows = _legend_rows(chip_kinds, labels)
    _, top, lines = rows[-1]
    bottom = top + (lines if isinstance(lines, int) else len(lines)) * g.LINE + 4
    return max(g.HEIGHT, bottom + 8)


def _draw_static(p: Painter, edge_arrows, chip_kinds, labels, *, crisp: bool) -> None:
    _draw_field(p)
    _draw_goals(p)
    _draw_coordinates(p)
    _draw_edge_arrows(p, edge_arrows, crisp=crisp)
    _draw_legend(p, chip_kinds, labels, crisp=crisp)


@lru_cache(maxsize=16)  # one per board layout: variants' chip kinds, Assault's label lengths
def static_rgb(
    edge_arrows: tuple[tuple[int, int, str, str], ...],
    chip_kinds: tuple[str, ...],
    labels: tuple[tuple[str | None, str | int], ...],
    *,
    crisp: bool = False,
) -> Image.Image:
    image = Image.new("RGB", (g.WIDTH, _static_height(chip_kinds, labels)), PAPER)
    _draw_static(RGBPainter(image), edge_arrows, chip_kinds, labels, crisp=crisp)
    return image


@lru_cache(maxsize=16)
def static_palette(
    edge_arrows: tuple[tuple[int, int, str, str], ...],
    chip_kinds: tuple[str, ...],
    labels: tuple[tuple[str | None, str | int], ...],
) -> Image.Image:
    """The unchanging field, labels, goals, edge arrows and legend in the round colours."""
    colours = round_colours()
    image = Image.new("P", (g.WIDTH, _static_height(chip_kinds, labels)), 0)
    image.putpalette(palette_template(colours).getpalette() or [])
    _draw_static(PalettePainter(image, colours), edge_arrows, chip_kinds, labels, crisp=True)
    return image


def base_layer(view: BoardView, *, crisp: bool = False) -> Image.Image:
    """A fresh RGB copy of the static field with this match's legend: the canvas for one image."""
    image = static_rgb(view.edge_arrows, view.chip_kinds, legend_layout(view), crisp=crisp).copy()
    _draw_legend_names(RGBPainter(image), view)
    return image


def base_palette(view: BoardView) -> Image.Image:
    """A fresh copy of the static layer in the round colours, with this match's legend."""
    image = static_palette(view.edge_arrows, view.chip_kinds, legend_layout(view)).copy()
    _draw_legend_names(PalettePainter(image, round_colours()), view)
    return image


# --- the 256-colour palette of the legacy move GIF ----------------------------------------------


@cache
def _palette_image() -> Image.Image:
    """One fixed palette for every move-GIF frame: exact colours + anti-alias shades.

    The shades come from quantising a swatch holding every sprite on every background, so
    smoothed edges and text map to near colours and no frame needs its own palette.
    """
    kinds = tuple(CHIP_COLOURS)
    swatch = static_rgb((), kinds, ((None, "ball"), ("N", "N"), ("S", "S"))).copy()
    painter = RGBPainter(swatch)
    x = 10
    for background in (PAPER, CHECKER, HIGHLIGHT, GOAL_FILL):
        for kind in kinds:
            painter.draw.rectangle((x, 40, x + g.CELL, 40 + g.CELL), fill=background)
            painter.sprite(chip_sprite(kind), (x + g.CELL // 2, 40 + g.CELL // 2))
            painter.sprite(ball_sprite("E", "S"), (x + g.CELL // 2, 40 + g.CELL // 2))
            x = (x + g.CELL) % (g.WIDTH - g.CELL)
    exact = list(dict.fromkeys(EXACT_COLOURS))
    shades = swatch.quantize(256 - len(exact), method=Image.Quantize.MEDIANCUT)
    quantized = shades.getpalette()
    if quantized is None:  # quantize always gives a palette image
        raise ValueError("the quantized swatch has no palette")
    flat = quantized[: 3 * (256 - len(exact))]
    palette = [channel for colour in exact for channel in colour] + flat
    palette += [0] * (768 - len(palette))
    image = Image.new("P", (1, 1))
    image.putpalette(palette)
    return image


def to_palette(image: Image.Image) -> Image.Image:
    """Map an RGB board onto the move GIF's fixed palette (no dithering: flat colours stay)."""
    return image.quantize(palette=_palette_image(), dither=Image.Dither.NONE)


# --- what changes from image to image -------------------------------------------------------------


def clear_square(p: Painter, column: int, row: int, *, highlighted: bool) -> None:
    """Repaint one square's background (plain, or tinted as part of the last move)."""
    left, top, right, bottom = g.square_box(column, row)
    if highlighted:
        fill = HIGHLIGHT
    else:
        fill = CHECKER if (column + row) % 2 else PAPER
    p.draw.rectangle((left + 1, top + 1, right - 2, bottom - 2), fill=p.ink(fill))
    if (column, row) == g.CENTRE:
        _draw_centre_mark(p)


def draw_highlights(p: Painter, squares: Iterable[tuple[int, int]]) -> None:
    for column, row in squares:
        clear_square(p, column, row, highlighted=True)


def draw_chips(p: Painter, chips: Iterable[ChipView], *, crisp: bool = False) -> None:
    for chip in chips:
        sprite = chip_sprite(chip.kind, chip.facing or "N", crisp=crisp)
        p.sprite(sprite, g.square_centre(chip.column, chip.row))


# A ball on a chip once hid it. On such a square the chip is drawn smaller in the
# North-West corner and the ball toward the South-East corner, so both stay in view.
BALL_ON_CHIP_SHIFT = (8, 8)
CHIP_BADGE_SIZE = 24
CHIP_BADGE_OFFSET = (-11, -11)


@cache
def chip_badge(kind: str, facing: str, *, crisp: bool = False) -> Image.Image:
    """The chip at badge size, for the chip under a ball."""
    badge = chip_sprite(kind, facing).resize(
        (CHIP_BADGE_SIZE, CHIP_BADGE_SIZE), Image.Resampling.LANCZOS
    )
    return harden(badge, chip_colours(kind)) if crisp else badge


def ball_position(ball: BallView, *, shift: int = 0, on_chip: bool = False) -> tuple[int, int]:
    """Pixel centre for a ball; in a goal it sits in the goal box in line with its column.

    `shift` moves it sideways (Assault: two balls on one square after a collision stay visible);
    `on_chip` moves it toward the South-East corner to leave the chip's badge in view.
    """
    if ball.in_goal is not None:
        x, _ = g.square_centre(ball.column, 0)
        _, y = g.goal_centre(ball.in_goal)
        return x + shift, y
    x, y = g.square_centre(ball.column, ball.row)
    if on_chip:
        x, y = x + BALL_ON_CHIP_SHIFT[0], y + BALL_ON_CHIP_SHIFT[1]
    return x + shift, y


def draw_balls(
    p: Painter,
    balls: tuple[BallView, ...],
    chips: dict[tuple[int, int], ChipView] | None = None,
    *,
    crisp: bool = False,
) -> None:
    """Each ball on its square, its square framed in vermilion so the eye finds it at once.

    Two balls on one square (the Assault collision) sit side by side, overlapping a little. A
    ball on a chip (`chips`: square -> chip) moves aside and the chip is drawn small beside it
    (its arrow in view); the caller leaves that chip out of `draw_chips` (`chips_not_under`).
    """
    chips = chips or {}
    together: dict[tuple[int, int, str | None], list[BallView]] = {}
    for ball in balls:
        together.setdefault((ball.column, ball.row, ball.in_goal), []).append(ball)
    for (column, row, in_goal), group in together.items():
        chip = chips.get((column, row)) if in_goal is None else None
        if in_goal is None:
            left, top, right, bottom = g.square_box(column, row)
            p.draw.rectangle((left, top, right - 1, bottom - 1), outline=p.ink(VERMILION), width=3)
        for index, ball in enumerate(group):
            shift = 0 if len(group) == 1 else (-9 if index == 0 else 9)
            centre = ball_position(ball, shift=shift, on_chip=chip is not None)
            p.sprite(ball_sprite(ball.facing, ball.owner, crisp=crisp), centre)
        if chip is not None:
            x, y = g.square_centre(column, row)
            badge = chip_badge(chip.kind, chip.facing or "N", crisp=crisp)
            p.sprite(badge, (x + CHIP_BADGE_OFFSET[0], y + CHIP_BADGE_OFFSET[1]))


def chips_by_square(chips: Iterable[ChipView]) -> dict[tuple[int, int], ChipView]:
    return {(chip.column, chip.row): chip for chip in chips}


def chips_not_under(chips: Iterable[ChipView], balls: Iterable[BallView]) -> list[ChipView]:
    """The chips drawn full size: those without a ball on them (draw_balls draws the others)."""
    under = {(ball.column, ball.row) for ball in balls if ball.in_goal is None}
    return [chip for chip in chips if (chip.column, chip.row) not in under]


# --- the panel: score, what happens next, the windbag ---------------------------------------------

PANEL_TEXT_W = g.PANEL_W - 2 * g.PANEL_PAD
SCORE_W = 54  # the score's column at the panel's right


def _box_size(box: tuple[int, int, int, int]) -> tuple[int, int]:
    return box[2] - box[0], box[3] - box[1]


def score_block(
    names: dict[str, str], score: dict[str, int], goal_scorer: dict[str, str]
) -> TextBlock:
    """Each player (North first): the name on up to two lines, the goal they score in ("scores
    ▲": at the top, "▼": at the bottom), and their score large on the right."""
    width = PANEL_TEXT_W - SCORE_W
    scores_in = {player: end for end, player in goal_scorer.items()}
    placed: list[TextLine] = []
    top = 10
    for player in ("N", "S"):
        lines = clip(wrap(names[player], width), 2, width)
        arrow = "▲" if scores_in.get(player) == "N" else "▼"
        for index, line in enumerate(lines):
            placed.append(TextLine(line, g.PANEL_PAD, top + index * g.LINE, TYPE, True))
        placed.append(
            TextLine(f"scores {arrow}", g.PANEL_PAD, top + len(lines) * g.LINE, TYPE, False)
        )
        placed.append(
            TextLine(str(score.get(player, 0)), g.PANEL_W - g.PANEL_PAD, top - 4, 40, True, "ra")
        )
        top += (len(lines) + 1) * g.LINE + 12
    return TextBlock(_box_size(g.SCORE_BOX), PAPER, INK, tuple(placed))


def draw_score(
    p: Painter, names: dict[str, str], score: dict[str, int], goal_scorer: dict[str, str]
) -> None:
    """The panel's top: both players, their scores and the goal each scores in."""
    p.block(score_block(names, score, goal_scorer), g.SCORE_BOX[:2])


def status_block(text: str) -> TextBlock:
    """What happens next (or, in an animation, what just happened), bold, up to four lines."""
    lines = clip(wrap(text, PANEL_TEXT_W), 4, PANEL_TEXT_W)
    return lines_block(lines, _box_size(g.STATUS_BOX), top=4)


def note_block(text: str | None) -> TextBlock:
    """The windbag (and the variant's notes, the roll in a round), up to five lines."""
    width = PANEL_TEXT_W
    lines = clip(wrap(text or "", width, bold=False), 5, width, bold=False)
    return lines_block(lines, _box_size(g.NOTE_BOX), bold=False, top=4)


def draw_status(p: Painter, text: str) -> None:
    p.block(status_block(text), g.STATUS_BOX[:2])


def draw_note(p: Painter, text: str | None) -> None:
    p.block(note_block(text), g.NOTE_BOX[:2])


def draw_panel(p: Painter, view: BoardView) -> None:
    """Score with both names, then what happens next, then the windbag (and variant notes)."""
    draw_score(p, view.names, view.score, view.goal_scorer)
    draw_status(p, view.status)
    draw_note(p, view.note)


# --- goal labels ----------------------------------------------------------------------------------


def scores_label(name: str, width: int) -> tuple[str, ImageFont.FreeTypeFont]:
    """'<name> scores' in the largest size that fits; a long name is cut, never the word."""
    text, label_font = _text_fitting(f"{name} scores", width, TYPE)
    if not text.endswith("…"):
        return text, label_font
    while len(name) > 1 and label_font.getlength(f"{name}… scores") > width:
        name = name[:-1]
    return f"{name}… scores", label_font


DEFENDS = "defends"


def goal_label(name: str, width: int) -> list[str]:
    """A goal's label: the name of the player who defends it on one line (its first words,
    with … where there is room for it: the panel has it whole) and, where there is room, the
    word "defends" under it. In the regular weight: at the phone's type size a bold name would
    cut "Computer" in a goal three squares wide."""
    wrapped = wrap(name, width, bold=False)
    first = wrapped[0] if wrapped else ""
    if len(wrapped) > 1 and len(name.split()) == 1:  # one word split between letters
        first = clip(wrapped, 1, width, bold=False)[0]
    elif len(wrapped) > 1 and _length(f"{first}…", TYPE, False) <= width:
        first += "…"
    lines = [first]
    if _length(DEFENDS, TYPE, False) <= width:
        lines.append(DEFENDS)
    return lines


def goal_label_block(lines: list[str], box: tuple[int, int, int, int]) -> TextBlock:
    """The label's lines centred in the goal."""
    left, top, right, bottom = box
    return centred_block(lines, (right - left, bottom - top), ground=GOAL_FILL, bold=False)


def goal_label_texts(view: BoardView) -> dict[str, list[str]]:
    """Each goal's label (goal_label), by end, where one is drawn: the goal is named for the
    player who defends it, the one who does not score there (docs/rules/rocketball.md "On
    Discord"), as the challenge names the sides ("North (Alice)")."""
    labels = {}
    for end in ("N", "S"):
        area = goal_label_area(end, view.balls)
        if area is None:
            continue
        scorer = view.goal_scorer[end]
        defender = next(player for player in ("N", "S") if player != scorer)
        labels[end] = goal_label(view.names[defender], area[2] - area[0] - 12)
    return labels


def goal_label_area(end: str, balls: Iterable[BallView]) -> tuple[int, int, int, int] | None:
    """Where a goal's label goes: the goal box inside its posts, less the third a ball lying
    there keeps (None: a ball in the middle, or two balls; the panel says it all)."""
    left, top, right, bottom = g.goal_box(end)
    taken = {ball.column for ball in balls if ball.in_goal == end}
    if g.GOAL_COLUMNS[1] in taken or len(taken) > 1:
        return None
    if g.GOAL_COLUMNS[0] in taken:
        left += g.CELL
    elif g.GOAL_COLUMNS[-1] in taken:
        right -= g.CELL
    # Inside the posts (4 px) and the back line.
    if end == "N":
        return left + 4, top + 4, right - 4, bottom - 2
    return left + 4, top + 2, right - 4, bottom - 4


def draw_goal_labels(p: Painter, view: BoardView) -> None:
    """Who defends each goal (goal_label_texts). A ball lying in the goal keeps its third of
    the box: the label moves to the other two thirds (or, for a ball in the middle, the panel
    says it all)."""
    for end, lines in goal_label_texts(view).items():
        area = goal_label_area(end, view.balls)
        assert area is not None  # goal_label_texts labels only the goals with room
        p.block(goal_label_block(lines, area), area[:2])


# --- whole boards ---------------------------------------------------------------------------------


def draw_board(
    p: Painter, view: BoardView, *, highlight: Iterable[tuple[int, int]] = (), crisp: bool
) -> None:
    """Everything that changes, on a copy of the static layer."""
    draw_highlights(p, highlight)
    draw_goal_labels(p, view)
    draw_chips(p, chips_not_under(view.chips, view.balls), crisp=crisp)
    draw_balls(p, view.balls, chips_by_square(view.chips), crisp=crisp)
    draw_panel(p, view)


def compose_board(
    view: BoardView, *, highlight: Iterable[tuple[int, int]] = (), crisp: bool = False
) -> Image.Image:
    """The board as an RGB image (before palette mapping); `crisp`: hard-edged sprites."""
    base = base_layer(view, crisp=crisp)
    draw_board(RGBPainter(base), view, highlight=highlight, crisp=crisp)
    return base


def paint_board(view: BoardView, *, highlight: Iterable[tuple[int, int]] = ()) -> Image.Image:
    """The board in the round palette (16 colours), hard-edged sprites: no quantising."""
    base = base_palette(view)
    draw_board(PalettePainter(base, round_colours()), view, highlight=highlight, crisp=True)
    return base


# zlib level 3 on 4 bits a pixel: 2.7 ms and 19 KB for a board; level 6 takes 7 ms for 13 KB
# (measured on this machine, bench/render_turn.py): the time matters more than 6 KB.
PNG_COMPRESS_LEVEL = 3


def board_png(view: BoardView, *, highlight: Iterable[tuple[int, int]] = ()) -> bytes:
    """PNG bytes of the board for `view` (16 colours, 4 bits a pixel)."""
    buffer = io.BytesIO()
    paint_board(view, highlight=highlight).save(
        buffer, format="PNG", compress_level=PNG_COMPRESS_LEVEL
    )
    return buffer.getvalue()
