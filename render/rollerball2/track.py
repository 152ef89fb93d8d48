"""The match "track" image: what a spectator needs to follow a Rollerball II match on a phone.

Score (visitors first, as the seed's scoresheet), period and clock, FACs left in the period, who
has the ball and what the next card is read for, both line-ups (the ball handler lit), and the
penalty box with the cards each penalised player still has to sit out. Before the first card of
a match with private line-ups, the line-ups are not shown: only who has handed one in. Nothing
here reveals the seed or the order of the deck.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.common import BLUE, INK, ORANGE, PAPER, VERMILION
from render.rollerball2.palette import paint_png
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
from render.textsize import smallest_font
from rules.prose import plural, possessive
from rules.rollerball2.cards import SECTION_HEADINGS
from rules.rollerball2.content import SLOTS
from rules.rollerball2.state import (
    AWAY,
    HOME,
    OVERTIME_PERIOD,
    PERIOD_FACS,
    PHASE_OVER,
    PHASE_SETUP,
    MatchState,
)

WIDTH = 800
MARGIN = 16
SIDE_COLOURS = {AWAY: (BLUE, PAPER), HOME: (ORANGE, INK)}
HANDLER_SHADE = (255, 226, 120)
ROW_SHADE = (238, 235, 225)
NOTE_INK = (70, 70, 70)
ROW_SIZE = 19
EXPERIENCE_LETTER = {"star": "S", "veteran": "V", "rookie": "R"}
NEXT_SECTION = {
    "fire": SECTION_HEADINGS["ball_fires"],
    "action": SECTION_HEADINGS["action"],
    "event": SECTION_HEADINGS["event"],
    "biker_id": SECTION_HEADINGS["biker_id"],
    "attack": "ATTACK",
}
PENDING_WORDS = {
    "dice": "roll the die",
    "catcher_choice": "catcher's choice: roll or draw",
    "defensive_biker": "pick a biker to answer the shot",
    "assist_biker": "pick the biker who assisted",
    "pass_scorer": "pick the skater who scores",
}


@dataclass(frozen=True)
class LineupRow:
    slot: str
    text: str  # "#6 Jonathan E." or "empty" / "man short (4)"
    letter: str  # S / V / R, empty for an empty slot
    has_ball: bool = False


@dataclass(frozen=True)
class TrackFace:
    """What the image shows, read from the match state."""

    names: dict[str, str]
    scores: dict[str, int]
    period_line: str
    ball_line: str
    next_line: str
    lineups: dict[str, tuple[LineupRow, ...]]
    lineup_notes: dict[str, str]  # setup phase: "line-up handed in" instead of rows
    penalty_box: tuple[tuple[str, str, str], ...]  # (side, "#12 Name", "4 FACs left")


def _period_line(state: MatchState) -> str:
    if state.phase == PHASE_OVER:
        return f"Final after {state.fac_count} FACs"
    period = "Overtime" if state.period == OVERTIME_PERIOD else f"Period {state.period}"
    seconds = state.period_fac * 30
    left = PERIOD_FACS - state.period_fac
    return f"{period} · {seconds // 60:02d}:{seconds % 60:02d} · {left} FACs left"


def _ball_lines(state: MatchState) -> tuple[str, str]:
    if state.phase == PHASE_OVER:
        return "The match is over.", ""
    if state.phase == PHASE_SETUP:
        return "Waiting for both line-ups.", ""
    if state.control and state.handler:
        team = state.team(state.control)
        number = team.lineup.get(state.handler)
        who = f"#{number} {team.card(number).name}" if number is not None else state.handler
        ball = f"Ball: {team.roster.team}, {state.handler} {who}"
    else:
        ball = "Loose ball: the next card fires it."
    if state.pending is not None:
        coach = state.team(state.pending["team"]).roster.team
        words = PENDING_WORDS.get(state.pending["kind"], state.pending["kind"])
        return ball, f"Waiting for {possessive(coach)} coach: {words}"
    return ball, f"Next card: {NEXT_SECTION.get(state.phase, state.phase)}"


def _lineup_rows(state: MatchState, side: str) -> tuple[LineupRow, ...]:
    team = state.team(side)
    rows = []
    for slot in SLOTS:
        if slot not in team.lineup:
            continue
        number = team.lineup[slot]
        if number is None:
            locked = team.locked.get(slot, 0) - state.fac_count
            text = f"man short ({locked} FACs)" if locked > 0 else "empty"
            rows.append(LineupRow(slot, text, ""))
            continue
        card = team.card(number)
        has_ball = state.control == side and state.handler == slot
        rows.append(
            LineupRow(slot, f"#{number} {card.name}", EXPERIENCE_LETTER[card.experience], has_ball)
        )
    return tuple(rows)


def _penalty_box(state: MatchState) -> tuple[tuple[str, str, str], ...]:
    entries = []
    for side in (AWAY, HOME):
        team = state.team(side)
        for number, out in sorted(team.out.items()):
            if out.reason != "penalty":
                continue
            if out.until == "fac":
                left = max(0, out.fac - state.fac_count)
                length = f"{plural(left):FAC} left"
            elif out.until == "period":
                length = "rest of the period"
            else:
                length = "ejected for the match"
            entries.append((side, f"#{number} {team.card(number).name}", length))
    return tuple(entries)


def track_face(state: MatchState) -> TrackFace:
    names = {side: state.team(side).roster.team for side in (HOME, AWAY)}
    setup = state.phase == PHASE_SETUP
    ball, next_line = _ball_lines(state)
    return TrackFace(
        names=names,
        scores={side: state.team(side).score for side in (HOME, AWAY)},
        period_line=_period_line(state),
        ball_line=ball,
        next_line=next_line,
        lineups={side: () if setup else _lineup_rows(state, side) for side in (HOME, AWAY)},
        lineup_notes={
            side: ("line-up handed in" if side in state.submitted else "waiting for the line-up")
            if setup
            else ""
            for side in (HOME, AWAY)
        },
        penalty_box=_penalty_box(state),
    )


# --- layout and drawing ----------------------------------------------------------------------


@dataclass
class TrackLayout:
    width: int
    height: int
    texts: list[PlacedText]
    fills: list[tuple[Rect, tuple[int, int, int]]]
    handler_rows: list[Rect]


def layout_track(face: TrackFace) -> TrackLayout:
    texts: list[PlacedText] = []
    fills: list[tuple[Rect, tuple[int, int, int]]] = []
    handler_rows: list[Rect] = []
    half = (WIDTH - 2 * MARGIN) // 2
    # Score boxes: visitors left, home right.
    top = MARGIN
    box_height = 110
    for index, side in enumerate((AWAY, HOME)):
        left = MARGIN + index * half
        box = (
            left + (0 if index == 0 else 4),
            top,
            left + half - (4 if index == 0 else 0),
            top + box_height,
        )
        background, ink = SIDE_COLOURS[side]
        fills.append((box, background))
        label = "VISITORS" if side == AWAY else "HOME"
        texts += place_lines(
            [label], (box[0] + 12, box[1] + 6, box[2] - 90, box[1] + 30), 17, bold=True, fill=ink
        )
        name_width = box[2] - box[0] - 24 - 90
        size, lines = fit_lines(face.names[side], name_width, 70, (30, 26, 22, 19), bold=True)
        lines = clip_lines(lines, size, name_width, 2, bold=True)
        texts += place_lines(
            lines,
            (box[0] + 12, box[1] + 32, box[2] - 90, box[3] - 6),
            size,
            bold=True,
            fill=ink,
            valign="middle",
        )
        texts += place_lines(
            [str(face.scores[side])],
            (box[2] - 100, box[1], box[2] - 8, box[3]),
            64,
            bold=True,
            fill=ink,
            align="right",
            valign="middle",
        )
    top += box_height + 10
    inner = WIDTH - 2 * MARGIN
    for text, size, bold in (
        (face.period_line, 24, True),
        (face.ball_line, 22, True),
        (face.next_line, 21, False),
    ):
        if not text:
            continue
        lines = clip_lines(wrap(text, inner, size, bold=bold), size, inner, 2, bold=bold)
        box = (MARGIN, top, WIDTH - MARGIN, top + len(lines) * line_height(size, bold=bold))
        texts += place_lines(lines, box, size, bold=bold, fill=INK)
        top = box[3] + 4
    top += 8
    # Line-ups, side by side.
    heading_height = line_height(20, bold=True) + 8
    row_height = line_height(ROW_SIZE, bold=True) + 6
    columns_top = top
    bottoms = []
    for index, side in enumerate((AWAY, HOME)):
        left = MARGIN + index * (half + 4)
        right = left + half - 4
        background, ink = SIDE_COLOURS[side]
        fills.append(((left, top, right, top + heading_height), background))
        title = f"{face.names[side]} line-up"
        title_lines = clip_lines(
            wrap(title, right - left - 12, 20, bold=True), 20, right - left - 12, 1, bold=True
        )
        texts += place_lines(
            title_lines,
            (left, top, right, top + heading_height),
            20,
            bold=True,
            fill=ink,
            valign="middle",
            padding=6,
        )
        y = top + heading_height
        if face.lineup_notes[side]:
            texts += place_lines(
                [face.lineup_notes[side]],
                (left, y, right, y + row_height),
                ROW_SIZE,
                fill=INK,
                valign="middle",
                padding=6,
            )
            y += row_height
        for row_index, row in enumerate(face.lineups[side]):
            box = (left, y, right, y + row_height)
            if row.has_ball:
                fills.append((box, HANDLER_SHADE))
                handler_rows.append(box)
            elif row_index % 2:
                fills.append((box, ROW_SHADE))
            slot_box = (left, y, left + 96, y + row_height)
            texts += place_lines(
                [row.slot], slot_box, 16, bold=True, fill=INK, valign="middle", padding=6
            )
            name_box = (left + 96, y, right - 30, y + row_height)
            fill = INK if row.letter else VERMILION
            name_lines = clip_lines(
                [row.text], ROW_SIZE, name_box[2] - name_box[0] - 6, 1, bold=bool(row.letter)
            )
            texts += place_lines(
                name_lines,
                name_box,
                ROW_SIZE,
                bold=bool(row.letter),
                fill=fill,
                valign="middle",
                padding=3,
            )
            if row.letter:
                texts += place_lines(
                    [row.letter],
                    (right - 30, y, right, y + row_height),
                    ROW_SIZE,
                    bold=True,
                    fill=INK,
                    align="center",
                    valign="middle",
                )
            y += row_height
        bottoms.append(y)
    top = max([columns_top + heading_height, *bottoms]) + 14
    # Penalty box.
    fills.append(((MARGIN, top, WIDTH - MARGIN, top + heading_height), INK))
    texts += place_lines(
        ["PENALTY BOX"],
        (MARGIN, top, WIDTH - MARGIN, top + heading_height),
        20,
        bold=True,
        fill=PAPER,
        valign="middle",
        padding=8,
    )
    top += heading_height
    entries = face.penalty_box or (("", "Nobody in the box", ""),)
    for side, who, length in entries:
        box = (MARGIN, top, WIDTH - MARGIN, top + row_height)
        if side:
            fills.append(((MARGIN, top, MARGIN + 8, top + row_height), SIDE_COLOURS[side][0]))
            texts += place_lines(
                [face.names[side]],
                (MARGIN + 14, top, MARGIN + 250, top + row_height),
                ROW_SIZE,
                bold=True,
                fill=INK,
                valign="middle",
            )
        who_lines = clip_lines([who], ROW_SIZE, 290, 1, bold=False)
        texts += place_lines(
            who_lines,
            (MARGIN + 250, top, MARGIN + 550, top + row_height),
            ROW_SIZE,
            fill=INK,
            valign="middle",
        )
        texts += place_lines(
            [length],
            (MARGIN + 550, top, WIDTH - MARGIN, top + row_height),
            ROW_SIZE,
            bold=True,
            fill=VERMILION,
            valign="middle",
        )
        top = box[3]
    top += 8
    legend = "S STAR · V VETERAN · R ROOKIE · lit row: has the ball · FACs left: cards until the Penalty Expires marker"
    legend_lines = wrap(legend, inner, 16)
    box = (MARGIN, top, WIDTH - MARGIN, top + len(legend_lines) * line_height(16))
    texts += place_lines(legend_lines, box, 16, fill=NOTE_INK)
    return TrackLayout(WIDTH, box[3] + MARGIN, texts, fills, handler_rows)


def track_image(face: TrackFace) -> Image.Image:
    layout = layout_track(face)
    image = Image.new("RGB", (layout.width, layout.height), PAPER)
    draw = ImageDraw.Draw(image)
    for box, colour in layout.fills:
        draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), fill=colour)
    for box in layout.handler_rows:
        draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), outline=ORANGE, width=3)
    draw_texts(draw, layout.texts)
    draw.rectangle((0, 0, layout.width - 1, layout.height - 1), outline=INK, width=3)
    return image


def layout_png(layout: TrackLayout) -> bytes:
    """A track, scoreboard or roster layout as an indexed PNG (palette.py): the handler's row
    framed in orange, the image in ink."""
    return paint_png(
        (layout.width, layout.height),
        PAPER,
        fills=layout.fills,
        texts=layout.texts,
        outlines=[(box, ORANGE, 3) for box in layout.handler_rows]
        + [((0, 0, layout.width, layout.height), INK, 3)],
        level=3,
    )


# --- The phone images: the scoreboard and the line-ups, each on its own ----------------------
# The track above is 800 px wide: a phone shows it 298 px wide, its 16-19 px type at 6-7 px.
# Split in two, each PHONE_WIDTH (480) px wide with type from 18 px (11.2 px on the phone):
# the scoreboard (score, clock, ball, next card, penalty box) and the roster (both line-ups).

PHONE_WIDTH = 480
PHONE_MARGIN = 14
SMALL = smallest_font(PHONE_WIDTH)  # the smallest type: 18 px, 11.2 px on a 390-px phone
PHONE_ROW = 18


def _score_band(face: TrackFace, side: str, top: int) -> tuple[list[PlacedText], Rect]:
    """The team's name on its colour, VISITORS / HOME small beside the score, large on the
    right: one line a team, so the scoreboard leaves a phone's screen room for the rest."""
    ink = SIDE_COLOURS[side][1]
    box = (PHONE_MARGIN, top, PHONE_WIDTH - PHONE_MARGIN, top + 44)
    score_width, label_width = 76, 100
    texts = place_lines(
        ["VISITORS" if side == AWAY else "HOME"],
        (box[2] - score_width - label_width, box[1], box[2] - score_width, box[3]),
        SMALL,
        bold=True,
        fill=ink,
        align="right",
        valign="middle",
    )
    room = box[2] - box[0] - 20 - score_width - label_width
    size, lines = fit_lines(face.names[side], room, 34, (26, 24, 22, 20, 18), bold=True)
    texts += place_lines(
        clip_lines(lines, size, room, 1, bold=True),
        (box[0] + 10, box[1], box[2] - score_width - label_width, box[3]),
        size,
        bold=True,
        fill=ink,
        valign="middle",
    )
    texts += place_lines(
        [str(face.scores[side])],
        (box[2] - score_width, box[1], box[2] - 10, box[3]),
        40,
        bold=True,
        fill=ink,
        align="right",
        valign="middle",
    )
    return texts, box


