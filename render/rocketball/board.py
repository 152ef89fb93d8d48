"""The Rocketball board image: field, coordinates, goals, edge arrows, chips, ball(s), score.

Drawn in layers for speed: the static field (grid, coordinates, edge arrows, goals) is drawn
once and cached, the legend once per match setup (chip kinds, Assault names); each render copies
them and adds the highlights, goal labels, chips, balls and header text. The result is mapped
onto one fixed 256-colour palette (exact Okabe-Ito colours first) and saved as a palette PNG:
small and quick to encode. The animation (animation.py) reuses these pieces frame by frame.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from functools import cache, lru_cache

from PIL import Image, ImageDraw, ImageFont

from render.common import GREY, INK, LIGHT_GREY, PAPER, VERMILION, font
from render.rocketball import geometry as g
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

CHECKER = (238, 236, 226)  # every other square, faintly, so rows and columns are easy to follow
HIGHLIGHT = (255, 222, 120)  # squares of the last move
GOAL_FILL = (226, 240, 250)
NOTE_GREY = (70, 70, 76)  # darker than GREY: small text needs the contrast
FIELD_BORDER = 3


def _text_fitting(
    text: str, width: int, size: int, *, bold: bool = True, smallest: int = 11
) -> tuple[str, ImageFont.FreeTypeFont]:
    """The largest font (from `size` down) in which `text` fits `width`; clipped with … if none."""
    for candidate in range(size, smallest - 1, -1):
        if font(candidate, bold=bold).getlength(text) <= width:
            return text, font(candidate, bold=bold)
    small = font(smallest, bold=bold)
    while len(text) > 1 and small.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…", small


def _paste(base: Image.Image, sprite: Image.Image, centre: tuple[int, int]) -> None:
    left = centre[0] - sprite.width // 2
    top = centre[1] - sprite.height // 2
    base.paste(sprite, (left, top), sprite)


def _draw_centre_mark(draw: ImageDraw.ImageDraw) -> None:
    """The centre square can never hold a chip (RULINGS): a ring marks it, wider than the ball."""
    cx, cy = g.square_centre(*g.CENTRE)
    draw.ellipse((cx - 21, cy - 21, cx + 21, cy + 21), outline=GREY, width=3)
    draw.line((cx - 5, cy, cx + 5, cy), fill=GREY, width=2)
    draw.line((cx, cy - 5, cx, cy + 5), fill=GREY, width=2)


def _draw_field(draw: ImageDraw.ImageDraw) -> None:
    for column in range(g.COLUMNS):
        for row in range(g.ROWS):
            left, top, right, bottom = g.square_box(column, row)
            fill = CHECKER if (column + row) % 2 else PAPER
            draw.rectangle((left, top, right - 1, bottom - 1), fill=fill, outline=LIGHT_GREY)
    _draw_centre_mark(draw)
    draw.rectangle(
        (
            g.FIELD_X - FIELD_BORDER + 1,
            g.FIELD_Y - FIELD_BORDER + 1,
            g.FIELD_X + g.FIELD_W + FIELD_BORDER - 2,
            g.FIELD_Y + g.FIELD_H + FIELD_BORDER - 2,
        ),
        outline=INK,
        width=FIELD_BORDER,
    )
    # Open the border across both goal mouths: the ball passes through there.
    mouth_left = g.FIELD_X + g.GOAL_COLUMNS[0] * g.CELL + 2
    mouth_right = g.FIELD_X + (g.GOAL_COLUMNS[-1] + 1) * g.CELL - 3
    for y in (g.FIELD_Y - FIELD_BORDER + 1, g.FIELD_Y + g.FIELD_H):
        draw.rectangle((mouth_left, y, mouth_right, y + FIELD_BORDER - 2), fill=GOAL_FILL)


def _draw_goals(draw: ImageDraw.ImageDraw) -> None:
    """Each goal: a pale blue box behind the posts, its label drawn on it (draw_goal_labels).
    Plain, without net lines: those ran through the label's letters and cost about 0.45 KB of
    every round GIF (issue 10)."""
    for end in ("N", "S"):
        left, top, right, bottom = g.goal_box(end)
        draw.rectangle((left, top, right - 1, bottom - 1), fill=GOAL_FILL)
        # Posts and back; the side facing the field stays open (the goal mouth).
        back = top if end == "N" else bottom - 1
        draw.line((left, back, right - 1, back), fill=INK, width=4)
        draw.line((left, top, left, bottom - 1), fill=INK, width=4)
        draw.line((right - 1, top, right - 1, bottom - 1), fill=INK, width=4)
        mouth = bottom - 1 if end == "N" else top
        draw.line((left, mouth, right - 1, mouth), fill=PAPER, width=3)


def _draw_coordinates(draw: ImageDraw.ImageDraw) -> None:
    label_font = font(20, bold=True)
    for column in range(g.COLUMNS):
        x, _ = g.square_centre(column, 0)
        letter = g.COLUMN_LETTERS[column]
        top_y = g.HEADER_H + g.LETTERS_H // 2
        bottom_y = g.SOUTH_GOAL_Y + g.GOAL_H + g.LETTERS_H // 2
        for y in (top_y, bottom_y):
            draw.text((x, y), letter, font=label_font, fill=INK, anchor="mm")
    for row in range(g.ROWS):
        _, y = g.square_centre(0, row)
        for x in (g.LABEL_W // 2 + 2, g.WIDTH - g.LABEL_W // 2 - 2):
            draw.text((x, y), str(row + 1), font=label_font, fill=INK, anchor="mm")


def _draw_edge_arrows(
    base: Image.Image, edge_arrows: Iterable[tuple[int, int, str, str]], *, crisp: bool
) -> None:
    for column, row, edge, facing in edge_arrows:
        sprite = edge_arrow_sprite(facing, crisp=crisp)
        _paste(base, sprite, g.edge_arrow_centre(column, row, edge))


def _legend_items(
    chip_kinds: tuple[str, ...], ball_labels: tuple[tuple[str | None, str], ...], *, crisp: bool
):
    items = []
    for kind in chip_kinds:
        icon = chip_sprite(kind).resize((24, 24), Image.Resampling.LANCZOS)
        items.append((harden(icon, chip_colours(kind)) if crisp else icon, kind))
    items.extend((ball_sprite("N", owner, crisp=crisp), label) for owner, label in ball_labels)
    items.append((edge_arrow_sprite("N", crisp=crisp), "edge arrow"))
    return items


@lru_cache(maxsize=64)  # one per match setup and pair of names in play; about 150 KB each
def legend_strip(
    chip_kinds: tuple[str, ...],
    ball_labels: tuple[tuple[str | None, str], ...],
    *,
    crisp: bool = False,
) -> Image.Image:
    """The legend under the field: icons with names, flowed left to right over up to 3 lines.
    `crisp`: hard-edged icons (see sprites.py)."""
    strip = Image.new("RGB", (g.WIDTH, g.LEGEND_H), PAPER)
    draw = ImageDraw.Draw(strip)
    top = 4
    draw.line((12, top - 2, g.WIDTH - 12, top - 2), fill=LIGHT_GREY, width=2)
    label_font = font(15, bold=True)
    x, line = 10, 0
    for icon, label in _legend_items(chip_kinds, ball_labels, crisp=crisp):
        width = 30 + int(label_font.getlength(label)) + 14
        if x + width > g.WIDTH - 6:
            x, line = 10, line + 1
        if line > 2:
            break  # never happens with the chip kinds that exist; better clipped than overlapping
        y = top + 18 + line * 31
        _paste(strip, icon, (x + 12, y))
        draw.text((x + 30, y), label, font=label_font, fill=INK, anchor="lm")
        x += width
    return strip


def ball_labels(view: BoardView) -> tuple[tuple[str | None, str], ...]:
    """Legend entries for the ball(s): in Assault each ball is named after its owner."""
    if not view.assault:
        return ((None, "rocketball"),)
    return tuple((player, f"{view.names[player]}'s ball") for player in ("N", "S"))


@cache
def static_layer(
    edge_arrows: tuple[tuple[int, int, str, str], ...], *, crisp: bool = False
) -> Image.Image:
    """The unchanging field, labels, goals and edge arrows: drawn once, then copied.
    `crisp`: hard-edged arrows (see sprites.py)."""
    base = Image.new("RGB", (g.WIDTH, g.HEIGHT), PAPER)
    draw = ImageDraw.Draw(base)
    _draw_field(draw)
    _draw_goals(draw)
    _draw_coordinates(draw)
    _draw_edge_arrows(base, edge_arrows, crisp=crisp)
    return base


def base_layer(view: BoardView, *, crisp: bool = False) -> Image.Image:
    """A fresh copy of the static field with this match's legend: the canvas for one image."""
    base = static_layer(view.edge_arrows, crisp=crisp).copy()
    legend = legend_strip(view.chip_kinds, ball_labels(view), crisp=crisp)
    base.paste(legend, (0, g.LEGEND_Y))
    return base


