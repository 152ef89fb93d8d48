"""Rollerball (board game) pictures: engine state in, image bytes out.

- `render_board(state, names=None) -> bytes` (PNG): rings, cards with orientation and the 'Y' of
  splitters, balls with their states, bases and workmen in player colours, coordinates, legend.
- `render_movement(state, moved, names=None) -> bytes` (GIF): the balls' movement of one
  `BallsMoved` event, space by space, over the board of `state` (the state after the move).
- `render_hand(view, seat, name, new=frozenset(), earned=None) -> bytes` (PNG): a player's hand
  for their private panel, drawn from their own view: the cards, NEW on those just arrived, the
  card just earned, a legend.
- `square_centre(size, square) -> (x, y)`, `PLAYER_COLOURS`: for tests.
"""

from render.rollerball.animation import render_movement
from render.rollerball.board import render_board
from render.rollerball.hand import render_hand
from render.rollerball.layout import PLAYER_COLOURS, square_centre

__all__ = ["PLAYER_COLOURS", "render_board", "render_hand", "render_movement", "square_centre"]
