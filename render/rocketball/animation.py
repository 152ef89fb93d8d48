"""The animated GIF of one Rocketball move: the ball's path, a frame per step.

Frames (documented, and checked by the tests):
- 1 opening frame: the board before the move, the ball(s) where they start, the d4 roll(s);
- one ball: 1 frame per step the engine reports. A turn on entering a square (vortex, bumper,
  twister, barricade) is its own step on the same square, so the player sees the ball arrive
  and then turn; edge bounces are steps too;
- two balls (Assault, moving together): 1 frame per tick, a tick being one unit of movement of
  each ball with whatever happened on arrival (see `ticks`), so the frames show both balls
  where the engine had them at the same moment;
- 2 more frames when the move ends in a goal or an Assault collision: a flash, then the held
  result.
So one ball: `1 + len(steps) + (2 if goal or collision else 0)`; Assault: the same with the
longer ball's tick count in place of `len(steps)`. The last frame is held for LAST_FRAME_MS.

Squares the ball has crossed are tinted, so a still frame shows the path so far; the panel's
"what happens" lines say in words what the step did (the engine's step text).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from PIL import Image

from render.common import INK, VERMILION, YELLOW, to_gif
from render.rocketball import geometry as g
from render.rocketball.board import (
    Painter,
    base_layer,
    base_palette,
    clear_square,
    draw_balls,
    draw_chips,
    draw_goal_labels,
    draw_panel,
    draw_score,
    draw_status,
    round_colours,
    to_palette,
)
from render.rocketball.paint import PalettePainter, RGBPainter
from render.rocketball.sprites import chip_sprite
from render.rocketball.view import BallView, BoardView

CAPTION_BOX = g.STATUS_BOX  # a frame's words replace what happens next

STEP_MS = 550
FLASH_MS = 350
LAST_FRAME_MS = 2500
BURST_REACH = 47  # the collision star's outer radius + 1, in px
FINAL_EVENTS = ("goal", "collision")  # step kinds after which the move ends with a flash
# Step kinds that spend one unit of movement, each the start of a new tick. A goal counts when
# the ball flew in from the adjacent square (not when a mogul jump carried it in).
MOVING_STEPS = ("moved", "gust", "bounce")


@dataclass(frozen=True)
class PathStep:
    """A ball after one step of a move (drawing coordinates, row 0 = row 1)."""

    column: int
    row: int
    facing: str
    what: str  # the engine's step kind: "moved", "vortex", "bounce", "goal", ...
    text: str
    in_goal: str | None = None


@dataclass(frozen=True)
class BallPath:
    """One ball's move: where it started, the die roll and every step."""

    ball: int  # index into the view's balls
    roll: int
    steps: tuple[PathStep, ...]
    caption: str  # the roll in words, for the opening frame
    label: str = ""  # Assault: whose ball, put before each step's words


def ticks(start: tuple[int, int], steps: tuple[PathStep, ...]) -> list[list[PathStep]]:
    """A ball's steps grouped by unit of movement: each group opens with a step that spends one
    unit (a move, a gust push, a bounce, a goal from the next square) and holds what followed on
    arrival (a vortex or chip turn, a mogul jump, an Assault own-goal restart or collision)."""
    groups: list[list[PathStep]] = []
    previous = start
    for step in steps:
        here = (step.column, step.row)
        adjacent = abs(here[0] - previous[0]) + abs(here[1] - previous[1]) == 1
        opens = step.what in MOVING_STEPS or (step.what == "goal" and adjacent)
        if opens or not groups:
            groups.append([step])
        else:
            groups[-1].append(step)
        previous = here
    return groups


def _frames_of_steps(view: BoardView, paths: list[BallPath]) -> list[list[list[PathStep]]]:
    """Per path, the steps each frame shows: one step a frame for one ball, one tick a frame
    for two balls moving together."""
    if len(paths) == 1:
        return [[[step] for step in paths[0].steps]]
    starts = [(view.balls[path.ball].column, view.balls[path.ball].row) for path in paths]
    return [ticks(start, path.steps) for start, path in zip(starts, paths, strict=True)]


def frame_count(view: BoardView, paths: list[BallPath]) -> int:
    """How many frames `move_gif` draws for these paths (see the module docstring)."""
    groups = _frames_of_steps(view, paths)
    steps = max((len(per_path) for per_path in groups), default=0)
    finale = any(step.what in FINAL_EVENTS for path in paths for step in path.steps)
    return 1 + steps + (2 if finale else 0)


