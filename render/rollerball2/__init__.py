"""Rollerball II images: player cards, Fast Action Cards, a printable card sheet, the box score.

Pure functions, engine object in, PNG bytes out. Each image is laid out for Discord's preview
on a phone: large type, ink on paper, one idea per image, a legend wherever codes appear.

    render_player_card(card, highlight=None)  business card, 700 x 400 (3.5" x 2" at 200 dpi),
                                        rows 0-9; highlight=("offense"|"defense", die 1..10)
                                        lights the row just rolled (from an Event's Roll)
    render_fac(fac, highlight=None)     index card, 800 x 480 (5" x 3"); taller only if the
                                        words cannot fit at the smallest readable size
    render_fac_section(fac, heading)    one section in large type, 480 px wide, as tall as needed
    render_fac_phone(fac, highlight=None)  the whole card for a phone: sections stacked, 480 wide
    render_card_sheet(cards, caption)   US Letter at 200 dpi, up to ten cards in 2 x 5
    render_card_sheets(cards)           as many sheets as the cards need (a roster of 25 -> 3)
    render_scoresheet(result)           the box score of a MatchResult, 840 px wide, as tall as needed
    render_box_score_pages(result)      the box score as phone pages, each < BOX_PAGE_LIMIT (150 KB):
                                        summary (periods, three stars, scoring and penalties with
                                        clock times), then visitors, then home
    render_track(state)                 the match at a glance (score, period, FACs left, ball,
                                        line-ups, penalty box); safe mid-match; 800 px wide
    render_scoreboard(state)            for a phone: score, clock, ball, next card, penalty box
    render_roster(state)                for a phone: both line-ups, the ball handler lit
    render_gamecard()                   Action Matrix, Random Player chart, penalty legend
    render_gamecard_pages()             the same as three phone pages, one table each
    render_standings(title, rows)       the season table, list of pages (rows: season.standings)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image

from render.rollerball2.fac import fac_phone_png, fac_png, fac_section_png
from render.rollerball2.faces import FacFace, box_score, card_face, fac_face
from render.rollerball2.pages import (
    box_summary_pages,
    gamecard_page,
    gamecard_pages,
    standings_page,
)
from render.rollerball2.player_card import CARDS_PER_SHEET, card_image, sheet_image
from render.rollerball2.png import encode_png
from render.rollerball2.scoresheet import scoresheet_image
from render.rollerball2.tables import page_png
from render.rollerball2.teampage import layout_team_pages, team_page_png
from render.rollerball2.track import (
    layout_png,
    layout_roster,
    layout_scoreboard,
    layout_track,
    track_face,
)
from rules.rollerball2.cards import SECTION_HEADINGS, FastActionCard, PlayerCard
from rules.rollerball2.scoresheet import MatchResult
from rules.rollerball2.season import StandingRow
from rules.rollerball2.state import MatchState


def _png(image: Image.Image) -> bytes:
    # Not render.common.to_png: see render/rollerball2/png.py for why these images are encoded
    # unfiltered at zlib level 1 (the 15 ms budget for a card).
    return encode_png(image)


__all__ = [
    "BOX_PAGE_LIMIT",
    "render_box_score_pages",
    "render_card_sheet",
    "render_card_sheets",
    "render_fac",
    "render_fac_phone",
    "render_fac_section",
    "render_gamecard",
    "render_gamecard_pages",
    "render_player_card",
    "render_roster",
    "render_scoreboard",
    "render_scoresheet",
    "render_standings",
    "render_track",
]


def render_player_card(card: PlayerCard, highlight: tuple[str, int] | None = None) -> bytes:
    """One player card as PNG. `highlight` = (column, die): the row just rolled ("offense" or
    "defense", the engine's face 1..10, as in rules.rollerball2.Roll) is lit."""
    return _png(card_image(card_face(card), highlight))


def _heading(section: str) -> str:
    """A section as printed: "EVENT" stays, an engine key ("event", Event.section) is printed."""
    return SECTION_HEADINGS.get(section, section)


def render_fac(fac: FastActionCard, highlight: str | None = None) -> bytes:
    """One Fast Action Card as PNG; `highlight` names the section being read, as printed
    ("EVENT") or as the engine's key ("event", an Event's `section`)."""
    return _fac_png(fac_face(fac), None if highlight is None else _heading(highlight))


# The deck is sixty fixed cards read over and over (120 draws a match), and a FAC's words cost
# FreeType about 7 ms to rasterise, so finished PNGs are kept: 64 of ~70 KiB each at most.
@lru_cache(maxsize=64)
def _fac_png(face: FacFace, highlight: str | None) -> bytes:
    return fac_png(face, highlight)  # a palette PNG: see render/rollerball2/palette.py


def render_fac_section(fac: FastActionCard, heading: str) -> bytes:
    """Only the section being read ("EVENT", or the engine's key "event") in large type, with
    the card's number."""
    return _fac_section_png(fac_face(fac), _heading(heading))


# Two of three clicks of a match show a FAC section, and the sixty cards' sections are read over
# and over: 256 kept (about 2.4 MB) served 90 % of the reads of 30 seeded matches (319 sections
# read of the 360), each a 3 ms drawing saved.
@lru_cache(maxsize=256)
def _fac_section_png(face: FacFace, heading: str) -> bytes:
    return fac_section_png(face, heading)


def render_fac_phone(fac: FastActionCard, highlight: str | None = None) -> bytes:
    """One Fast Action Card for a phone: the six sections one under the other, 480 px wide
    with 18 px words (the index card of `render_fac` is 800 px wide, its words about 7 px on a
    phone); `highlight` as in `render_fac`."""
    return fac_phone_png(fac_face(fac), None if highlight is None else _heading(highlight))


def render_card_sheet(cards: Sequence[PlayerCard], caption: str | None = None) -> bytes:
    """A printable sheet of up to ten player cards (a lineup), 2 columns x 5 rows, as PNG.

    The caption in the top margin defaults to the team of the first card."""
    if caption is None:
        caption = f"{cards[0].team} · Rollerball II player cards" if cards else ""
    return _png(sheet_image([card_face(card) for card in cards], caption))


def render_card_sheets(cards: Sequence[PlayerCard]) -> list[bytes]:
    """Printable sheets for any number of cards, ten to a sheet, in the order given."""
    count = -(-len(cards) // CARDS_PER_SHEET)  # sheets needed, rounded up
    sheets = []
    for number in range(count):
        chunk = cards[number * CARDS_PER_SHEET : (number + 1) * CARDS_PER_SHEET]
        caption = f"{chunk[0].team} · Rollerball II player cards · sheet {number + 1} of {count}"
        sheets.append(render_card_sheet(chunk, caption))
    return sheets


def render_scoresheet(result: MatchResult) -> bytes:
    """The box score of a finished (or running) match as one tall PNG (the printable sheet)."""
    return _png(scoresheet_image(box_score(result)))


BOX_PAGE_LIMIT = 150 * 1024  # bytes: each page of the box score stays under this


def render_box_score_pages(result: MatchResult) -> list[bytes]:
    """The box score as phone-sized pages: the summary (result, score by period, three stars,
    scoring and penalty summaries with clock times; more pages if the match needs them), then
    the visitors' and the home team's rows. Each page is encoded compactly (zlib level 9)."""
    score = box_score(result)
    pages = [page_png(page) for page in box_summary_pages(result, score.result_line)]
    for team in (score.visitors, score.home):
        pages += [team_page_png(page, team.side) for page in layout_team_pages(score, team)]
    return pages


def render_track(state: MatchState) -> bytes:
    """The match at a glance: score, period, FACs left, the ball, line-ups, the penalty box.
    Safe to show mid-match: no seed, no deck order, no line-up before both are handed in.
    800 px wide: on a phone its type is about 7 px. The phone shows `render_scoreboard` and
    `render_roster` instead, the same content in two images."""
    return layout_png(layout_track(track_face(state)))


def render_scoreboard(state: MatchState) -> bytes:
    """The match's scoreboard for a phone (480 px wide, type from 18 px): score, period and
    clock, who has the ball, the penalty box. Safe to show mid-match, as `render_track`."""
    return layout_png(layout_scoreboard(track_face(state)))


def render_roster(state: MatchState) -> bytes:
    """Both line-ups for a phone (480 px wide, type from 16 px), visitors first, the ball
    handler's row lit; before both are handed in (private line-ups) only who has handed one
    in."""
    return layout_png(layout_roster(track_face(state)))


def render_gamecard() -> bytes:
    """The seed's Game Card: Action Matrix, Random Player chart (rows 0-9), penalty legend."""
    return _gamecard_png()


@lru_cache(maxsize=1)
def _gamecard_png() -> bytes:
    return page_png(gamecard_page())


def render_gamecard_pages() -> list[bytes]:
    """The Game Card as three phone pages, one table each (Action Matrix, Random Player chart,
    penalty lengths): the same content as `render_gamecard`, in pieces a phone shows whole."""
    return list(_gamecard_pages())


@lru_cache(maxsize=1)
def _gamecard_pages() -> tuple[bytes, ...]:
    return tuple(page_png(page) for page in gamecard_pages())


def render_standings(title: str, rows: Sequence[StandingRow]) -> list[bytes]:
    """The season table (rows from rules.rollerball2.season.standings), one page per 1,100 px."""
    return [page_png(page) for page in standings_page(title, list(rows))]
