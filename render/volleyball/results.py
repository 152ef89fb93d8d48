"""A round's results in one division as a PNG, the table after it below them: what the public
round post shows instead of text (docs/rules/volleyball.md, "What the public sees": each
match's score by set and the players who played; nothing of totals, concepts or levels).

    results_png(state, division, round_number) 480 px wide (a phone's), grey scale (a quarter of the
                                               bytes to encode); per match the score in sets
                                               (winner bold), each set's score, and the
                                               players of each side who played
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from render.common import font, to_png
from render.volleyball.standings import MARGIN, TYPE, WIDTH, cut
from render.wrap import wrap_words
from rules.volleyball.models import FixtureResult
from rules.volleyball.season import LeagueState

# The results are ink on paper: drawn in grey scale ("L"), whose PNG encodes four times faster
# than RGB for these tall images (bench/volleyball_discord.py).
INK = 20
GREY = 110
LIGHT_GREY = 215
WHITE_PAPER = 248
TITLE_SIZE = 24
NAME_SIZE = TYPE + 2
DETAIL_SIZE = TYPE  # the smallest type: 11.2 px as a phone shows the image (render/textsize.py)
LINE = DETAIL_SIZE + 6  # a detail line's height
SCORE_HALF = 30  # half the sets score's room, in the middle
TEAM_WIDTH = WIDTH // 2 - SCORE_HALF - MARGIN - 44  # each team's name cut to fit (M12 before)
INDENT = 16  # the detail lines under a match
PLAYERS_WIDTH = WIDTH - 2 * MARGIN - INDENT
SUBTITLE = "Volleyball, season {season}: sets won, each set's score, who played"


def division_results(state: LeagueState, division: int, round_number: int) -> list[FixtureResult]:
    """The league matches of `round_number` in `division`, in match-number order."""
    members = set(state.team_names(division))
    return sorted(
        (
            r
            for r in state.league.results
            if r.fixture.round_number == round_number
            and r.fixture.competition == "league"
            and r.fixture.home in members
        ),
        key=lambda r: r.fixture.match_number,
    )


def wrapped(text: str, width: int, size: int) -> list[str]:
    """`text` broken at spaces into lines at most `width` pixels wide (render.wrap)."""
    face = font(size)
    return wrap_words(text, lambda line: face.getlength(line) <= width)


def _match_lines(result: FixtureResult) -> list[tuple[str, str]]:
    """The detail lines under a match's score: ("sets", text) and ("players", text)."""
    lines = [("sets", "Sets: " + "  ".join(f"{h}-{a}" for h, a in result.set_scores))]
    for team, players in (
        (result.fixture.home, result.home_players),
        (result.fixture.away, result.away_players),
    ):
        text = f"{team}: " + (", ".join(players) if players else "no players")
        lines += [("players", line) for line in wrapped(text, PLAYERS_WIDTH, DETAIL_SIZE)]
    return lines


def results_image(state: LeagueState, division: int, round_number: int) -> Image.Image:
    results = division_results(state, division, round_number)
    blocks = [(result, _match_lines(result)) for result in results]
    subtitle = wrapped(SUBTITLE.format(season=state.league.season), WIDTH - 2 * MARGIN, TYPE)
    title_height = 44 + len(subtitle) * LINE + 8
    height = title_height + sum(44 + LINE * len(lines) + 10 for _, lines in blocks) + 14
    image = Image.new("L", (WIDTH, max(height, title_height + 44)), WHITE_PAPER)
    draw = ImageDraw.Draw(image)
    several = len(state.league.divisions) > 1
    title = f"Round {round_number} results" + (f", division {division}" if several else "")
    draw.text((MARGIN, 10), title, font=font(TITLE_SIZE, bold=True), fill=INK)
    for index, line in enumerate(subtitle):
        draw.text((MARGIN, 44 + index * LINE), line, font=font(DETAIL_SIZE), fill=GREY)
    y = title_height
    if not blocks:
        draw.text((MARGIN, y + 10), "No league matches this round.", font=font(TYPE), fill=INK)
    for result, lines in blocks:
        draw.line((MARGIN, y, WIDTH - MARGIN, y), fill=LIGHT_GREY, width=2)
        home_won = result.home_sets > result.away_sets
        middle = WIDTH // 2
        row = y + 22
        draw.text(
            (middle - SCORE_HALF, row),
            cut(result.fixture.home, TEAM_WIDTH, NAME_SIZE, bold=home_won),
            font=font(NAME_SIZE, bold=home_won),
            fill=INK,
            anchor="rm",
        )
        draw.text(
            (middle, row),
            f"{result.home_sets}-{result.away_sets}",
            font=font(NAME_SIZE + 2, bold=True),
            fill=INK,
            anchor="mm",
        )
        draw.text(
            (middle + SCORE_HALF, row),
            cut(result.fixture.away, TEAM_WIDTH, NAME_SIZE, bold=not home_won),
            font=font(NAME_SIZE, bold=not home_won),
            fill=INK,
            anchor="lm",
        )
        draw.text(
            (MARGIN, row),
            f"M{result.fixture.match_number}",
            font=font(DETAIL_SIZE),
            fill=GREY,
            anchor="lm",
        )
        line_y = y + 44
        for kind, text in lines:
            colour = INK if kind == "sets" else GREY
            draw.text((MARGIN + INDENT, line_y), text, font=font(DETAIL_SIZE), fill=colour)
            line_y += LINE
        y = line_y + 10
    return image


def results_png(state: LeagueState, division: int, round_number: int) -> bytes:
    return to_png(results_image(state, division, round_number))