def _flash_goal(p: Painter, end: str, *, bright: bool) -> None:
    """Fill the goal box: vermilion (flash), then yellow (held). The words go in the panel, so
    the ball in the goal stays in plain view."""
    left, top, right, bottom = g.goal_box(end)
    colour = p.ink(VERMILION if bright else YELLOW)
    p.draw.rectangle((left + 3, top + 3, right - 4, bottom - 4), fill=colour)


def _burst(p: Painter, centre: tuple[int, int], *, bright: bool) -> None:
    """An eight-pointed star behind the balls: the Assault collision."""
    cx, cy = centre
    points = []
    for index in range(16):
        radius = BURST_REACH - 1 if index % 2 == 0 else 20
        angle = index * math.pi / 8
        points.append((cx + math.sin(angle) * radius, cy - math.cos(angle) * radius))
    p.draw.polygon(points, fill=p.ink(VERMILION if bright else YELLOW), outline=p.ink(INK))


Box = tuple[int, int, int, int]


@dataclass
class Frame:
    """One frame: the RGB picture, how long it shows, the boxes where it differs from the
    move's base board (so only those are mapped to the palette: the rest is shared), and the
    boxes where it can differ from the frame before (`since_previous`; None on the opening
    frame), so a GIF writer compares only there: the balls' squares then and now, the caption,
    the flash, and the squares that joined the trail or lost their chip."""

    image: Image.Image
    duration_ms: int
    changed: list[Box]
    since_previous: list[Box] | None = None


def _ball_box(ball: BallView) -> Box:
    if ball.in_goal is not None:
        return g.goal_box(ball.in_goal)
    return g.square_box(ball.column, ball.row)


