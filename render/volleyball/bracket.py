"""The Galaxy Cup bracket as a PNG ("the cup bracket when it changes").

A phone shows about three columns of names at a readable size, so the image shows at most
three cup rounds side by side, starting with the round being played (or the final once the
cup is won); earlier rounds are in the text answer of /volleyball cup. While the round being
played has more than eight matches (a big league's first cup rounds), the image is that
round's draw instead: one line per match in two columns."""

from __future__ import annotations

from PIL import Image, ImageDraw

from render.common import GREEN, GREY, INK, LIGHT_GREY, PAPER, font, to_png
from rules.volleyball.reports import BracketMatch, cup_bracket
from rules.volleyball.season import LeagueState

COLUMN_WIDTH = 340
GAP = 28
MARGIN = 24
TITLE_HEIGHT = 150
LINE_HEIGHT = 40
MATCH_GAP = 22
LEGEND_HEIGHT = 90
MAX_COLUMNS = 3
MAX_FIRST_COLUMN = 8
WINNER_BAR = 8


def shown_rounds(rounds: list[list[BracketMatch]]) -> int:
    """The index of the first round shown: the first with a match not played yet (the last
    round when all are played), moved on while it has more than eight matches."""
    first = current_round(rounds)
    first = max(0, min(first, len(rounds) - MAX_COLUMNS)) if len(rounds) > MAX_COLUMNS else 0
    while len(rounds[first]) > MAX_FIRST_COLUMN and first < len(rounds) - 1:
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


def layout(rounds: list[list[BracketMatch]]) -> tuple[int, list[list[tuple[int, int]]]]:
    """The image height and, per shown round, each match's (x, y) top-left corner."""
    slot = match_box_height() + MATCH_GAP
    first = len(rounds[0])
    height = TITLE_HEIGHT + first * slot + LEGEND_HEIGHT
    boxes = []
    for column, matches in enumerate(rounds):
        span = first // max(1, len(matches))
        x = MARGIN + column * (COLUMN_WIDTH + GAP)
        boxes.append(
            [
                (x, TITLE_HEIGHT + int((i * span + (span - 1) / 2) * slot))
                for i in range(len(matches))
            ]
        )
    return height, boxes


def current_round(rounds: list[list[BracketMatch]]) -> int:
    """The index of the round being played: the first with a match not played yet."""
    return next(
        (i for i, r in enumerate(rounds) if any(m.winner is None for m in r)), len(rounds) - 1
    )


DRAW_ROW = 40
DRAW_COLUMN = 520


