"""The Galaxy Cup bracket as PNG pages ("the cup bracket when it changes"), laid out for a phone.

Phone-first (render/textsize.py): each page is WIDTH = 480 px wide and portrait, no type smaller
than TYPE (18 px, 11.2 px as a 390-px phone shows it). A match is a box of two lines, home then
away, the winner bold with a green mark and the sets score. The rounds are stacked, not side by
side: at most three, starting with the round being played (or the last three once it is among
them, so a won cup shows its semi-finals and final); earlier rounds are in the text answer of
/volleyball cup. While the round being played has more than eight matches (a big league's first
cup rounds), the pages are that round's draw instead, MATCHES_A_PAGE matches a page (one page a
half of a 32-match round), so no page is taller than a phone shows in two screens."""

from __future__ import annotations

from PIL import Image, ImageDraw

from render.common import GREEN, GREY, INK, LIGHT_GREY, PAPER, font, to_png
from render.textsize import smallest_font
from render.volleyball.standings import cut
from rules.volleyball.reports import BracketMatch, cup_bracket
from rules.volleyball.season import LeagueState

WIDTH = 480
TYPE = smallest_font(WIDTH)  # the smallest type: 18 px
NAME = TYPE + 2  # a team's name
MARGIN = 12
TITLE_HEIGHT = 74  # the title and the status line under it
HEADING_HEIGHT = 34  # a round's name above its matches
LINE_HEIGHT = 30  # a team's line in a match box
MATCH_GAP = 8
LEGEND_LINE = TYPE + 6
LEGEND = ("Winner: bold, green mark, sets score.", "The first team named plays at home.")
LEGEND_HEIGHT = 12 + len(LEGEND) * LEGEND_LINE + 8
MAX_ROUNDS = 3  # rounds stacked on a page
MAX_FIRST_ROUND = 8  # more matches than this in the round being played: its draw instead
MATCHES_A_PAGE = 16  # of a big round's draw
WINNER_BAR = 8
SCORE_ROOM = 48  # the sets score at a box's right
NAME_ROOM = WIDTH - 2 * MARGIN - 18 - SCORE_ROOM  # a name is cut to this many pixels


def current_round(rounds: list[list[BracketMatch]]) -> int:
    """The index of the round being played: the first with a match not played yet."""
    return next(
        (i for i, r in enumerate(rounds) if any(m.winner is None for m in r)), len(rounds) - 1
    )


def shown_rounds(rounds: list[list[BracketMatch]]) -> int:
    """The index of the first round shown: the round being played (the last three rounds once
    it is among them), moved on while it has more than eight matches."""
    first = current_round(rounds)
    first = max(0, min(first, len(rounds) - MAX_ROUNDS)) if len(rounds) > MAX_ROUNDS else 0
    while len(rounds[first]) > MAX_FIRST_ROUND and first < len(rounds) - 1:
        first += 1
    return first


def winner_score(match: BracketMatch) -> str:
    """The sets score from the winner's side ("3-1")."""
    home, away = match.score.split("-")
    return f"{home}-{away}" if match.winner == match.home else f"{away}-{home}"


def round_label(matches: int) -> str:
    return {1: "Final", 2: "Semi-finals", 4: "Quarter-finals"}.get(matches, f"Last {2 * matches}")


def match_box_height() -> int:
    return 2 * LINE_HEIGHT


Section = tuple[str, list[BracketMatch]]  # a heading and the matches under it


def layout(sections: list[Section]) -> tuple[int, list[list[tuple[int, int]]]]:
    """The page's height and, per section, each match box's (x, y) top-left corner."""
    y = TITLE_HEIGHT
    boxes = []
    for _heading, matches in sections:
        y += HEADING_HEIGHT
        boxes.append(
            [(MARGIN, y + i * (match_box_height() + MATCH_GAP)) for i in range(len(matches))]
        )
        y += len(matches) * (match_box_height() + MATCH_GAP)
    return y + LEGEND_HEIGHT, boxes


