"""A tournament's pictures for its card (docs/rules/tournaments.md "On Discord"), drawn for a
phone (render/textsize.py: the smallest text shows at least 11 px in a card's gallery): a
knockout's bracket, one image a part (the winners' bracket, the losers' bracket, the grand
final), and the standings of a Swiss, a round robin or tables. One idea an image, dark ink on
light paper, a legend under each.

The inputs are rules.tournament's: the bracket's places (`resolve`) and the standings, with the
players' names to show (user text, drawn as text).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from render.common import INK, PAPER, draw_text, font, text_length, to_png
from render.textsize import smallest_font
from render.wrap import wrap_words
from rules.tournament import NOBODY, Place, Standing

WIDTH = 640  # px: the file's width; every size below follows from it
TEXT = smallest_font(WIDTH)  # the smallest text: 11 px on the phone
TITLE = TEXT + 6
MARGIN = 16
OUT = (78, 78, 78)  # a player who is out: grey that still reads (7.4:1 on the paper)
WON = (0, 110, 80)  # the tick of the player who went through (5.9:1 on the paper)
RULE = (150, 150, 150)
BOX = (255, 255, 255)
SHADE = (236, 233, 222)
TO_COME = "to come"
BYE = "bye"
PART_TITLES = {"winners": "Winners' bracket", "losers": "Losers' bracket", "final": "Grand final"}
STANDINGS_ROWS = 20  # the rest: "and N more"


@dataclass(frozen=True)
class Column:
    title: str
    places: tuple[Place, ...]


def _fit(text: str, face: ImageFont.FreeTypeFont, width: float) -> str:
    """`text` cut with an ellipsis to `width` px."""
    if text_length(face, text) <= width:
        return text
    while text and text_length(face, text + "…") > width:
        text = text[:-1]
    return text + "…"


def _round_title(part: str, number: int, rounds: int) -> str:
    if part == "final":
        return "Final" if number == 1 else "Reset"
    if part == "winners":
        left = rounds - number
        if left == 0:
            return "Final"
        if left == 1:
            return "Semi-finals"
        if left == 2:
            return "Quarter-finals"
    return f"Round {number}"


def bracket_columns(places: Sequence[Place]) -> dict[str, list[Column]]:
    """The needed matches by part (a grand final with its reset is one part), then round."""
    parts: dict[str, dict[int, list[Place]]] = {}
    for place in places:
        if not place.needed:
            continue
        part = "final" if place.match.part in ("final", "reset") else place.match.part
        number = 2 if place.match.part == "reset" else place.match.round
        parts.setdefault(part, {}).setdefault(number, []).append(place)
    columns: dict[str, list[Column]] = {}
    for part, rounds in parts.items():
        last = max(rounds)
        columns[part] = [
            Column(_round_title(part, number, last), tuple(rounds[number]))
            for number in sorted(rounds)
        ]
    return columns


def render_bracket(
    title: str, places: Sequence[Place], seeds: Sequence[str], names: Mapping[str, str]
) -> list[bytes]:
    """The bracket, one image a part: each match a box of its two players (seed, name), the
    one who went through ticked and in bold, the other in grey; a player not known yet reads
    "to come"; lines join a match to the matches its players come from."""
    seed_of = {player: number for number, player in enumerate(seeds, start=1)}
    images = []
    columns_by_part = bracket_columns(places)
    for part in ("winners", "losers", "final"):
        if part in columns_by_part:
            heading = title if len(columns_by_part) == 1 else f"{title}: {PART_TITLES[part]}"
            images.append(_bracket_part(heading, columns_by_part[part], seed_of, names))
    return [to_png(image) for image in images]


def _bracket_part(
    title: str, columns: list[Column], seed_of: Mapping[str, int], names: Mapping[str, str]
) -> Image.Image:
    regular, bold, small = font(TEXT), font(TEXT, bold=True), font(TEXT)
    line = round(TEXT * 1.35)
    box_height = 2 * line + 8
    gap = 14
    column_gap = 18
    rows = max(len(column.places) for column in columns)
    column_width = (WIDTH - 2 * MARGIN - column_gap * (len(columns) - 1)) // len(columns)
    top = MARGIN + round(TITLE * 1.4) + line + 6
    body = rows * (box_height + gap)
    legend = [
        "✓ bold: went through · grey: out",
        "Number: seed by rating",
    ]
    height = top + body + len(legend) * line + MARGIN
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    draw_text(
        draw,
        (MARGIN, MARGIN),
        _fit(title, font(TITLE, bold=True), WIDTH - 2 * MARGIN),
        fill=INK,
        font=font(TITLE, bold=True),
    )
    centres: dict[int, tuple[int, int]] = {}  # match number -> (right edge, middle)
    for index, column in enumerate(columns):
        left = MARGIN + index * (column_width + column_gap)
        draw_text(
            draw,
            (left, top - line - 4),
            _fit(column.title, bold, column_width),
            fill=INK,
            font=bold,
        )
        share = body / len(column.places)
        for row, place in enumerate(column.places):
            middle = round(top + share * (row + 0.5))
            box_top = middle - box_height // 2
            draw.rectangle(
                (left, box_top, left + column_width, box_top + box_height),
                fill=BOX,
                outline=INK,
                width=2,
            )
            draw.line((left + 2, middle, left + column_width - 2, middle), fill=RULE, width=1)
            for slot, player in enumerate(place.players):
                y = box_top + 4 + slot * line + (line - TEXT) // 2
                went = bool(player) and place.winner == player
                out = bool(player) and place.winner is not None and not went
                face = bold if went else regular
                if player is None:
                    label, colour = TO_COME, OUT
                elif player == NOBODY:
                    label, colour = BYE, OUT
                else:
                    label = f"{seed_of.get(player, '')} {names.get(player, player)}".strip()
                    colour = OUT if out else INK
                mark = "✓ " if went else ""
                room = column_width - 12 - (text_length(face, mark) if mark else 0)
                x = left + 6
                if mark:
                    draw_text(draw, (x, y), mark, fill=WON, font=bold)
                    x += round(text_length(bold, mark))
                draw_text(draw, (x, y), _fit(label, face, room), fill=colour, font=face)
            for source in place.match.slots:
                if source.source == "winner" and source.number in centres:
                    right, from_middle = centres[source.number]
                    elbow = right + column_gap // 2
                    draw.line(
                        [
                            (right, from_middle),
                            (elbow, from_middle),
                            (elbow, middle),
                            (left, middle),
                        ],
                        fill=INK,
                        width=2,
                    )
            centres[place.match.number] = (left + column_width, middle)
    y = top + body
    for text in legend:
        draw_text(draw, (MARGIN, y), text, fill=INK, font=small)
        y += line
    return image


def render_standings(
    title: str,
    order: Sequence[Standing],
    names: Mapping[str, str],
    *,
    tie_breaks: str,
    players: int | None = None,
) -> bytes:
    """The standings as a table: place, name, points, Buchholz and Sonneborn-Berger; a player
    who withdrew in grey, marked "out"; the legend names the columns and the tie-breaks.
    `order` may be the first places only (`STANDINGS_ROWS` of them are drawn); `players`: how
    many there are in all (`len(order)` if not given), for the "and N more"."""
    regular, bold = font(TEXT), font(TEXT, bold=True)
    line = round(TEXT * 1.6)
    shown = list(order[:STANDINGS_ROWS])
    more = (len(order) if players is None else players) - len(shown)
    number_width = round(text_length(bold, "00."))
    figure_width = round(text_length(bold, "00.5")) + 10
    figures = ("Pts", "Bh", "SB")
    name_left = MARGIN + number_width + 8
    name_width = WIDTH - MARGIN - name_left - len(figures) * figure_width
    legend = [
        wrapped
        for text in (
            "Pts: points · Bh: Buchholz · SB: Sonneborn-Berger",
            f"Ties: {tie_breaks}.",
            "Grey: withdrew.",
        )
        for wrapped in wrap_words(
            text, lambda candidate: text_length(regular, candidate) <= WIDTH - 2 * MARGIN
        )
    ]
    top = MARGIN + round(TITLE * 1.4)
    height = top + line * (len(shown) + 1 + (1 if more else 0)) + 8 + len(legend) * line + MARGIN
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    title_face = font(TITLE, bold=True)
    draw_text(
        draw,
        (MARGIN, MARGIN),
        _fit(title, title_face, WIDTH - 2 * MARGIN),
        fill=INK,
        font=title_face,
    )

    def right_aligned(text: str, column: int, y: int, face: ImageFont.FreeTypeFont, colour) -> None:
        right = WIDTH - MARGIN - (len(figures) - 1 - column) * figure_width
        draw_text(draw, (right - text_length(face, text), y), text, fill=colour, font=face)

    offset = (line - TEXT) // 2
    draw_text(draw, (name_left, top + offset), "Player", fill=INK, font=bold)
    for column, heading in enumerate(figures):
        right_aligned(heading, column, top + offset, bold, INK)
    draw.line((MARGIN, top + line - 2, WIDTH - MARGIN, top + line - 2), fill=INK, width=2)
    y = top + line
    for index, standing in enumerate(shown):
        if index % 2:
            draw.rectangle((MARGIN, y, WIDTH - MARGIN, y + line - 1), fill=SHADE)
        out = standing.entrant.withdrawn_from is not None
        colour = OUT if out else INK
        draw_text(draw, (MARGIN, y + offset), f"{standing.rank}.", fill=colour, font=regular)
        name = names.get(standing.entrant.id, standing.entrant.id) + (" (out)" if out else "")
        draw_text(
            draw,
            (name_left, y + offset),
            _fit(name, regular, name_width - 8),
            fill=colour,
            font=regular,
        )
        values = (standing.score, standing.buchholz, standing.sonneborn_berger)
        for column, value in enumerate(values):
            face = bold if column == 0 else regular
            right_aligned(f"{value:g}", column, y + offset, face, colour)
        y += line
    if more:
        draw_text(draw, (name_left, y + offset), f"…and {more} more", fill=INK, font=regular)
        y += line
    draw.line((MARGIN, y + 2, WIDTH - MARGIN, y + 2), fill=INK, width=2)
    y += 8
    for text in legend:
        draw_text(
            draw,
            (MARGIN, y + offset),
            _fit(text, regular, WIDTH - 2 * MARGIN),
            fill=INK,
            font=regular,
        )
        y += line
    return to_png(image)
