"""The Rollerball II box score: the seed's scoresheet as one image.

Top: the result and the score by period (visitors first, then home, as the seed's sheet).
Then each team in its own coloured block: one row per player who was on the track, with the
seed's columns (Exit, Number, Goals, Assists, Penalties, Catches, Casualties, Nature of
Injury), team totals, and what carries over to later matches. A legend explains the column
codes. Zero counts are left blank, as on a hand-kept sheet, so the players who did something
stand out. The image is as tall as the teams need.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.common import BLUE, INK, LIGHT_GREY, ORANGE, PAPER, VERMILION, YELLOW
from render.rollerball2.faces import BoxLine, BoxScore, TeamBox
from render.rollerball2.text import (
    PlacedText,
    Rect,
    clip_lines,
    draw_texts,
    fit_lines,
    line_height,
    place_lines,
    wrap,
)

SHEET_WIDTH = 840
MARGIN = 16
PADDING = 6
ROW_SHADE = (238, 235, 225)
TOTALS_SHADE = (222, 219, 208)
TEXT_SIZE = 20
HEADER_SIZE = 17
DETAIL_SIZE = 15
DETAIL_INK = (70, 70, 70)  # still above 9:1 on the paper and the row shade
# Each side has its own colour band so the two teams never blur together.
SIDE_COLOURS = {"VISITORS": (BLUE, PAPER), "HOME": (ORANGE, INK)}

# (heading, width, alignment); the injury column takes what is left.
COLUMNS: tuple[tuple[str, int, str], ...] = (
    ("Exit", 50, "center"),
    ("No.", 50, "center"),
    ("Player", 214, "left"),
    ("G", 40, "center"),
    ("A", 40, "center"),
    ("PIM", 54, "center"),
    ("C", 40, "center"),
    ("KO", 74, "left"),
)
ONE_LINE_COLUMNS = (0, 1, 3, 4, 5, 6)  # Exit, No., G, A, PIM, C
INJURY_WIDTH = SHEET_WIDTH - 2 * MARGIN - sum(width for _, width, _ in COLUMNS)
PLAYER_COLUMN = 2
LEGEND = (
    "Exit X: out for the rest of the match · G goals · A assists · PIM penalty minutes · "
    "C catches of a fired ball · KO casualties: numbers of the opponents he knocked out "
    "for the match · Injury: nature and length"
)


@dataclass(frozen=True)
class Band:
    """A filled rectangle drawn under the text (headers, shaded rows, team bands)."""

    box: Rect
    fill: tuple[int, int, int]


@dataclass(frozen=True)
class ScoresheetLayout:
    width: int
    height: int
    texts: list[PlacedText]
    bands: list[Band]
    team_blocks: dict[str, Rect]  # "VISITORS"/"HOME" -> the block holding that team's rows
    rules: list[tuple[int, int, int, int]]  # thin lines between rows


def _cell_lefts() -> list[int]:
    lefts = [MARGIN]
    for _, width, _ in COLUMNS:
        lefts.append(lefts[-1] + width)
    return lefts  # the last one is where the injury column starts


def _count(value: int) -> str:
    return str(value) if value else ""


def _player_cells(line: BoxLine) -> tuple[list[str], str]:
    """The row's cells, and the small detail line under the name (position, experience)."""
    cells = [
        "X" if line.exited else "",
        line.number,
        line.name,
        _count(line.goals),
        _count(line.assists),
        _count(line.penalty_minutes),
        _count(line.catches),
        ", ".join(line.casualties),
        line.injury,
    ]
    detail = f"{line.position} · {line.experience.title()}"
    if line.goal_order:
        # The seed's sheet suggests noting which of the team's goals he scored.
        detail += "\nscored goal " + ", ".join(f"#{order}" for order in line.goal_order)
    return cells, detail


