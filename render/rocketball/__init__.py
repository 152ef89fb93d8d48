"""Rocketball pictures: the board as a PNG and each move as an animated GIF.

Public API (pure functions, engine state in, image bytes out):
- `render_board(state, *, highlight=None, names=None) -> bytes` (PNG)
- `render_move_gif(state_before, events, *, names=None) -> bytes` (GIF)
- `move_squares(events) -> list[str]`: the squares a move crossed, to pass as `highlight`;
  `turn_squares(events)` adds the squares of chips placed, rotated or drifted.
- `square_centre(square) -> (x, y)`: pixel centre of a square such as "c4" (for tests).
- `render_round(before, events, after, names=None) -> (bytes, filename)`: ONE image for a
  round: the GIF of the ball's path ending on the board after the round
  ("round.gif"), or the board PNG when no ball moved ("board.png"). See round.py.
- `prepare_round(state, names=None, *, likely=(), rolled_for=frozenset())`: when a roll is
  due from `state`, the next round drawn while the drawing process is idle (render/idle.py);
  when an aim is, its opening frame; when a chip is and the bot rolls next, the round after
  each `likely` chip.
"""

from render.rocketball.render import (
    move_squares,
    render_board,
    render_move_gif,
    square_centre,
    turn_squares,
)
from render.rocketball.round import prepare_round, render_round

__all__ = [
    "move_squares",
    "prepare_round",
    "render_board",
    "render_move_gif",
    "render_round",
    "square_centre",
    "turn_squares",
]