def layout_scoreboard(face: TrackFace) -> TrackLayout:
    """Score (visitors first), period and clock, who has the ball, and the penalty box (when
    somebody is in it): one phone image, short enough to leave a phone's screen room for the
    card's text and controls (what the next card is read for is in the card's text)."""
    texts: list[PlacedText] = []
    fills: list[tuple[Rect, tuple[int, int, int]]] = []
    inner = PHONE_WIDTH - 2 * PHONE_MARGIN
    top = PHONE_MARGIN
    for side in (AWAY, HOME):
        band_texts, box = _score_band(face, side, top)
        fills.append((box, SIDE_COLOURS[side][0]))
        texts += band_texts
        top = box[3] + 6
    top += 4
    # What the next card is read for is the card's own "Next:" line, not the scoreboard's.
    for text, size, bold in ((face.period_line, 20, True), (face.ball_line, SMALL, True)):
        if not text:
            continue
        lines = clip_lines(wrap(text, inner, size, bold=bold), size, inner, 2, bold=bold)
        box = (
            PHONE_MARGIN,
            top,
            PHONE_WIDTH - PHONE_MARGIN,
            top + len(lines) * line_height(size, bold=bold),
        )
        texts += place_lines(lines, box, size, bold=bold, fill=INK)
        top = box[3] + 4
    if not face.penalty_box:
        # The penalty box, its heading and legend are drawn when somebody is in it: an empty
        # one would cost a phone's screen a line the card's text and controls need.
        return TrackLayout(PHONE_WIDTH, top + PHONE_MARGIN, texts, fills, [])
    top += 8
    heading = line_height(18, bold=True) + 10
    fills.append(((PHONE_MARGIN, top, PHONE_WIDTH - PHONE_MARGIN, top + heading), INK))
    texts += place_lines(
        ["PENALTY BOX"],
        (PHONE_MARGIN, top, PHONE_WIDTH - PHONE_MARGIN, top + heading),
        18,
        bold=True,
        fill=PAPER,
        valign="middle",
        padding=8,
    )
    top += heading + 4
    for index, (side, who, length) in enumerate(face.penalty_box):
        # One line each, the time left on the right: the scoreboard stays short on a phone.
        left = PHONE_MARGIN + 16
        length_width = 150
        room = PHONE_WIDTH - PHONE_MARGIN - left - 6 - length_width
        name = clip_lines([f"{face.names[side]} {who}"], PHONE_ROW, room, 1, bold=True)
        row = line_height(PHONE_ROW, bold=True)
        box = (PHONE_MARGIN, top, PHONE_WIDTH - PHONE_MARGIN, top + row + 8)
        if index % 2:
            fills.append((box, ROW_SHADE))
        fills.append(((PHONE_MARGIN, top, PHONE_MARGIN + 8, box[3]), SIDE_COLOURS[side][0]))
        texts += place_lines(
            name, (left, top + 4, left + room, box[3]), PHONE_ROW, bold=True, fill=INK
        )
        texts += place_lines(
            clip_lines([length], PHONE_ROW, length_width - 6, 1, bold=True),
            (box[2] - length_width, top + 4, box[2] - 6, box[3]),
            PHONE_ROW,
            bold=True,
            fill=VERMILION,
            align="right",
        )
        top = box[3]
    top += 8
    legend = "FACs left: cards until the Penalty Expires marker"
    lines = wrap(legend, inner, SMALL)
    box = (PHONE_MARGIN, top, PHONE_WIDTH - PHONE_MARGIN, top + len(lines) * line_height(SMALL))
    texts += place_lines(lines, box, SMALL, fill=NOTE_INK)
    return TrackLayout(PHONE_WIDTH, box[3] + PHONE_MARGIN, texts, fills, [])


