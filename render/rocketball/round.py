"""One image per round (a round is one message on the live card): `render_round`.

A round is the roll (the ball moving; with Moguls perhaps an aim and a second move) and the
place step(s) after it. Its image is an animated GIF of the ball's path whose last frame is the
board after the round (the chip placed, the new score, what happens next), or the board PNG
when no ball moved (a resignation, say).

Size (under 30 KB a round on average, measured with bench/rocketball_render.py and
bench/rocketball_thread.py): a GIF compresses a board much worse than PNG does, so the round GIF
- uses the board's 16 exact colours (fewer colours make shorter LZW codes), written by gif.py
  with codes sized for 16 colours (Pillow's writer sizes them for 256) and each later frame as
  its changed rectangle, unchanged pixels transparent when that is smaller;
- keeps one panel on every frame: the score, then what happens next after the round, then the
  roll and the windbag ("South rolled 3 · Windbag: North · 52 chips in it"). Each frame then
  differs from the one before only around the ball, and the GIF stores just that patch; the
  changes at the end (the chip placed) are revealed patch by patch for the same reason;
- draws the sprites (chips, ball, edge arrows, legend icons) with hard edges and the smooth
  edges of text in greys only (paint.py).

Speed (a turn's image in about 10 ms of CPU, bench/render_turn.py): every frame is drawn straight into the
16 colours (board.paint_board, animation.move_frames(palette=True)): nothing is quantised. A
move's frame is drawn from the frame before, and says where it can differ from it: the writer
compares only there (bench/README.md, "The round GIF, less work a round").

The GIF opens on the board as it stood before the roll (what the card showed, its panel saying
who rolls), then the panel says what was rolled, then the ball moves. A roll due next is known
before the click, the dice being the match's seeded ones: `prepare_round` has the drawing
process draw that whole round while idle (render/idle.py), and the click that rolls takes it
as it was drawn; so does the round after the card's suggested chip when the bot rolls the next
d4. An aim due next is the player's choice, so only its opening is compressed ahead (half of a
round's time). Drawn ahead or not, the GIF is the same bytes.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from PIL import Image, ImageChops

from render import idle
from render.gif import compress
from render.rocketball import geometry as g
from render.rocketball.animation import LAST_FRAME_MS, STEP_MS, move_frames
from render.rocketball.board import paint_board, round_colours
from render.rocketball.from_state import ball_view, board_view, highlight_coords
from render.rocketball.gif import write_gif
from render.rocketball.paint import palette_template
from render.rocketball.render import _field, _is_move, ball_paths, render_board, turn_squares
from render.rocketball.view import BoardView
from rules.rocketball.actions import Action, Roll
from rules.rocketball.engine import apply
from rules.rocketball.state import PHASE_ROLL, PLAYER_NAMES, GameState
from rules.rocketball.turn import AIM, PLACE, ROLL, next_step

Box = tuple[int, int, int, int]


def round_palette() -> Image.Image:
    """The round GIF's palette: the board's exact colours, 16 (board.round_colours)."""
    return palette_template(round_colours())


def _segments(events: Sequence[Any]) -> list[list[Any]]:
    """The round's ball movements in order: the roll's move(s), then (Moguls) each aimed move.
    An aim starts a new segment: it is a separate action after the first move ended."""
    segments: list[list[Any]] = [[]]
    for event in events:
        if _field(event, "kind") == "aim" and segments[-1]:
            segments.append([])
        if _is_move(event):
            segments[-1].append(event)
    return [segment for segment in segments if segment]


def _rolls_text(segments: list[list[Any]]) -> str:
    """ "South rolled 3" (Assault: "3 and 2", one per ball; Moguls: "3, then 2")."""
    first = segments[0][0]
    rolls = [" and ".join(str(_field(event, "roll")) for event in segment) for segment in segments]
    return f"{PLAYER_NAMES[_field(first, 'player')]} rolled {', then '.join(rolls)}"


def render_round(
    before: GameState,
    events: Sequence[Any],
    after: GameState,
    names: dict[str, str] | None = None,
) -> tuple[bytes, str]:
    """One image for a round: (bytes, filename).

    `before`: the state the round started from (before the roll); `events`: every event of the
    round's actions, in order (what each `apply` returned, concatenated); `after`: the state
    after the round. Returns (GIF bytes, "round.gif") when a ball moved: the ball's path, then
    the board after the round as the held last frame; else (PNG bytes, "board.png").
    """
    if not _segments(events):
        return render_board(after, highlight=turn_squares(events), names=names), "board.png"
    before_view, after_view = board_view(before, names), board_view(after, names)
    with _keeping:
        ahead = _rounds.pop(_round_key(before_view, events, after_view), None)
        first = _kept.pop(_key(before_view), None)
    if ahead is None:
        ahead = _draw_round(before_view, events, after_view, first)
    return ahead, "round.gif"


def _draw_round(
    before_view: BoardView, events: Sequence[Any], after_view: BoardView, first: bytes | None
) -> bytes:
    """The round GIF (render_round) from the views of the boards before and after it; `first`:
    its opening frame compressed ahead, if it was."""
    highlight = highlight_coords(turn_squares(events))
    segments = _segments(events)
    rolled = _rolls_text(segments)
    note = f"{rolled} · {after_view.note}" if after_view.note else rolled
    view = replace(before_view, status=after_view.status, note=note)
    blasted: set[tuple[int, int]] = set()
    images: list[Image.Image] = []
    durations: list[int] = []
    hints: list[Box | None] = []  # where each frame can differ from the one before
    for segment in segments:
        balls = list(view.balls)
        for event in segment:
            index = _field(event, "ball", 0)
            start = ball_view(_field(event, "start_square"), _field(event, "start_facing"), None)
            balls[index] = replace(start, owner=balls[index].owner)
        chips = tuple(chip for chip in view.chips if (chip.column, chip.row) not in blasted)
        segment_view = replace(view, balls=tuple(balls), chips=chips)
        paths = ball_paths(segment, view.names)
        score = None
        for event in events:
            if _field(event, "kind") == "goal" and _field(event, "score"):
                score = dict(_field(event, "score"))
        _base, frames = move_frames(
            segment_view, paths, final_score=score, captions=False, palette=True
        )
        for frame in frames:  # a new segment's opening frame starts from a new base: None
            images.append(frame.image)
            durations.append(min(frame.duration_ms, STEP_MS))  # only the round's end is held
            hints.append(None if frame.since_previous is None else _union(frame.since_previous))
        for event in segment:
            for step in _field(event, "steps"):
                if _field(step, "what") == "barricade_blasted":
                    where = ball_view(_field(step, "square"), "N", None)
                    blasted.add((where.column, where.row))
    final_view = replace(after_view, note=note)
    final = paint_board(final_view, highlight=highlight)
    for image, box in _reveal(images[-1], final):
        images.append(image)
        durations.append(REVEAL_MS)
        hints.append(box)
    durations[-1] = LAST_FRAME_MS
    # The opening: the board as it stood, then the panel with the roll, then the move.
    opening = paint_board(before_view)
    announced = opening.copy()
    for box in ANNOUNCED:
        announced.paste(images[0].crop(box), box[:2])
    images[:0] = [opening, announced]
    durations[:0] = [OPENING_MS, ANNOUNCED_MS]
    hints[:0] = [None, _union(list(ANNOUNCED))]
    # Codes sized for 16 colours: gif.py. Every frame was drawn in the round colours
    # (PalettePainter): no index outside them.
    return write_gif(images, durations, boxes=hints, indices_known=True, first=first)


OPENING_MS = 300  # the board as the card showed it before the roll
ANNOUNCED_MS = 200  # the panel says what was rolled, before the ball sets off
ANNOUNCED = (g.STATUS_BOX, g.NOTE_BOX)  # the panel's lines a roll changes before the ball moves

# Made ahead by prepare_round, each taken by the round that uses it: opening frames
# compressed (about 20 KB each), by their view, and whole rounds drawn (about 25 KB), by
# everything they show (_round_key); the oldest of each dropped past its limit: an opening or
# a roll's round for 128 matches, the rounds of a card's one-click chips (three) for 128 too
# (about 12 MB at most in a drawing process). Filled by the thread that works ahead while turns
# may be drawn in others: under the lock.
_kept: dict[str, bytes] = {}
_rounds: dict[str, bytes] = {}
_keeping = threading.Lock()
KEPT = 128
KEPT_ROUNDS = 3 * KEPT


def _key(view: BoardView) -> str:
    """Everything the opening frame shows, as one exact key (a view holds dicts, so it is not
    hashable itself); the same view always paints the same pixels."""
    return repr(view)


def _round_key(before: BoardView, events: Sequence[Any], after: BoardView) -> str:
    """Everything a round GIF is drawn from (`_draw_round`), as one exact key: the events are
    dataclasses of plain values, whose repr says all of them."""
    return f"{_key(before)}\n{events!r}\n{_key(after)}"


def _keep(kept: dict[str, bytes], key: str, data: bytes, limit: int = KEPT) -> None:
    with _keeping:
        kept[key] = data
        while len(kept) > limit:
            del kept[next(iter(kept))]


def prepare_round(
    state: GameState,
    names: dict[str, str] | None = None,
    *,
    likely: Sequence[Action] = (),
    rolled_for: frozenset[str] = frozenset(),
) -> None:
    """What can be drawn of the next round before the click that starts it, drawn while this
    drawing process is idle (render/idle.py; nothing in a process that does not work ahead):

    - a roll is due: the whole round. The d4 comes from the match's seeded dice (committed to
      when the match began, docs/rules/rocketball.md "Records and fair dice"), so the roll and
      the ball's path are known to the engine already; the click that rolls finds its GIF
      drawn, and nobody sees it before. Its opening is kept as well, for a click whose round
      turns out longer (a computer placing a chip in the same message);
    - a Moguls aim is due: the direction is the player's, so only the opening frame, the board
      as it stands, compressed (half of the round's time);
    - a chip is due and the bot rolls the next d4 (`rolled_for`: the sides that left their roll
      to it): the round after each `likely` chip (those the card places in one click, its
      suggestion first), whose roll is the seeded dice's too; the likeliest first in every
      match (idle.later's rank). A chip placed through the square menus, two clicks later, has
      its round drawn at its click.

    Any other next step moves no ball: its image is the board PNG, which opens on nothing.
    Nothing drawn ahead is ever shown but by the round it was drawn for (`_round_key`)."""
    if not idle.running():
        return
    kind = next_step(state).kind
    if kind == PLACE and likely:
        key = _key(board_view(state, names))
        for rank, chip in enumerate(likely):
            idle.later(
                ("rocketball round after", key, repr(chip)),
                lambda chip=chip: _draw_ahead_after(state, chip, names, rolled_for),
                rank,
            )
        return
    if kind not in (ROLL, AIM):
        return
    view = board_view(state, names)
    key = _key(view)
    with _keeping:
        if key in _kept:
            return

    def work_ahead() -> None:
        codes = compress(paint_board(view))
        _keep(_kept, key, codes)
        if kind == ROLL:
            after, events = apply(state, Roll())
            after_view = board_view(after, names)
            gif = _draw_round(view, events, after_view, codes)
            _keep(_rounds, _round_key(view, events, after_view), gif, KEPT_ROUNDS)

    idle.later(("rocketball round", key), work_ahead)


def _draw_ahead_after(
    state: GameState, chip: Action, names: dict[str, str] | None, rolled_for: frozenset[str]
) -> None:
    """The round the bot's roll makes after `chip` is placed (prepare_round), kept by its key;
    nothing when the next roll is a player's own."""
    placed, _ = apply(state, chip)
    if placed.phase != PHASE_ROLL or placed.to_move not in rolled_for:
        return
    after, events = apply(placed, Roll())
    if not _segments(events):
        return
    view, after_view = board_view(placed, names), board_view(after, names)
    gif = _draw_round(view, events, after_view, None)
    _keep(_rounds, _round_key(view, events, after_view), gif, KEPT_ROUNDS)


def _union(boxes: list[Box]) -> Box:
    return (
        min(box[0] for box in boxes),
        min(box[1] for box in boxes),
        max(box[2] for box in boxes),
        max(box[3] for box in boxes),
    )


REVEAL_MS = 40  # each patch of the final board appears this long after the previous one


# The parts of the board that can change between two frames besides the squares: the panel's
# score, what happens next and the note, and the goals.
PANEL_AND_GOALS: tuple[Box, ...] = (
    g.SCORE_BOX,
    g.STATUS_BOX,
    g.NOTE_BOX,
    g.goal_box("N"),
    g.goal_box("S"),
)


def _changed_boxes(difference: Image.Image) -> list[Box]:
    """The parts of the board that can change (PANEL_AND_GOALS, then the squares row by row)
    where `difference` is not zero. The squares are read a row at a time, the row's projection
    on the x axis saying which of its squares differ: 16 crops instead of one per box."""
    changed = [box for box in PANEL_AND_GOALS if difference.crop(box).getbbox() is not None]
    left, right = g.FIELD_X, g.FIELD_X + g.FIELD_W
    field = difference.crop((left, g.FIELD_Y, right, g.FIELD_Y + g.FIELD_H))
    rows = field.getprojection()[1]
    for row in range(g.ROWS):
        if not any(rows[row * g.CELL : (row + 1) * g.CELL]):
            continue
        band = field.crop((0, row * g.CELL, g.FIELD_W, (row + 1) * g.CELL))
        columns = band.getprojection()[0]
        changed += [
            g.square_box(column, row)
            for column in range(g.COLUMNS)
            if any(columns[column * g.CELL : (column + 1) * g.CELL])
        ]
    return changed


def _merged(boxes: list[Box]) -> list[Box]:
    """Neighbouring boxes merged while the union wastes less than two squares of area."""
    boxes = list(boxes)
    merged = True
    while merged:
        merged = False
        for i in range(len(boxes)):
            for j in range(i + 1, len(boxes)):
                a, b = boxes[i], boxes[j]
                union = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
                if _area(union) <= _area(a) + _area(b) + 2 * g.CELL * g.CELL:
                    boxes[i] = union
                    del boxes[j]
                    merged = True
                    break
            if merged:
                break
    return boxes


def _area(box: Box) -> int:
    return (box[2] - box[0]) * (box[3] - box[1])


def _reveal(previous: Image.Image, final: Image.Image) -> list[tuple[Image.Image, Box | None]]:
    """Frames going from `previous` to `final` one changed patch at a time, ending on `final`,
    each with the patch it changed.

    A GIF frame stores the one rectangle around everything that changed since the frame
    before: the panel and a chip placed far from the ball would make that nearly the whole
    board, so each patch gets its own short frame instead."""
    difference = ImageChops.difference(previous, final)
    changed = _changed_boxes(difference)
    frames: list[tuple[Image.Image, Box | None]] = []
    current = previous
    for box in _merged(changed):
        current = current.copy()
        current.paste(final.crop(box), box[:2])
        frames.append((current, box))
    for box in changed:  # anything left outside the boxes that can change: the whole board
        difference.paste(0, box)
    if not frames or difference.getbbox() is not None:
        frames.append((final, None))
    return frames