def _row(
    cells: list[str],
    top: int,
    *,
    detail: str = "",
    size: int = TEXT_SIZE,
    bold: bool = False,
    exit_red: bool = True,
) -> tuple[list[PlacedText], int]:
    """Lay out one table row; returns its texts and height (the tallest wrapped cell)."""
    lefts = _cell_lefts()
    widths = [width for _, width, _ in COLUMNS] + [INJURY_WIDTH]
    aligns = [align for _, _, align in COLUMNS] + ["left"]
    wrapped: list[tuple[list[str], int, bool]] = []
    for column, (text, width) in enumerate(zip(cells, widths, strict=True)):
        cell_bold = bold or column in (0, 1, PLAYER_COLUMN)
        inner = width - 2 * PADDING
        if not text:
            wrapped.append(([], size, cell_bold))
        elif column in ONE_LINE_COLUMNS:
            # A count split over two lines reads as two numbers: shrink it instead.
            cell_size, lines = fit_lines(
                text,
                inner,
                line_height(size, bold=cell_bold),
                (size, size - 3, size - 6, size - 8),
                bold=cell_bold,
            )
            wrapped.append(
                (clip_lines(lines, cell_size, inner, 1, bold=cell_bold), cell_size, cell_bold)
            )
        else:
            wrapped.append((wrap(text, inner, size, bold=cell_bold), size, cell_bold))
    detail_lines = wrap(detail, widths[PLAYER_COLUMN] - 2 * PADDING, DETAIL_SIZE) if detail else []
    detail_height = len(detail_lines) * line_height(DETAIL_SIZE)
    heights = [len(lines) * line_height(cell_size, bold=b) for lines, cell_size, b in wrapped]
    heights[PLAYER_COLUMN] += detail_height
    height = 2 * PADDING + max([line_height(size, bold=True), *heights])
    texts: list[PlacedText] = []
    for column, (lines, cell_size, cell_bold) in enumerate(wrapped):
        box = (lefts[column], top, lefts[column] + widths[column], top + height)
        fill = VERMILION if column == 0 and exit_red else INK
        if column == PLAYER_COLUMN and detail_lines:
            # Name and detail line form one block, centred in the row together; every line
            # keeps the whole cell as its box, which is what the tests check against.
            y = top + (height - heights[column]) // 2
            for line in lines:
                texts.append(PlacedText(line, box[0] + PADDING, y, cell_size, True, INK, box))
                y += line_height(cell_size, bold=True)
            for line in detail_lines:
                texts.append(
                    PlacedText(line, box[0] + PADDING, y, DETAIL_SIZE, False, DETAIL_INK, box)
                )
                y += line_height(DETAIL_SIZE)
            continue
        texts += place_lines(
            lines,
            box,
            cell_size,
            bold=cell_bold,
            fill=fill,
            align=aligns[column],
            valign="middle",
            padding=PADDING,
        )
    return texts, height


def _period_table(score: BoxScore, top: int) -> tuple[list[PlacedText], list[Band], int]:
    """Score by period: a header row, then visitors and home, each with its total."""
    texts: list[PlacedText] = []
    bands: list[Band] = []
    labels = [*score.period_labels, "T"]
    number_width = 70
    team_right = SHEET_WIDTH - MARGIN - number_width * len(labels)
    header_height = line_height(HEADER_SIZE, bold=True) + 2 * PADDING
    bands.append(Band((MARGIN, top, SHEET_WIDTH - MARGIN, top + header_height), INK))
    texts += place_lines(
        ["PERIOD"],
        (MARGIN, top, team_right, top + header_height),
        HEADER_SIZE,
        bold=True,
        fill=PAPER,
        valign="middle",
        padding=PADDING,
    )
    for index, label in enumerate(labels):
        left = team_right + index * number_width
        texts += place_lines(
            [label],
            (left, top, left + number_width, top + header_height),
            HEADER_SIZE,
            bold=True,
            fill=PAPER,
            align="center",
            valign="middle",
        )
    top += header_height
    row_height = line_height(28, bold=True) + 2 * PADDING
    tag_width = 130
    name_width = team_right - MARGIN - tag_width - 2 * PADDING
    # Both names at one size (the largest that fits both on one line), so neither looks lesser.
    name_size = 16
    for size in (26, 23, 20, 18, 16):
        if all(
            len(wrap(t.name, name_width, size, bold=True)) == 1
            for t in (score.visitors, score.home)
        ):
            name_size = size
            break
    for team in (score.visitors, score.home):
        background, ink = SIDE_COLOURS[team.side]
        bands.append(Band((MARGIN, top, MARGIN + tag_width, top + row_height), background))
        texts += place_lines(
            [team.side],
            (MARGIN, top, MARGIN + tag_width, top + row_height),
            17,
            bold=True,
            fill=ink,
            align="center",
            valign="middle",
        )
        name_box = (MARGIN + tag_width, top, team_right, top + row_height)
        lines = clip_lines(
            wrap(team.name, name_width, name_size, bold=True), name_size, name_width, 1, bold=True
        )
        texts += place_lines(
            lines, name_box, name_size, bold=True, fill=INK, valign="middle", padding=PADDING
        )
        goals = [*team.goals_by_period, team.total]
        for index, goals_in_period in enumerate(goals):
            left = team_right + index * number_width
            is_total = index == len(goals) - 1
            if is_total:
                bands.append(Band((left, top, left + number_width, top + row_height), YELLOW))
            texts += place_lines(
                [str(goals_in_period)],
                (left, top, left + number_width, top + row_height),
                28 if is_total else 24,
                bold=is_total,
                fill=INK,
                align="center",
                valign="middle",
            )
        top += row_height
    return texts, bands, top


