"""Rollerball (board game) pictures: engine state in, image bytes out.

- `render_board(state, names=None) -> bytes` (PNG): rings, cards with orientation and the 'Y' of
  splitters, balls with their states, bases and workmen in player colours, coordinates, legend.
- `render_movement(state, moved, names=None) -> bytes` (GIF): the balls' movement of one
  `BallsMoved` event, space by space, over the board of `state` (the state after the move).
- `square_centre(size, square) -> (x, y)`, `PLAYER_COLOURS`: for tests.
"""

from render.rollerball.animation import render_movement
from render.rollerball.board import render_board
from render.rollerball.layout import PLAYER_COLOURS, square_centre

__all__ = ["PLAYER_COLOURS", "render_board", "render_movement", "square_centre"]