def layout_roster(face: TrackFace) -> TrackLayout:
    """Both line-ups, visitors first, one row a slot (the ball handler lit); before both are
    handed in (private line-ups), only who has handed one in."""
    texts: list[PlacedText] = []
    fills: list[tuple[Rect, tuple[int, int, int]]] = []
    handler_rows: list[Rect] = []
    left, right = PHONE_MARGIN, PHONE_WIDTH - PHONE_MARGIN
    top = PHONE_MARGIN
    heading = line_height(20, bold=True) + 10
    row_height = line_height(PHONE_ROW, bold=True) + 6
    slot_width, letter_width = 96, 34
    for side in (AWAY, HOME):
        background, ink = SIDE_COLOURS[side]
        fills.append(((left, top, right, top + heading), background))
        label = "VISITORS" if side == AWAY else "HOME"
        title = f"{label}: {face.names[side]}"
        room = right - left - 16
        texts += place_lines(
            clip_lines(wrap(title, room, 20, bold=True), 20, room, 1, bold=True),
            (left, top, right, top + heading),
            20,
            bold=True,
            fill=ink,
            valign="middle",
            padding=8,
        )
        top += heading
        if face.lineup_notes[side]:
            box = (left, top, right, top + row_height)
            texts += place_lines(
                [face.lineup_notes[side]], box, PHONE_ROW, fill=INK, valign="middle", padding=8
            )
            top += row_height
        for index, row in enumerate(face.lineups[side]):
            box = (left, top, right, top + row_height)
            if row.has_ball:
                fills.append((box, HANDLER_SHADE))
                handler_rows.append(box)
            elif index % 2:
                fills.append((box, ROW_SHADE))
            texts += place_lines(
                [row.slot],
                (left, top, left + slot_width, top + row_height),
                SMALL,
                bold=True,
                fill=INK,
                valign="middle",
                padding=8,
            )
            name_box = (left + slot_width, top, right - letter_width, top + row_height)
            bold = bool(row.letter)
            name = clip_lines([row.text], PHONE_ROW, name_box[2] - name_box[0] - 6, 1, bold=bold)
            texts += place_lines(
                name,
                name_box,
                PHONE_ROW,
                bold=bold,
                fill=INK if row.letter else VERMILION,
                valign="middle",
                padding=3,
            )
            if row.letter:
                texts += place_lines(
                    [row.letter],
                    (right - letter_width, top, right, top + row_height),
                    PHONE_ROW,
                    bold=True,
                    fill=INK,
                    align="center",
                    valign="middle",
                )
            top += row_height
        top += 12
    legend = "S star · V veteran · R rookie · lit row: has the ball"
    lines = wrap(legend, right - left, SMALL)
    box = (left, top, right, top + len(lines) * line_height(SMALL))
    texts += place_lines(lines, box, SMALL, fill=NOTE_INK)
    return TrackLayout(PHONE_WIDTH, box[3] + PHONE_MARGIN, texts, fills, handler_rows)