def _team_block(
    team: TeamBox, top: int
) -> tuple[list[PlacedText], list[Band], list[tuple[int, int, int, int]], int]:
    texts: list[PlacedText] = []
    bands: list[Band] = []
    rules: list[tuple[int, int, int, int]] = []
    background, ink = SIDE_COLOURS[team.side]
    band_height = line_height(24, bold=True) + 2 * PADDING + 4
    bands.append(Band((MARGIN, top, SHEET_WIDTH - MARGIN, top + band_height), background))
    title = f"{team.side}: {team.name} {team.total}"
    inner = SHEET_WIDTH - 2 * MARGIN - 2 * PADDING
    size, lines = fit_lines(title, inner, band_height, (24, 21, 18, 16), bold=True)
    lines = clip_lines(lines, size, inner, 1, bold=True)
    texts += place_lines(
        lines,
        (MARGIN, top, SHEET_WIDTH - MARGIN, top + band_height),
        size,
        bold=True,
        fill=ink,
        valign="middle",
        padding=PADDING,
    )
    top += band_height

    headings = [heading for heading, _, _ in COLUMNS] + ["Injury"]
    row_texts, height = _row(headings, top, size=HEADER_SIZE, bold=True, exit_red=False)
    bands.append(Band((MARGIN, top, SHEET_WIDTH - MARGIN, top + height), LIGHT_GREY))
    texts += row_texts
    top += height

    for index, line in enumerate(team.players):
        cells, detail = _player_cells(line)
        row_texts, height = _row(cells, top, detail=detail)
        if index % 2:
            bands.append(Band((MARGIN, top, SHEET_WIDTH - MARGIN, top + height), ROW_SHADE))
        texts += row_texts
        top += height
        rules.append((MARGIN, top, SHEET_WIDTH - MARGIN, top))

    totals = [
        "",
        "",
        "Team totals",
        str(sum(p.goals for p in team.players)),
        str(sum(p.assists for p in team.players)),
        str(sum(p.penalty_minutes for p in team.players)),
        str(sum(p.catches for p in team.players)),
        str(sum(len(p.casualties) for p in team.players)),
        "",
    ]
    row_texts, height = _row(totals, top, bold=True)
    bands.append(Band((MARGIN, top, SHEET_WIDTH - MARGIN, top + height), TOTALS_SHADE))
    texts += row_texts
    top += height

    if team.absences:
        top += PADDING
        text = "Carries over: " + "; ".join(team.absences)
        lines = wrap(text, inner, 18)
        box = (MARGIN, top, SHEET_WIDTH - MARGIN, top + len(lines) * line_height(18) + PADDING)
        texts += place_lines(lines, box, 18, fill=INK, padding=PADDING)
        top = box[3]
    return texts, bands, rules, top


