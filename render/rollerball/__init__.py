"""Rollerball (board game) pictures: engine state in, image bytes out.

- `render_board(state, names=None) -> bytes` (PNG): rings, cards with orientation and the 'Y' of
  splitters, balls with their states, bases and workmen in player colours, coordinates, legend.
- `render_movement(state, moved, names=None) -> bytes` (GIF): the balls' movement of one
  `BallsMoved` event, space by space, over the board of `state` (the state after the move).
- `render_hand(view, seat, name, new=frozenset(), earned=None) -> bytes` (PNG): a player's hand
  for their private panel, drawn from their own view: the cards, NEW on those just arrived, the
  card just earned, a legend.
- `render_turn(state, events, names=None) -> (filename, bytes)`: the live card's one image of
  a step (and a replay's frame of it): the movement of the last `BallsMoved` among `events`,
  else the board.
- `square_centre(size, square) -> (x, y)`, `PLAYER_COLOURS`: for tests.
"""

from collections.abc import Sequence

from render.rollerball.animation import render_movement
from render.rollerball.board import render_board
from render.rollerball.hand import render_hand
from render.rollerball.layout import PLAYER_COLOURS, square_centre
from rules.rollerball import BallsMoved, GameState

__all__ = [
    "PLAYER_COLOURS",
    "render_board",
    "render_hand",
    "render_movement",
    "render_turn",
    "square_centre",
]


def render_turn(
    state: GameState, events: Sequence[object], names: dict[int, str] | None = None
) -> tuple[str, bytes]:
    """One board for a step (a second board above it would push a card's buttons off a phone's
    screen): after balls moved, the animation of the whole board ending on `state` with the
    balls' paths marked, else the board. `state` is what everyone may see (a view)."""
    moved = [event for event in events if isinstance(event, BallsMoved)]
    if moved:
        return "move.gif", render_movement(state, moved[-1], names)
    return "board.png", render_board(state, names)