# Colours that must come out exactly (flat areas the tests sample and players rely on).
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


@cache
def _palette_image() -> Image.Image:
    """One fixed palette for every board and animation frame: exact colours + anti-alias shades.

    The shades come from quantising a swatch holding every sprite on every background, so
    smoothed edges and text map to near colours and no frame needs its own palette.
    """
    kinds = tuple(CHIP_COLOURS)
    swatch = static_layer(()).copy()
    swatch.paste(legend_strip(kinds, ((None, "ball"), ("N", "N"), ("S", "S"))), (0, g.LEGEND_Y))
    draw = ImageDraw.Draw(swatch)
    draw.text((10, 10), "North 2 – 1 South · windbag 54", font=font(26, bold=True), fill=INK)
    x = 10
    for background in (PAPER, CHECKER, HIGHLIGHT, GOAL_FILL):
        for kind in kinds:
            draw.rectangle((x, 40, x + g.CELL, 40 + g.CELL), fill=background)
            _paste(swatch, chip_sprite(kind), (x + g.CELL // 2, 40 + g.CELL // 2))
            _paste(swatch, ball_sprite("E", "S"), (x + g.CELL // 2, 40 + g.CELL // 2))
            x = (x + g.CELL) % (g.WIDTH - g.CELL)
    exact = list(dict.fromkeys(EXACT_COLOURS))
    shades = swatch.quantize(256 - len(exact), method=Image.Quantize.MEDIANCUT)
    flat = shades.getpalette()[: 3 * (256 - len(exact))]
    palette = [channel for colour in exact for channel in colour] + flat
    palette += [0] * (768 - len(palette))
    image = Image.new("P", (1, 1))
    image.putpalette(palette)
    return image


def to_palette(image: Image.Image) -> Image.Image:
    """Map an RGB board onto the fixed palette (no dithering: flat colours stay flat)."""
    return image.quantize(palette=_palette_image(), dither=Image.Dither.NONE)


def clear_square(draw: ImageDraw.ImageDraw, column: int, row: int, *, highlighted: bool) -> None:
    """Repaint one square's background (plain, or tinted as part of the last move)."""
    left, top, right, bottom = g.square_box(column, row)
    if highlighted:
        fill = HIGHLIGHT
    else:
        fill = CHECKER if (column + row) % 2 else PAPER
    draw.rectangle((left + 1, top + 1, right - 2, bottom - 2), fill=fill)
    if (column, row) == g.CENTRE:
        _draw_centre_mark(draw)


def draw_highlights(base: Image.Image, squares: Iterable[tuple[int, int]]) -> None:
    draw = ImageDraw.Draw(base)
    for column, row in squares:
        clear_square(draw, column, row, highlighted=True)


def draw_chips(base: Image.Image, chips: Iterable[ChipView], *, crisp: bool = False) -> None:
    for chip in chips:
        sprite = chip_sprite(chip.kind, chip.facing or "N", crisp=crisp)
        _paste(base, sprite, g.square_centre(chip.column, chip.row))


# Issue 10: a ball on a chip hid it. On such a square the chip is drawn smaller in the
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
    base: Image.Image,
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
    draw = ImageDraw.Draw(base)
    chips = chips or {}
    together: dict[tuple[int, int, str | None], list[BallView]] = {}
    for ball in balls:
        together.setdefault((ball.column, ball.row, ball.in_goal), []).append(ball)
    for (column, row, in_goal), group in together.items():
        chip = chips.get((column, row)) if in_goal is None else None
        if in_goal is None:
            left, top, right, bottom = g.square_box(column, row)
            draw.rectangle((left, top, right - 1, bottom - 1), outline=VERMILION, width=3)
        for index, ball in enumerate(group):
            shift = 0 if len(group) == 1 else (-9 if index == 0 else 9)
            centre = ball_position(ball, shift=shift, on_chip=chip is not None)
            _paste(base, ball_sprite(ball.facing, ball.owner, crisp=crisp), centre)
        if chip is not None:
            x, y = g.square_centre(column, row)
            badge = chip_badge(chip.kind, chip.facing or "N", crisp=crisp)
            _paste(base, badge, (x + CHIP_BADGE_OFFSET[0], y + CHIP_BADGE_OFFSET[1]))


def chips_by_square(chips: Iterable[ChipView]) -> dict[tuple[int, int], ChipView]:
    return {(chip.column, chip.row): chip for chip in chips}


def chips_not_under(chips: Iterable[ChipView], balls: Iterable[BallView]) -> list[ChipView]:
    """The chips drawn full size: those without a ball on them (draw_balls draws the others)."""
    under = {(ball.column, ball.row) for ball in balls if ball.in_goal is None}
    return [chip for chip in chips if (chip.column, chip.row) not in under]


STATUS_BOX = (0, 38, g.WIDTH, 68)  # the header's second line, redrawn on every animation frame
SCORE_BOX = (0, 0, g.WIDTH, 38)


def draw_score_line(base: Image.Image, names: dict[str, str], score: dict[str, int]) -> None:
    """First header line: North's name, the score, South's name."""
    draw = ImageDraw.Draw(base)
    draw.rectangle(SCORE_BOX, fill=PAPER)
    text = f"{score.get('N', 0)} – {score.get('S', 0)}"
    centre = g.WIDTH // 2
    score_font = font(30, bold=True)
    half = score_font.getlength(text) / 2
    room = int(centre - half - 24)
    name, name_font = _text_fitting(names["N"], room, 24)
    draw.text((centre - half - 12, 22), name, font=name_font, fill=INK, anchor="rm")
    name, name_font = _text_fitting(names["S"], room, 24)
    draw.text((centre + half + 12, 22), name, font=name_font, fill=INK, anchor="lm")
    draw.text((centre, 22), text, font=score_font, fill=INK, anchor="mm")


def draw_status_line(base: Image.Image, text: str) -> None:
    """Second header line: what happens next (or, in an animation, what just happened)."""
    draw = ImageDraw.Draw(base)
    draw.rectangle(STATUS_BOX, fill=PAPER)
    status, status_font = _text_fitting(text, g.WIDTH - 16, 20)
    draw.text((g.WIDTH // 2, 54), status, font=status_font, fill=INK, anchor="mm")


CAPTION_BOX = (0, 38, g.WIDTH, g.HEADER_H)  # header lines 2-3, used together by animations


def _wrap(text: str, width: int, size: int) -> list[str]:
    """Split `text` into lines that fit `width` in the bold font of `size`."""
    lines: list[str] = []
    for word in text.split():
        if lines and font(size, bold=True).getlength(f"{lines[-1]} {word}") <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


def draw_caption(base: Image.Image, text: str) -> None:
    """An animation frame's words under the score: one line, or two smaller ones if long."""
    draw = ImageDraw.Draw(base)
    draw.rectangle(CAPTION_BOX, fill=PAPER)
    width = g.WIDTH - 16
    if font(20, bold=True).getlength(text) <= width:
        draw.text((g.WIDTH // 2, 58), text, font=font(20, bold=True), fill=INK, anchor="mm")
        return
    lines = _wrap(text, width, 17)
    if len(lines) > 2:
        lines = [lines[0], " ".join(lines[1:])]
    for index, line in enumerate(lines):
        shown, line_font = _text_fitting(line, width, 17)
        draw.text((g.WIDTH // 2, 48 + index * 22), shown, font=line_font, fill=INK, anchor="mm")


def draw_header(base: Image.Image, view: BoardView) -> None:
    """Score with both names, then what happens next, then the windbag (and variant notes)."""
    draw_score_line(base, view.names, view.score)
    draw_status_line(base, view.status)
    if view.note:
        note, note_font = _text_fitting(view.note, g.WIDTH - 16, 16)
        ImageDraw.Draw(base).text(
            (g.WIDTH // 2, 79), note, font=note_font, fill=NOTE_GREY, anchor="mm"
        )


def scores_label(name: str, width: int) -> tuple[str, ImageFont.FreeTypeFont]:
    """'<name> scores' in the largest size that fits; a long name is cut, never the word."""
    smallest = 12
    text, label_font = _text_fitting(f"{name} scores", width, 17, smallest=smallest)
    if not text.endswith("…"):
        return text, label_font
    while len(name) > 1 and label_font.getlength(f"{name}… scores") > width:
        name = name[:-1]
    return f"{name}… scores", label_font


GOAL_LABEL_ONE_LINE_MIN = 15  # below this size the label goes on two lines instead


def goal_label_lines(name: str, width: int) -> tuple[list[str], ImageFont.FreeTypeFont]:
    """'<name> scores' for a goal box `width` wide: one line when it fits at a readable size,
    else the name on one line and 'scores' under it (issue 10: "Computer (… scores" was cut).
    A name too long even for its own line is cut with …"""
    text, label_font = _text_fitting(f"{name} scores", width, 17, smallest=GOAL_LABEL_ONE_LINE_MIN)
    if not text.endswith("…"):
        return [text], label_font
    shown, label_font = _text_fitting(name, width, 16, smallest=12)
    return [shown, "scores"], label_font


def draw_goal_labels(base: Image.Image, view: BoardView) -> None:
    """'<player> scores' in each goal. A ball lying in the goal keeps its third of the box: the
    label moves to the other two thirds (or, for a ball in the middle, the header says it all)."""
    draw = ImageDraw.Draw(base)
    for end in ("N", "S"):
        left, top, right, bottom = g.goal_box(end)
        taken = {ball.column for ball in view.balls if ball.in_goal == end}
        if g.GOAL_COLUMNS[1] in taken or len(taken) > 1:
            continue
        if g.GOAL_COLUMNS[0] in taken:
            left += g.CELL
        elif g.GOAL_COLUMNS[-1] in taken:
            right -= g.CELL
        lines, label_font = goal_label_lines(view.names[view.goal_scorer[end]], right - left - 12)
        middle = (top + bottom) // 2
        step = 16
        first = middle - step * (len(lines) - 1) // 2
        for index, line in enumerate(lines):
            draw.text(
                ((left + right) // 2, first + index * step),
                line,
                font=label_font,
                fill=INK,
                anchor="mm",
            )


def compose_board(
    view: BoardView, *, highlight: Iterable[tuple[int, int]] = (), crisp: bool = False
) -> Image.Image:
    """The board as an RGB image (before palette mapping); `crisp`: hard-edged sprites."""
    base = base_layer(view, crisp=crisp)
    draw_highlights(base, highlight)
    draw_goal_labels(base, view)
    draw_chips(base, chips_not_under(view.chips, view.balls), crisp=crisp)
    draw_balls(base, view.balls, chips_by_square(view.chips), crisp=crisp)
    draw_header(base, view)
    return base


# zlib level 3 instead of the default 6: on a busy board about 2 ms instead of 5 for 36 KB
# instead of 30 KB (bench/rocketball_render.py); the time matters more than 6 KB here.
PNG_COMPRESS_LEVEL = 3


def board_png(view: BoardView, *, highlight: Iterable[tuple[int, int]] = ()) -> bytes:
    """PNG bytes of the board for `view`."""
    buffer = io.BytesIO()
    image = to_palette(compose_board(view, highlight=highlight))
    image.save(buffer, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
    return buffer.getvalue()
