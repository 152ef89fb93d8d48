"""The balls' movement as an animated GIF over the whole board (the header, the players and the
legend too): one frame where they started, then frames sliding each ball square by square (in
lockstep, as the engine moved them), each ball leaving a line along the squares it passed, holding
on the end. The last frame is the board after the move with the balls' paths marked, so the card
shows this one image instead of the board and a second, near-identical one."""

from __future__ import annotations

from PIL import Image, ImageDraw

from render.gif import write_gif
from render.rollerball.board import board_image, draw_ball
from render.rollerball.layout import cell_size, square_centre
from rules.rollerball import BallsMoved, GameState

SLIDE_STEPS = 2
FRAME_MS = 160
HOLD_MS = 1200
Box = tuple[int, int, int, int]
PATH = (200, 40, 40)  # a ball's path: red, apart from the track's brown lines it runs along
PATH_WIDTH = 5


def render_movement(
    state: GameState, moved: BallsMoved, names: dict[int, str] | None = None
) -> bytes:
    size = state.settings.board
    cell = cell_size(size)
    base = board_image(state, names, balls=False)
    trail = ImageDraw.Draw(base)  # the paths so far, under the balls
    path_colour = base.palette.getcolor(PATH, base) if base.palette else PATH
    frames: list[Image.Image] = []
    durations: list[int] = []
    hints: list[Box | None] = []  # where each frame can differ from the one before
    reach = int(cell * 0.3) + 4  # a ball's radius and outline
    drawn: list[Box] = []
    positions = [{f.ball: (f.square, f.state) for f in frame} for frame in moved.frames]
    for index, current in enumerate(positions):
        previous = positions[index - 1] if index else current
        steps = SLIDE_STEPS if index else 1
        for step in range(1, steps + 1):
            t = step / steps
            for ball, (square, _) in current.items():
                if ball in previous and previous[ball][0] != square:
                    x0, y0 = square_centre(size, previous[ball][0])
                    x1, y1 = square_centre(size, square)
                    end = (x0 + (x1 - x0) * t, y0 + (y1 - y0) * t)
                    trail.line([(x0, y0), end], fill=path_colour, width=PATH_WIDTH)
            frame = base.copy()
            draw = ImageDraw.Draw(frame)
            boxes: list[Box] = []
            for ball, (square, state_name) in current.items():
                x1, y1 = square_centre(size, square)
                x0, y0 = square_centre(size, previous[ball][0]) if ball in previous else (x1, y1)
                x, y = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
                draw_ball(draw, (x, y), state_name, cell)
                boxes.append(
                    (int(x) - reach, int(y) - reach, int(x) + reach + 1, int(y) + reach + 1)
                )
            hints.append(_union(drawn + boxes) if frames and (drawn or boxes) else None)
            drawn = boxes
            frames.append(frame)
            durations.append(FRAME_MS)
    durations[-1] = HOLD_MS
    # The balls only move: each frame is written as the patch around them (render/gif.py),
    # compared only where they were and are.
    return write_gif(frames, durations, boxes=hints)


def _union(boxes: list[Box]) -> Box:
    return (
        min(box[0] for box in boxes),
        min(box[1] for box in boxes),
        max(box[2] for box in boxes),
        max(box[3] for box in boxes),
    )