def move_frames(
    view: BoardView,
    paths: list[BallPath],
    *,
    final_score: dict[str, int] | None = None,
    captions: bool = True,
    crisp: bool = False,
    palette: bool = False,
) -> tuple[Image.Image, list[Frame]]:
    """The base board (chips, no ball) and the frames of the move described by `paths`.

    `captions=False` leaves the panel of `view` as it is on every frame instead of writing
    each step's words there: the round image (round.py) does that, because words that change
    every frame cost a strip of every frame in the GIF. `crisp`: hard-edged sprites
    (sprites.py). `palette`: draw in the round's 16 colours (hard-edged sprites), not RGB."""

    def painter(image: Image.Image) -> Painter:
        return PalettePainter(image, round_colours()) if palette else RGBPainter(image)

    if palette:
        crisp = True
    base = base_palette(view) if palette else base_layer(view, crisp=crisp)
    draw_chips(painter(base), view.chips, crisp=crisp)
    draw_panel(painter(base), view)
    chips = {(chip.column, chip.row): chip for chip in view.chips}
    balls = list(view.balls)
    trail: set[tuple[int, int]] = set()
    removed: set[tuple[int, int]] = set()
    for path in paths:
        ball = balls[path.ball]
        if ball.in_goal is None:
            trail.add((ball.column, ball.row))

    # What the frame before drew that the next frame may not: its balls, caption and flash (the
    # finale adds the flash's boxes), and how it drew each trail square (tinted, chip removed).
    drawn_squares: dict[tuple[int, int], tuple[bool, bool]] = {}
    passing: list[Box] | None = None
    before: Image.Image | None = None  # the frame before, flash included

    def render(caption: str, duration_ms: int = STEP_MS) -> Frame:
        nonlocal drawn_squares, passing, before
        changed: list[Box] = [g.goal_box("N"), g.goal_box("S")]
        if captions:
            changed.append(CAPTION_BOX)
        ball_squares = {(ball.column, ball.row) for ball in balls if ball.in_goal is None}
        squares = {square: (square in trail, square in removed) for square in trail | removed}
        since = [g.square_box(*sq) for sq, how in squares.items() if drawn_squares.get(sq) != how]
        # Goal labels follow the balls into a goal: a ball in a goal has the goal as its box.
        now = [_ball_box(ball) for ball in balls] + ([CAPTION_BOX] if captions else [])
        since_previous = None if passing is None else [*passing, *now, *since]
        drawn_squares, passing = squares, now
        # A frame is the frame before with the boxes where they can differ put back to the base
        # board, and what lies in them drawn again whole (each square and both goals touching
        # them are put back whole first, so nothing is drawn twice over itself): the same
        # pixels as drawing the whole trail on a copy of the base, for a few squares' work.
        goals = [g.goal_box("N"), g.goal_box("S")]
        if before is None or since_previous is None:
            frame = base.copy()
            again, labels = list(squares), True
        else:
            frame = before.copy()
            restored = [_clip(box, base.height) for box in since_previous]
            again = [sq for sq in squares if _touches(g.square_box(*sq), restored)]
            labels = any(_touches(goal, restored) for goal in goals)
            restored += [g.square_box(*sq) for sq in again] + (goals if labels else [])
            for box in dict.fromkeys(restored):  # a ball's square is listed up to four times
                frame.paste(base.crop(box), box[:2])
        before = frame
        p = painter(frame)
        changed.extend(g.square_box(*square) for square in squares)
        for square in again:
            clear_square(p, *square, highlighted=square in trail)
            chip = chips.get(square)
            # A chip under a ball is drawn small beside it by draw_balls.
            if chip is not None and square not in removed and square not in ball_squares:
                p.sprite(
                    chip_sprite(chip.kind, chip.facing or "N", crisp=crisp),
                    g.square_centre(*square),
                )
        # Goal labels make room for a ball lying in the goal, so they follow the balls.
        if labels:
            draw_goal_labels(p, replace(view, balls=tuple(balls)))
        live_chips = {square: chip for square, chip in chips.items() if square not in removed}
        draw_balls(p, tuple(balls), live_chips, crisp=crisp)
        changed.extend(_ball_box(ball) for ball in balls)
        if captions:
            draw_status(p, caption)
        return Frame(frame, duration_ms, changed, since_previous)

    opening = " · ".join(path.caption for path in paths)
    frames = [render(opening)]
    finale: tuple[str, BallView] | None = None
    groups = _frames_of_steps(view, paths)
    for index in range(max((len(per_path) for per_path in groups), default=0)):
        step_texts = []
        for path, per_path in zip(paths, groups, strict=True):
            if index >= len(per_path):
                continue
            for step in per_path[index]:
                old = balls[path.ball]
                balls[path.ball] = BallView(
                    step.column, step.row, step.facing, owner=old.owner, in_goal=step.in_goal
                )
                if step.in_goal is None:
                    trail.add((step.column, step.row))
                if step.what == "barricade_blasted":
                    removed.add((step.column, step.row))
                if step.what in FINAL_EVENTS:
                    finale = (step.what, balls[path.ball])
            text = ", ".join(step.text for step in per_path[index])
            # The engine's step texts are clauses ("moves to a11"): make the caption a sentence.
            step_texts.append(
                f"{path.label}: {text}" if path.label else text[:1].upper() + text[1:]
            )
        frames.append(render(" / ".join(step_texts)))
    if finale is not None:
        what, ball = finale
        if what == "goal" and ball.in_goal is not None:
            caption = f"GOAL! {view.names[view.goal_scorer[ball.in_goal]]} scores"
        else:
            caption = "Collision! The rocketballs explode."
        for bright in (True, False):
            frame = render(caption, FLASH_MS)
            p = painter(frame.image)
            if what == "goal" and ball.in_goal is not None:
                _flash_goal(p, ball.in_goal, bright=bright)
                flashed = [g.goal_box(ball.in_goal)]
                if final_score is not None and not bright:
                    draw_score(p, view.names, final_score, view.goal_scorer)
                    flashed.append(g.SCORE_BOX)
            else:
                x, y = g.square_centre(ball.column, ball.row)
                _burst(p, (x, y), bright=bright)
                reach = BURST_REACH
                flashed = [(x - reach, y - reach, x + reach, y + reach)]
            frame.changed.extend(flashed)
            assert frame.since_previous is not None and passing is not None  # not the opening
            frame.since_previous.extend(flashed)
            passing.extend(flashed)  # the next frame draws over the flash
            draw_balls(p, tuple(balls), crisp=crisp)
            frames.append(frame)
    frames[-1].duration_ms = LAST_FRAME_MS
    return base, frames


def _touches(box: Box, others: list[Box]) -> bool:
    """Whether `box` shares a pixel with any of `others`."""
    return any(
        box[0] < other[2] and other[0] < box[2] and box[1] < other[3] and other[1] < box[3]
        for other in others
    )


def _clip(box: Box, height: int) -> Box:
    left, top, right, bottom = box
    return max(left, 0), max(top, 0), min(right, g.WIDTH), min(bottom, height)


def move_gif(
    view: BoardView, paths: list[BallPath], *, final_score: dict[str, int] | None = None
) -> bytes:
    """GIF bytes for the move: frames mapped to the board's fixed palette, last one held.

    The base board is mapped to the palette once; each frame re-maps only its changed boxes
    (mapping is per pixel, so the result is the same as mapping the whole frame, only faster).
    """
    base, frames = move_frames(view, paths, final_score=final_score)
    base_palette = to_palette(base)
    images = []
    for frame in frames:
        image = base_palette.copy()
        for box in (_clip(box, base.height) for box in frame.changed):
            image.paste(to_palette(frame.image.crop(box)), box[:2])
        images.append(image)
    return to_gif(images, frame_ms=[frame.duration_ms for frame in frames])
