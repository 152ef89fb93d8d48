"""The league table of one division as a PNG ("the standings as an image (played,
won, lost, sets for/against, points)").

Phone-first (render/textsize.py): 480 px wide, shown 298 px wide on a 390-px phone, so no type
is smaller than TYPE (18 px, 11.2 px on the screen); a team's name is cut to its column."""

from __future__ import annotations

from PIL import Image, ImageDraw

from render.common import GREEN, GREY, INK, LIGHT_GREY, PAPER, VERMILION, font, to_png
from render.textsize import smallest_font
from rules.volleyball.season import LeagueState

WIDTH = 480
TYPE = smallest_font(WIDTH)  # the smallest type: 18 px
BODY = TYPE + 2  # the table's rows
MARGIN = 12
TITLE_HEIGHT = 66
HEADER_HEIGHT = 34
ROW_HEIGHT = 34
LEGEND_LINE = TYPE + 6
LEGEND = ("P played · W won · L lost", "Sets won-lost · Pts points (2 a win)")
LEGEND_HEIGHT = 14 + len(LEGEND) * LEGEND_LINE + 40
ZONE_BAR = 8
NAME_X = MARGIN + ZONE_BAR + 36  # the team's name, after its place
STRIPE = (238, 235, 224)

# Column right edges (numbers are right-aligned) after the team name.
COLUMNS = (("P", 266), ("W", 302), ("L", 338), ("Sets", 414), ("Pts", WIDTH - MARGIN))
NAME_ROOM = COLUMNS[0][1] - 30 - NAME_X  # a name is cut to this many pixels


def cut(text: str, width: int, size: int, *, bold: bool = False) -> str:
    """`text` shortened with an ellipsis until it is at most `width` pixels wide."""
    face = font(size, bold=bold)
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…"


def zones(state: LeagueState, division: int, rows: int) -> tuple[int, int]:
    """How many rows at the top go up and at the bottom go down (docs/rules/volleyball.md ruling 38, Divisions)."""
    divisions = state.league.divisions
    places = state.league.promotion_places if len(divisions) > 1 else 0
    up = places if division > divisions[0] else 0
    down = places if division < divisions[-1] else 0
    return min(up, rows), min(down, rows)


def image_height(rows: int) -> int:
    return TITLE_HEIGHT + HEADER_HEIGHT + rows * ROW_HEIGHT + LEGEND_HEIGHT


def row_top(index: int) -> int:
    """The top pixel of table row `index` (0-based)."""
    return TITLE_HEIGHT + HEADER_HEIGHT + index * ROW_HEIGHT


def standings_png(state: LeagueState, division: int = 1) -> bytes:
    return to_png(standings_image(state, division))


def standings_image(state: LeagueState, division: int = 1) -> Image.Image:
    rows = state.table(division).standings()
    image = Image.new("RGB", (WIDTH, image_height(len(rows))), PAPER)
    draw = ImageDraw.Draw(image)
    played = state.league.round_number - 1
    several = len(state.league.divisions) > 1
    title = f"Volleyball, season {state.league.season}" + (
        f", division {division}" if several else ""
    )
    title_size = 24
    draw.text(
        (MARGIN, 10),
        cut(title, WIDTH - 2 * MARGIN, title_size, bold=True),
        font=font(title_size, bold=True),
        fill=INK,
    )
    draw.text(
        (MARGIN, 40),
        f"after round {played} of {state.total_rounds}" if played else "before round 1",
        font=font(TYPE),
        fill=GREY,
    )
    header_y = TITLE_HEIGHT + 6
    head = font(TYPE, bold=True)
    draw.text((MARGIN + ZONE_BAR + 6, header_y), "#", font=head, fill=INK)
    draw.text((NAME_X, header_y), "Team", font=head, fill=INK)
    for label, right in COLUMNS:
        draw.text((right, header_y), label, font=head, fill=INK, anchor="ra")
    draw.line(
        (
            MARGIN,
            TITLE_HEIGHT + HEADER_HEIGHT - 4,
            WIDTH - MARGIN,
            TITLE_HEIGHT + HEADER_HEIGHT - 4,
        ),
        fill=INK,
        width=3,
    )
    up, down = zones(state, division, len(rows))
    body = font(BODY)
    bold = font(BODY, bold=True)
    for index, row in enumerate(rows):
        top = row_top(index)
        if index % 2 == 1:
            draw.rectangle((MARGIN, top, WIDTH - MARGIN, top + ROW_HEIGHT - 1), fill=STRIPE)
        zone = GREEN if index < up else VERMILION if index >= len(rows) - down else None
        if zone is not None:
            draw.rectangle((MARGIN, top + 4, MARGIN + ZONE_BAR, top + ROW_HEIGHT - 5), fill=zone)
        y = top + ROW_HEIGHT // 2
        draw.text((MARGIN + ZONE_BAR + 6, y), str(index + 1), font=body, fill=INK, anchor="lm")
        name = cut(row.team, NAME_ROOM, BODY)
        draw.text((NAME_X, y), name, font=body, fill=INK, anchor="lm")
        values = (
            row.played,
            row.won,
            row.lost,
            f"{row.sets_for}-{row.sets_against}",
            row.points,
        )
        for (label, right), value in zip(COLUMNS, values, strict=True):
            draw.text(
                (right, y), str(value), font=bold if label == "Pts" else body, fill=INK, anchor="rm"
            )
    legend_top = row_top(len(rows)) + 14
    draw.line((MARGIN, legend_top - 8, WIDTH - MARGIN, legend_top - 8), fill=LIGHT_GREY, width=2)
    small = font(TYPE)
    for index, line in enumerate(LEGEND):
        draw.text((MARGIN, legend_top + index * LEGEND_LINE), line, font=small, fill=INK)
    if up or down:
        x = MARGIN
        y = legend_top + len(LEGEND) * LEGEND_LINE + 8
        for colour, text in ((GREEN, "promoted"), (VERMILION, "relegated")):
            draw.rectangle((x, y, x + 22, y + 22), fill=colour)
            draw.text((x + 30, y), text, font=small, fill=INK)
            x += 180
    return image