def page_sections(rounds: list[list[BracketMatch]]) -> list[list[Section]]:
    """What each page shows: a big round's draw MATCHES_A_PAGE matches a page, or else up to
    three rounds stacked on one page."""
    if not rounds:
        return [[("Final", [BracketMatch("", "")])]]
    playing = rounds[current_round(rounds)]
    if len(playing) > MAX_FIRST_ROUND:
        label = round_label(len(playing))
        chunks = [
            playing[start : start + MATCHES_A_PAGE]
            for start in range(0, len(playing), MATCHES_A_PAGE)
        ]
        return [
            [
                (
                    label
                    if len(chunks) == 1
                    else f"{label}: matches {1 + i * MATCHES_A_PAGE}-"
                    f"{i * MATCHES_A_PAGE + len(chunk)} of {len(playing)}",
                    chunk,
                )
            ]
            for i, chunk in enumerate(chunks)
        ]
    start = shown_rounds(rounds)
    return [[(round_label(len(r)), r) for r in rounds[start : start + MAX_ROUNDS]]]


def draw_match(draw: ImageDraw.ImageDraw, x: int, y: int, match: BracketMatch) -> None:
    """A match box: home then away, the winner bold with a green mark and the sets score."""
    right = WIDTH - MARGIN
    draw.rectangle((x, y, right, y + match_box_height()), outline=INK, width=2)
    draw.line((x, y + LINE_HEIGHT, right, y + LINE_HEIGHT), fill=LIGHT_GREY, width=1)
    for line, team in enumerate((match.home, match.away)):
        top = y + line * LINE_HEIGHT
        won = match.winner is not None and match.winner == team
        if won:
            draw.rectangle((x + 2, top + 3, x + 2 + WINNER_BAR, top + LINE_HEIGHT - 3), fill=GREEN)
        draw.text(
            (x + 18, top + LINE_HEIGHT // 2),
            cut(team, NAME_ROOM, NAME, bold=won) if team else "—",
            font=font(NAME, bold=won),
            fill=INK if team else GREY,
            anchor="lm",
        )
        if won and match.score:
            draw.text(
                (right - 10, top + LINE_HEIGHT // 2),
                winner_score(match),
                font=font(NAME, bold=True),
                fill=INK,
                anchor="rm",
            )


def page_png(state: LeagueState, sections: list[Section], status: str) -> bytes:
    height, boxes = layout(sections)
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    draw.text(
        (MARGIN, 10),
        f"Galaxy Cup, season {state.league.season}",
        font=font(TYPE + 8, bold=True),
        fill=INK,
    )
    draw.text((MARGIN, 44), status, font=font(TYPE), fill=GREY)
    for (heading, matches), corners in zip(sections, boxes, strict=True):
        top = corners[0][1] - HEADING_HEIGHT
        draw.text((MARGIN, top + 6), heading, font=font(TYPE, bold=True), fill=GREY)
        for (x, y), match in zip(corners, matches, strict=True):
            draw_match(draw, x, y, match)
    legend_y = height - LEGEND_HEIGHT + 12
    for index, line in enumerate(LEGEND):
        draw.text((MARGIN, legend_y + index * LEGEND_LINE), line, font=font(TYPE), fill=INK)
    return to_png(image)


def cup_bracket_pages(state: LeagueState) -> list[bytes]:
    """The Galaxy Cup's pages (page_sections): one, or one a part of a big round's draw."""
    pages = page_sections(cup_bracket(state))
    if state.cup.winner:
        status = f"Winner: {state.cup.winner}"
    else:
        status = f"{len(state.cup.entrants)} teams still in"
    return [
        page_png(state, sections, status + (f" · page {i + 1} of {len(pages)}" * (len(pages) > 1)))
        for i, sections in enumerate(pages)
    ]
