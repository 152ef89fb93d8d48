"""One team's half of the box score as phone pages (render_box_score_pages' last pages).

The printable scoresheet (scoresheet.py, 840 px) puts the injury in a column of its own; on a
phone that column leaves a few pixels per letter. Here a page is the phone width of the other
pages (tables.PAGE_WIDTH, 480 px: 16 px type shows 11 px tall on a 390-px phone), and each
player is a block: the number, then his name with what he did under it (position and
experience, which goals he scored, and in vermilion "X out:" with the injury when he left the
match), then the seed's count columns (G, A, PIM, C, KO). Zero counts stay blank, as on a
hand-kept sheet. A team with many players runs over more pages, the header repeated.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from render.common import INK, LIGHT_GREY, PAPER, VERMILION
from render.rollerball2.faces import BoxLine, BoxScore, TeamBox
from render.rollerball2.palette import paint_png
from render.rollerball2.scoresheet import DETAIL_INK, ROW_SHADE, SIDE_COLOURS, TOTALS_SHADE
from render.rollerball2.tables import PAGE_WIDTH, TITLE_HEIGHT
from render.rollerball2.text import (
    Colour,
    PlacedText,
    Rect,
    clip_lines,
    fit_lines,
    line_height,
    place_lines,
    wrap,
)

MARGIN = 12
PADDING = 5
NAME_SIZE = 18
DETAIL_SIZE = 18
COUNT_SIZE = 18
HEADER_SIZE = 18
TITLE_SIZE = 20
# (heading, width); the player column between No. and G takes what is left.
COUNT_COLUMNS: tuple[tuple[str, int], ...] = (
    ("G", 34),
    ("A", 34),
    ("PIM", 48),
    ("C", 36),
    ("KO", 50),
)
NUMBER_WIDTH = 40
# A team's rows stay on one page up to this height (a whole team at a glance; the summary pages
# break at 1,100 px), else they run over more pages.
MAX_PAGE_HEIGHT = 1400
PLAYER_WIDTH = PAGE_WIDTH - 2 * MARGIN - NUMBER_WIDTH - sum(width for _, width in COUNT_COLUMNS)
LEGEND = (
    "X out: left the match (injured, ejected or killed) · G goals · A assists · "
    "PIM penalty minutes · C catches of a fired ball · KO numbers of the opponents he "
    "knocked out for the match"
)


@dataclass
class TeamPage:
    width: int
    height: int = 0
    texts: list[PlacedText] = field(default_factory=list)
    fills: list[tuple[Rect, Colour]] = field(default_factory=list)
    rules: list[Rect] = field(default_factory=list)
    block: Rect = (0, 0, 0, 0)  # the team's rows, outlined in its colour


def _count(value: int) -> str:
    return str(value) if value else ""


def _lefts() -> list[int]:
    lefts = [MARGIN, MARGIN + NUMBER_WIDTH, MARGIN + NUMBER_WIDTH + PLAYER_WIDTH]
    for _, width in COUNT_COLUMNS[:-1]:
        lefts.append(lefts[-1] + width)
    return lefts


def _cells(top: int, height: int) -> list[Rect]:
    lefts = _lefts()
    rights = [*lefts[1:], PAGE_WIDTH - MARGIN]
    return [(left, top, right, top + height) for left, right in zip(lefts, rights, strict=True)]


def _header(top: int) -> tuple[list[PlacedText], int]:
    height = line_height(HEADER_SIZE, bold=True) + 2 * PADDING
    texts: list[PlacedText] = []
    headings = ["No.", "Player", *(heading for heading, _ in COUNT_COLUMNS)]
    for index, (heading, box) in enumerate(zip(headings, _cells(top, height), strict=True)):
        texts += place_lines(
            [heading],
            box,
            HEADER_SIZE,
            bold=True,
            fill=INK,
            align="left" if index == 1 else "center",
            valign="middle",
            padding=PADDING,
        )
    return texts, height


def _player_lines(line: BoxLine) -> list[tuple[str, int, bool, Colour]]:
    """The player cell: name, then detail lines (text, size, bold, ink)."""
    room = PLAYER_WIDTH - 2 * PADDING
    lines: list[tuple[str, int, bool, Colour]] = [
        (text, NAME_SIZE, True, INK) for text in wrap(line.name, room, NAME_SIZE, bold=True)
    ]
    detail = f"{line.position} · {line.experience.title()}"
    if line.goal_order:
        # The seed's sheet suggests noting which of the team's goals he scored.
        detail += " · goal " + ", ".join(f"#{order}" for order in line.goal_order)
    lines += [(text, DETAIL_SIZE, False, DETAIL_INK) for text in wrap(detail, room, DETAIL_SIZE)]
    if line.exited or line.injury:
        hurt = ("X out: " if line.exited else "") + (line.injury or "left the match")
        lines += [
            (text, DETAIL_SIZE, True, VERMILION)
            for text in wrap(hurt, room, DETAIL_SIZE, bold=True)
        ]
    return lines


def _row(
    cells: list[str], player: list[tuple[str, int, bool, Colour]], top: int
) -> tuple[list[PlacedText], int]:
    """One row: number, the player block, the counts; returns its texts and height."""
    counts = []
    for text, (_, width) in zip(cells[1:], COUNT_COLUMNS, strict=True):
        inner = width - 2 * PADDING
        # A count split over two lines reads as two numbers: shrink it, never below 16 px.
        size, lines = fit_lines(
            text, inner, line_height(COUNT_SIZE, bold=True), (COUNT_SIZE, 16), bold=True
        )
        counts.append((wrap(text, inner, size, bold=True) if text else [], size))
    player_height = sum(line_height(size, bold=b) for _, size, b, _ in player)
    height = 2 * PADDING + max(
        [
            line_height(NAME_SIZE, bold=True),
            player_height,
            *(len(lines) * line_height(size, bold=True) for lines, size in counts),
        ]
    )
    boxes = _cells(top, height)
    texts = place_lines(
        [cells[0]] if cells[0] else [],
        boxes[0],
        NAME_SIZE,
        bold=True,
        fill=INK,
        align="center",
        valign="middle",
    )
    y = top + (height - player_height) // 2
    for text, size, is_bold, ink in player:
        texts.append(PlacedText(text, boxes[1][0] + PADDING, y, size, is_bold, ink, boxes[1]))
        y += line_height(size, bold=is_bold)
    for (lines, size), box in zip(counts, boxes[2:], strict=True):
        texts += place_lines(lines, box, size, bold=True, fill=INK, align="center", valign="middle")
    return texts, height


def _title(page: TeamPage, team: TeamBox, result_line: str, number: int, of: int) -> int:
    page.fills.append(((0, 0, PAGE_WIDTH, TITLE_HEIGHT), INK))
    title = f"BOX SCORE · {team.side}" + (f" · {number} of {of}" if of > 1 else "")
    page.texts += place_lines(
        [title],
        (0, 0, PAGE_WIDTH, TITLE_HEIGHT),
        TITLE_SIZE,
        bold=True,
        fill=PAPER,
        valign="middle",
        padding=MARGIN,
    )
    top = TITLE_HEIGHT + 8
    inner = PAGE_WIDTH - 2 * MARGIN
    size, lines = fit_lines(result_line, inner, 2 * line_height(22, bold=True), (22, 20), bold=True)
    lines = clip_lines(lines, size, inner, 2, bold=True)
    box = (MARGIN, top, PAGE_WIDTH - MARGIN, top + len(lines) * line_height(size, bold=True))
    page.texts += place_lines(lines, box, size, bold=True, fill=INK)
    top = box[3] + 8
    background, ink = SIDE_COLOURS[team.side]
    band = line_height(22, bold=True) + 2 * PADDING
    page.fills.append(((MARGIN, top, PAGE_WIDTH - MARGIN, top + band), background))
    name = f"{team.side}: {team.name}"
    score_width = 56
    room = PAGE_WIDTH - 2 * MARGIN - 2 * PADDING - score_width
    size, lines = fit_lines(name, room, band, (22, 20, 18), bold=True)
    page.texts += place_lines(
        clip_lines(lines, size, room, 1, bold=True),
        (MARGIN, top, PAGE_WIDTH - MARGIN - score_width, top + band),
        size,
        bold=True,
        fill=ink,
        valign="middle",
        padding=PADDING,
    )
    page.texts += place_lines(
        [str(team.total)],
        (PAGE_WIDTH - MARGIN - score_width, top, PAGE_WIDTH - MARGIN, top + band),
        26,
        bold=True,
        fill=ink,
        align="right",
        valign="middle",
        padding=PADDING,
    )
    top += band
    header, height = _header(top)
    page.fills.append(((MARGIN, top, PAGE_WIDTH - MARGIN, top + height), LIGHT_GREY))
    page.texts += header
    return top + height


def _footer_lines(team: TeamBox) -> list[tuple[str, int, Colour]]:
    inner = PAGE_WIDTH - 2 * MARGIN
    lines: list[tuple[str, int, Colour]] = []
    if team.absences:
        text = "Carries over: " + "; ".join(team.absences)
        lines += [(line, DETAIL_SIZE, INK) for line in wrap(text, inner, DETAIL_SIZE)]
    lines += [(line, DETAIL_SIZE, DETAIL_INK) for line in wrap(LEGEND, inner, DETAIL_SIZE)]
    return lines


def layout_team_pages(score: BoxScore, team: TeamBox) -> list[TeamPage]:
    """The team's rows on as many pages as they need (each at most MAX_PAGE_HEIGHT tall): the
    title, the result and the team band on each, the totals, what carries over and the
    legend after the last row."""
    rows: list[tuple[list[str], list[tuple[str, int, bool, Colour]], Colour | None]] = []
    for index, line in enumerate(team.players):
        cells = [
            line.number,
            _count(line.goals),
            _count(line.assists),
            _count(line.penalty_minutes),
            _count(line.catches),
            ", ".join(line.casualties),
        ]
        rows.append((cells, _player_lines(line), ROW_SHADE if index % 2 else None))
    totals = [
        "",
        str(sum(p.goals for p in team.players)),
        str(sum(p.assists for p in team.players)),
        str(sum(p.penalty_minutes for p in team.players)),
        str(sum(p.catches for p in team.players)),
        str(sum(len(p.casualties) for p in team.players)),
    ]
    rows.append((totals, [("Team totals", NAME_SIZE, True, INK)], TOTALS_SHADE))
    footer = _footer_lines(team)
    footer_height = 12 + sum(line_height(size) for _, size, _ in footer) + MARGIN

    def lay(of: int) -> list[TeamPage]:
        pages: list[TeamPage] = []
        page = TeamPage(PAGE_WIDTH)
        pages.append(page)
        top = block_top = _title(page, team, score.result_line, 1, of)
        block_top -= line_height(HEADER_SIZE, bold=True) + 2 * PADDING
        for index, (cells, player, fill) in enumerate(rows):
            texts, height = _row(cells, player, top)
            room = footer_height if index == len(rows) - 1 else MARGIN
            if top + height + room > MAX_PAGE_HEIGHT and top > block_top + 60:
                page.block = (MARGIN, block_top, PAGE_WIDTH - MARGIN, top)
                page.height = top + MARGIN
                page = TeamPage(PAGE_WIDTH)
                pages.append(page)
                top = block_top = _title(page, team, score.result_line, len(pages), of)
                block_top -= line_height(HEADER_SIZE, bold=True) + 2 * PADDING
                texts, height = _row(cells, player, top)
            if fill is not None:
                page.fills.append(((MARGIN, top, PAGE_WIDTH - MARGIN, top + height), fill))
            page.texts += texts
            top += height
            page.rules.append((MARGIN, top, PAGE_WIDTH - MARGIN, top))
        page.block = (MARGIN, block_top, PAGE_WIDTH - MARGIN, top)
        top += 12
        for text, size, ink in footer:
            page.texts.append(
                PlacedText(
                    text,
                    MARGIN,
                    top,
                    size,
                    False,
                    ink,
                    (MARGIN, top, PAGE_WIDTH - MARGIN, top + line_height(size)),
                )
            )
            top += line_height(size)
        page.height = top + MARGIN
        return pages

    pages = lay(1)
    return pages if len(pages) == 1 else lay(len(pages))


def team_page_png(page: TeamPage, side: str, level: int = 6) -> bytes:
    """The page as an indexed PNG, the team's rows outlined in its colour."""
    colour, _ = SIDE_COLOURS[side]
    return paint_png(
        (page.width, page.height),
        PAPER,
        fills=page.fills,
        lines=[(rule, LIGHT_GREY, 1) for rule in page.rules],
        texts=page.texts,
        outlines=[(page.block, colour, 3), ((0, 0, page.width, page.height), INK, 3)],
        level=level,
    )