def draw_layout(matches: int) -> tuple[int, int, int]:
    """(width, height, rows per column) of the draw image for a round of `matches`."""
    rows = -(-matches // 2)
    return 2 * MARGIN + 2 * DRAW_COLUMN + GAP, TITLE_HEIGHT + rows * DRAW_ROW + LEGEND_HEIGHT, rows


def draw_legend(draw: ImageDraw.ImageDraw, height: int, text: str) -> None:
    """The legend along the bottom: the green mark of a winner and what it means."""
    legend_y = height - LEGEND_HEIGHT + 24
    draw.rectangle((MARGIN, legend_y, MARGIN + 22, legend_y + 28), fill=GREEN)
    draw.text((MARGIN + 34, legend_y), text, font=font(20), fill=INK)


def cup_draw_png(state: LeagueState, matches: list[BracketMatch]) -> bytes:
    """One big cup round as a list: "home v away", the winner bold with a green mark."""
    width, height, rows = draw_layout(len(matches))
    image = Image.new("RGB", (width, height), PAPER)
    draw = ImageDraw.Draw(image)
    draw.text(
        (MARGIN, 16),
        f"Galaxy Cup, season {state.league.season}: {round_label(len(matches)).lower()}",
        font=font(38, bold=True),
        fill=INK,
    )
    draw.text((MARGIN, 62), f"{len(state.cup.entrants)} teams still in", font=font(24), fill=GREY)
    name_font, bold_font = font(22), font(22, bold=True)
    for index, match in enumerate(matches):
        x = MARGIN + (index // rows) * (DRAW_COLUMN + GAP)
        y = TITLE_HEIGHT + (index % rows) * DRAW_ROW
        if index % 2 == 1:
            draw.rectangle((x, y, x + DRAW_COLUMN, y + DRAW_ROW - 1), fill=(238, 235, 224))
        cursor = x + 18
        for part, team in enumerate((match.home, match.away)):
            if part == 1:
                draw.text(
                    (cursor, y + DRAW_ROW // 2), " v ", font=name_font, fill=GREY, anchor="lm"
                )
                cursor += int(draw.textlength(" v ", font=name_font))
            won = match.winner is not None and match.winner == team
            if won:
                draw.rectangle((x + 2, y + 4, x + 2 + WINNER_BAR, y + DRAW_ROW - 5), fill=GREEN)
            label = team if len(team) <= 20 else team[:19] + "…"
            used = bold_font if won else name_font
            draw.text((cursor, y + DRAW_ROW // 2), label, font=used, fill=INK, anchor="lm")
            cursor += int(draw.textlength(label, font=used))
        if match.winner is not None and match.score:
            draw.text(
                (x + DRAW_COLUMN - 8, y + DRAW_ROW // 2),
                winner_score(match),
                font=bold_font,
                fill=INK,
                anchor="rm",
            )
    draw_legend(
        draw, height, "winner, in bold, with the sets score; the first team named plays at home"
    )
    return to_png(image)


def cup_bracket_png(state: LeagueState) -> bytes:
    all_rounds = cup_bracket(state)
    if all_rounds and len(all_rounds[current_round(all_rounds)]) > MAX_FIRST_COLUMN:
        return cup_draw_png(state, all_rounds[current_round(all_rounds)])
    start = shown_rounds(all_rounds) if all_rounds else 0
    rounds = all_rounds[start : start + MAX_COLUMNS] or [[BracketMatch("", "")]]
    width = 2 * MARGIN + len(rounds) * COLUMN_WIDTH + (len(rounds) - 1) * GAP
    width = max(width, 720)
    height, boxes = layout(rounds)
    image = Image.new("RGB", (width, height), PAPER)
    draw = ImageDraw.Draw(image)
    draw.text(
        (MARGIN, 16),
        f"Galaxy Cup, season {state.league.season}",
        font=font(38, bold=True),
        fill=INK,
    )
    if state.cup.winner:
        status = f"Winner: {state.cup.winner}"
    else:
        status = f"{len(state.cup.entrants)} teams still in"
    draw.text((MARGIN, 62), status, font=font(24), fill=GREY)
    name_font, bold_font, head_font = font(24), font(24, bold=True), font(20, bold=True)
    for column, matches in enumerate(rounds):
        x0 = boxes[column][0][0]
        draw.text((x0, TITLE_HEIGHT - 36), round_label(len(matches)), font=head_font, fill=GREY)
        for (x, y), match in zip(boxes[column], matches, strict=True):
            draw.rectangle((x, y, x + COLUMN_WIDTH, y + match_box_height()), outline=INK, width=2)
            draw.line(
                (x, y + LINE_HEIGHT, x + COLUMN_WIDTH, y + LINE_HEIGHT), fill=LIGHT_GREY, width=1
            )
            for line, team in enumerate((match.home, match.away)):
                top = y + line * LINE_HEIGHT
                won = match.winner is not None and match.winner == team
                if won:
                    draw.rectangle(
                        (x + 2, top + 3, x + 2 + WINNER_BAR, top + LINE_HEIGHT - 3), fill=GREEN
                    )
                label = team or "—"
                if len(label) > 20:
                    label = label[:19] + "…"
                draw.text(
                    (x + 18, top + LINE_HEIGHT // 2),
                    label,
                    font=bold_font if won else name_font,
                    fill=INK if team else GREY,
                    anchor="lm",
                )
                if won and match.score:
                    draw.text(
                        (x + COLUMN_WIDTH - 10, top + LINE_HEIGHT // 2),
                        winner_score(match),
                        font=bold_font,
                        fill=INK,
                        anchor="rm",
                    )
    draw_legend(draw, height, "winner, with the sets score; the first team named plays at home")
    return to_png(image)
