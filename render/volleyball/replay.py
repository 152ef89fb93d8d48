"""A Volleyball match's replay frame (render/replay.py; rules/volleyball/record.py): the match's
scoreboard after a step, in the results image's ink on paper (render/volleyball/results.py).

    match_png(view) 480 px wide, grey scale: the teams and the sets won, then one row a set
                    played so far (its score, its rallies, who served first), the set just
                    played marked; nothing of the teams' totals, concepts
                    or chances (docs/rules/volleyball.md, "What the public sees")
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from render.common import font, to_png
from render.volleyball.results import (
    DETAIL_SIZE,
    GREY,
    INK,
    LIGHT_GREY,
    LINE,
    NAME_SIZE,
    SCORE_HALF,
    TEAM_WIDTH,
    TITLE_SIZE,
    WHITE_PAPER,
    wrapped,
)
from render.volleyball.standings import MARGIN, WIDTH, cut
from rules.volleyball.match import AWAY, HOME, SETS_TO_WIN, first_server
from rules.volleyball.record import MatchView, SetPlayed

MAX_SETS = 2 * SETS_TO_WIN - 1
ROW = 2 * LINE + 14  # a set's row: its score, then its rallies
MARK = 6  # the bar beside the set just played


def _set_detail(view: MatchView, played: SetPlayed) -> str:
    if played.forfeits:
        return "not played: " + " and ".join(view.name(s) for s in played.forfeits) + " forfeit"
    serving = view.name(first_server(played.number))
    return f"{len(played.rallies)} rallies, {serving} served first"


def match_image(view: MatchView) -> Image.Image:
    """The scoreboard of `view` (module docstring)."""
    label = wrapped(view.label, WIDTH - 2 * MARGIN, DETAIL_SIZE)
    head = 44 + len(label) * LINE + 52
    image = Image.new("L", (WIDTH, head + MAX_SETS * ROW + 12), WHITE_PAPER)
    draw = ImageDraw.Draw(image)
    draw.text((MARGIN, 10), "Volleyball replay", font=font(TITLE_SIZE, bold=True), fill=INK)
    for index, line in enumerate(label):
        draw.text((MARGIN, 44 + index * LINE), line, font=font(DETAIL_SIZE), fill=GREY)
    middle, row = WIDTH // 2, head - 26
    won = {side: view.sets_won(side) for side in (HOME, AWAY)}
    for side, x, anchor in ((HOME, middle - SCORE_HALF, "rm"), (AWAY, middle + SCORE_HALF, "lm")):
        bold = view.over and won[side] == SETS_TO_WIN
        name = cut(view.name(side), TEAM_WIDTH, NAME_SIZE, bold=bold)
        draw.text((x, row), name, font=font(NAME_SIZE, bold=bold), fill=INK, anchor=anchor)
    score = f"{won[HOME]}-{won[AWAY]}"
    draw.text((middle, row), score, font=font(NAME_SIZE + 2, bold=True), fill=INK, anchor="mm")
    y = head
    for number in range(1, MAX_SETS + 1):
        draw.line((MARGIN, y, WIDTH - MARGIN, y), fill=LIGHT_GREY, width=2)
        played = next((s for s in view.sets if s.number == number), None)
        if played is None:
            draw.text((MARGIN + 14, y + 10), f"Set {number}", font=font(DETAIL_SIZE), fill=GREY)
        else:
            if played is view.sets[-1]:
                draw.rectangle((MARGIN, y + 6, MARGIN + MARK, y + ROW - 6), fill=INK)
            text = f"Set {number}   {played.home_points}-{played.away_points}"
            draw.text((MARGIN + 14, y + 8), text, font=font(NAME_SIZE, bold=True), fill=INK)
            detail = cut(_set_detail(view, played), WIDTH - 2 * MARGIN - 14, DETAIL_SIZE)
            draw.text((MARGIN + 14, y + 8 + LINE + 4), detail, font=font(DETAIL_SIZE), fill=GREY)
        y += ROW
    return image


def match_png(view: MatchView) -> bytes:
    return to_png(match_image(view))
