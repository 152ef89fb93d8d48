"""The league table of one division as a PNG ("the standings as an image (played,
won, lost, sets for/against, points)")."""

from __future__ import annotations

from PIL import Image, ImageDraw

from render.common import GREEN, GREY, INK, LIGHT_GREY, PAPER, VERMILION, font, to_png
from rules.volleyball.season import LeagueState

WIDTH = 1000
MARGIN = 28
TITLE_HEIGHT = 96
HEADER_HEIGHT = 52
ROW_HEIGHT = 58
LEGEND_HEIGHT = 110
ZONE_BAR = 12
STRIPE = (238, 235, 224)

# Column right edges (numbers are right-aligned) after the team name.
COLUMNS = (("P", 640), ("W", 710), ("L", 780), ("Sets", 890), ("Pts", WIDTH - MARGIN))


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
    draw.text((MARGIN, 18), title, font=font(40, bold=True), fill=INK)
    draw.text(
        (MARGIN, 64),
        f"after round {played} of {state.total_rounds}" if played else "before round 1",
        font=font(24),
        fill=GREY,
    )
    header_y = TITLE_HEIGHT + 10
    head = font(26, bold=True)
    draw.text((MARGIN + ZONE_BAR + 8, header_y), "#", font=head, fill=INK)
    draw.text((MARGIN + ZONE_BAR + 70, header_y), "Team", font=head, fill=INK)
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
    body = font(30)
    bold = font(30, bold=True)
    for index, row in enumerate(rows):
        top = row_top(index)
        if index % 2 == 1:
            draw.rectangle((MARGIN, top, WIDTH - MARGIN, top + ROW_HEIGHT - 1), fill=STRIPE)
        zone = GREEN if index < up else VERMILION if index >= len(rows) - down else None
        if zone is not None:
            draw.rectangle((MARGIN, top + 4, MARGIN + ZONE_BAR, top + ROW_HEIGHT - 5), fill=zone)
        y = top + ROW_HEIGHT // 2
        draw.text((MARGIN + ZONE_BAR + 8, y), str(index + 1), font=body, fill=INK, anchor="lm")
        name = row.team if len(row.team) <= 26 else row.team[:25] + "…"
        draw.text((MARGIN + ZONE_BAR + 70, y), name, font=body, fill=INK, anchor="lm")
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
    small = font(22)
    draw.text(
        (MARGIN, legend_top),
        "P played  W won  L lost  Sets won-lost  Pts points (2 a win)",
        font=small,
        fill=INK,
    )
    if up or down:
        x = MARGIN
        y = legend_top + 44
        for colour, text in ((GREEN, "promoted"), (VERMILION, "relegated")):
            draw.rectangle((x, y, x + 26, y + 26), fill=colour)
            draw.text((x + 36, y), text, font=small, fill=INK)
            x += 220
    return image
