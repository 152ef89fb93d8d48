"""The animated GIF of one Rocketball move: the ball's path, a frame per step.

Frames (documented, and checked by the tests):
- 1 opening frame: the board before the move, the ball(s) where they start, the d4 roll(s);
- 1 frame per step index: frame i shows every ball after its step i (Assault's two balls move
  together, so their steps are paired by index and the longer list sets the count). The engine
  reports a turn on entering a square (vortex, bumper, twister, barricade) as its own step on the
  same square, so the player sees the ball arrive and then turn; edge bounces are steps too;
- 2 more frames when the move ends in a goal or an Assault collision: a flash, then the held
  result.
So `frames = 1 + max(len(steps)) + (2 if goal or collision else 0)`. The last frame is held
for LAST_FRAME_MS.

Squares the ball has crossed are tinted, so a still frame shows the path so far; the header's
second line says in words what the step did (the engine's step text).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.common import INK, VERMILION, YELLOW, to_gif
from render.rocketball import geometry as g
from render.rocketball.board import (
    base_layer,
    clear_square,
    draw_balls,
    draw_caption,
    draw_chips,
    draw_goal_labels,
    draw_header,
    draw_score_line,
    to_palette,
)
from render.rocketball.sprites import chip_sprite
from render.rocketball.view import BallView, BoardView, ChipView

STEP_MS = 550
FLASH_MS = 350
LAST_FRAME_MS = 2500
FINAL_EVENTS = ("goal", "collision")  # step kinds after which the move ends with a flash


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


def frame_count(paths: list[BallPath]) -> int:
    """How many frames `move_gif` draws for these paths (see the module docstring)."""
    steps = max((len(path.steps) for path in paths), default=0)
    finale = any(step.what in FINAL_EVENTS for path in paths for step in path.steps)
    return 1 + steps + (2 if finale else 0)


def _chip_at(chips: dict[tuple[int, int], ChipView], square: tuple[int, int]) -> ChipView | None:
    return chips.get(square)


def _flash_goal(base: Image.Image, end: str, *, bright: bool) -> None:
    """Fill the goal box: vermilion (flash), then yellow (held). The words go in the header, so
    the ball in the goal stays in plain view."""
    draw = ImageDraw.Draw(base)
    left, top, right, bottom = g.goal_box(end)
    draw.rectangle((left + 3, top + 3, right - 4, bottom - 4), fill=VERMILION if bright else YELLOW)


def _burst(base: Image.Image, centre: tuple[int, int], *, bright: bool) -> None:
    """An eight-pointed star behind the balls: the Assault collision."""
    draw = ImageDraw.Draw(base)
    cx, cy = centre
    points = []
    for index in range(16):
        radius = 46 if index % 2 == 0 else 20
        angle = index * math.pi / 8
        points.append((cx + math.sin(angle) * radius, cy - math.cos(angle) * radius))
    draw.polygon(points, fill=VERMILION if bright else YELLOW, outline=INK)


def move_frames(
    view: BoardView, paths: list[BallPath], *, final_score: dict[str, int] | None = None
) -> tuple[list[Image.Image], list[int]]:
    """RGB frames and their durations (ms) for the move described by `paths` from `view`."""
    base = base_layer(view)
    draw_goal_labels(base, view)
    draw_chips(base, view.chips)
    draw_header(base, view)
    chips = {(chip.column, chip.row): chip for chip in view.chips}
    balls = list(view.balls)
    trail: set[tuple[int, int]] = set()
    removed: set[tuple[int, int]] = set()
    for path in paths:
        ball = balls[path.ball]
        if ball.in_goal is None:
            trail.add((ball.column, ball.row))

    def render(caption: str) -> Image.Image:
        frame = base.copy()
        draw = ImageDraw.Draw(frame)
        for square in trail | removed:
            clear_square(draw, *square, highlighted=square in trail)
            chip = _chip_at(chips, square)
            if chip is not None and square not in removed:
                sprite = chip_sprite(chip.kind, chip.facing or "N")
                x, y = g.square_centre(*square)
                frame.paste(sprite, (x - sprite.width // 2, y - sprite.height // 2), sprite)
        draw_balls(frame, tuple(balls))
        draw_caption(frame, caption)
        return frame

    frames = [render(" · ".join(path.caption for path in paths))]
    durations = [STEP_MS]
    finale: tuple[str, BallView] | None = None
    for index in range(max((len(path.steps) for path in paths), default=0)):
        captions = []
        for path in paths:
            if index >= len(path.steps):
                continue
            step = path.steps[index]
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
            captions.append(f"{path.label}: {step.text}" if path.label else step.text)
        frames.append(render(" / ".join(captions)))
        durations.append(STEP_MS)
    if finale is not None:
        what, ball = finale
        if what == "goal" and ball.in_goal is not None:
            caption = f"GOAL! {view.names[view.goal_scorer[ball.in_goal]]} scores"
        else:
            caption = "Collision! The rocketballs explode."
        for bright in (True, False):
            frame = render(caption)
            if what == "goal" and ball.in_goal is not None:
                _flash_goal(frame, ball.in_goal, bright=bright)
                if final_score is not None and not bright:
                    draw_score_line(frame, view.names, final_score)
            else:
                _burst(frame, g.square_centre(ball.column, ball.row), bright=bright)
            draw_balls(frame, tuple(balls))
            frames.append(frame)
            durations.append(FLASH_MS)
    durations[-1] = LAST_FRAME_MS
    return frames, durations


def move_gif(
    view: BoardView, paths: list[BallPath], *, final_score: dict[str, int] | None = None
) -> bytes:
    """GIF bytes for the move: frames mapped to the board's fixed palette, last one held."""
    frames, durations = move_frames(view, paths, final_score=final_score)
    return to_gif([to_palette(frame) for frame in frames], frame_ms=durations)
