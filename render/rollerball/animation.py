"""The balls' movement as an animated GIF: one frame where they started, then frames sliding
each ball square by square (in lockstep, as the engine moved them), holding on the end."""

from __future__ import annotations

from PIL import Image, ImageDraw

from render.common import to_gif
from render.rollerball.board import board_image, draw_ball
from render.rollerball.layout import board_bottom, cell_size, image_width, square_centre
from rules.rollerball import BallsMoved, GameState

SLIDE_STEPS = 2
FRAME_MS = 160
HOLD_MS = 1200


def render_movement(
    state: GameState, moved: BallsMoved, names: dict[int, str] | None = None
) -> bytes:
    size = state.settings.board
    cell = cell_size(size)
    # the board part only: one idea per image, and a smaller GIF
    background = board_image(state, names, balls=False).crop(
        (0, 0, image_width(size), board_bottom(size))
    )
    base = background
    frames: list[Image.Image] = []
    durations: list[int] = []
    positions = [{f.ball: (f.square, f.state) for f in frame} for frame in moved.frames]
    for index, current in enumerate(positions):
        previous = positions[index - 1] if index else current
        steps = SLIDE_STEPS if index else 1
        for step in range(1, steps + 1):
            t = step / steps
            frame = base.copy()
            draw = ImageDraw.Draw(frame)
            for ball, (square, state_name) in current.items():
                x1, y1 = square_centre(size, square)
                x0, y0 = square_centre(size, previous[ball][0]) if ball in previous else (x1, y1)
                draw_ball(draw, (x0 + (x1 - x0) * t, y0 + (y1 - y0) * t), state_name, cell)
            frames.append(frame)
            durations.append(FRAME_MS)
    durations[-1] = HOLD_MS
    return to_gif(frames, frame_ms=durations)