def layout_scoresheet(score: BoxScore) -> ScoresheetLayout:
    """Lay out the whole box score top to bottom; the height follows from the rows."""
    texts: list[PlacedText] = []
    bands: list[Band] = []
    rules: list[tuple[int, int, int, int]] = []
    title_height = 56
    bands.append(Band((0, 0, SHEET_WIDTH, title_height), INK))
    texts += place_lines(
        ["ROLLERBALL II · BOX SCORE"],
        (0, 0, SHEET_WIDTH, title_height),
        24,
        bold=True,
        fill=PAPER,
        valign="middle",
        padding=MARGIN,
    )
    top = title_height + 10
    inner = SHEET_WIDTH - 2 * MARGIN
    size, lines = fit_lines(
        score.result_line, inner, 2 * line_height(30, bold=True), (30, 26, 22), bold=True
    )
    result_box = (
        MARGIN,
        top,
        SHEET_WIDTH - MARGIN,
        top + len(lines) * line_height(size, bold=True),
    )
    texts += place_lines(lines, result_box, size, bold=True, fill=INK)
    top = result_box[3] + 10

    period_texts, period_bands, top = _period_table(score, top)
    texts += period_texts
    bands += period_bands

    blocks: dict[str, Rect] = {}
    for team in (score.visitors, score.home):
        top += 22  # clear air between the two teams
        block_top = top
        team_texts, team_bands, team_rules, top = _team_block(team, top)
        texts += team_texts
        bands += team_bands
        rules += team_rules
        blocks[team.side] = (MARGIN, block_top, SHEET_WIDTH - MARGIN, top)

    top += 14
    legend_lines = wrap(LEGEND, inner, 17)
    legend_box = (MARGIN, top, SHEET_WIDTH - MARGIN, top + len(legend_lines) * line_height(17))
    texts += place_lines(legend_lines, legend_box, 17, fill=DETAIL_INK)
    height = legend_box[3] + MARGIN
    return ScoresheetLayout(SHEET_WIDTH, height, texts, bands, blocks, rules)


def layout_team_page(score: BoxScore, team: TeamBox) -> ScoresheetLayout:
    """One team's half of the box score on its own page (a phone-sized page of the box score:
    title, the result, the team's rows and totals, what carries over, the legend)."""
    texts: list[PlacedText] = []
    bands: list[Band] = []
    title_height = 56
    bands.append(Band((0, 0, SHEET_WIDTH, title_height), INK))
    texts += place_lines(
        [f"ROLLERBALL II · BOX SCORE · {team.side}"],
        (0, 0, SHEET_WIDTH, title_height),
        24,
        bold=True,
        fill=PAPER,
        valign="middle",
        padding=MARGIN,
    )
    top = title_height + 10
    inner = SHEET_WIDTH - 2 * MARGIN
    size, lines = fit_lines(
        score.result_line, inner, 2 * line_height(26, bold=True), (26, 22), bold=True
    )
    lines = clip_lines(lines, size, inner, 2, bold=True)
    box = (MARGIN, top, SHEET_WIDTH - MARGIN, top + len(lines) * line_height(size, bold=True))
    texts += place_lines(lines, box, size, bold=True, fill=INK)
    top = box[3] + 12
    block_top = top
    team_texts, team_bands, rules, top = _team_block(team, top)
    texts += team_texts
    bands += team_bands
    blocks = {team.side: (MARGIN, block_top, SHEET_WIDTH - MARGIN, top)}
    top += 14
    legend_lines = wrap(LEGEND, inner, 17)
    legend_box = (MARGIN, top, SHEET_WIDTH - MARGIN, top + len(legend_lines) * line_height(17))
    texts += place_lines(legend_lines, legend_box, 17, fill=DETAIL_INK)
    return ScoresheetLayout(SHEET_WIDTH, legend_box[3] + MARGIN, texts, bands, blocks, rules)


def scoresheet_image(score: BoxScore) -> Image.Image:
    return draw_scoresheet(layout_scoresheet(score))


def draw_scoresheet(layout: ScoresheetLayout) -> Image.Image:
    image = Image.new("RGB", (layout.width, layout.height), PAPER)
    draw = ImageDraw.Draw(image)
    for band in layout.bands:
        draw.rectangle((band.box[0], band.box[1], band.box[2] - 1, band.box[3] - 1), fill=band.fill)
    for rule in layout.rules:
        draw.line(rule, fill=LIGHT_GREY, width=1)
    for side, block in layout.team_blocks.items():
        colour, _ = SIDE_COLOURS[side]
        draw.rectangle((block[0], block[1], block[2] - 1, block[3] - 1), outline=colour, width=3)
    draw_texts(draw, layout.texts)
    return image
