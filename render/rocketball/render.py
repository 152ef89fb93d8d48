"""Public entry points of the Rocketball renderer: engine state in, PNG/GIF bytes out."""

from __future__ import annotations

from collections.abc import Iterable

from render.rocketball import geometry as g
from render.rocketball.adapter import board_view, coords, highlight_coords
from render.rocketball.board import board_png
from rules.rocketball.state import GameState, goal_of


def render_board(
    state: GameState,
    *,
    highlight: Iterable[str] | None = None,
    names: dict[str, str] | None = None,
) -> bytes:
    """The board as PNG bytes: field with coordinates, goals (and who scores in each), edge
    arrows, chips, ball(s), score, windbag, whose turn and a legend.

    `highlight`: square names to tint, e.g. the squares the ball crossed on the last move.
    `names`: display names for the players {"N": ..., "S": ...}; default "North"/"South".
    """
    view = board_view(state, names)
    return board_png(view, highlight=highlight_coords(highlight or ()))


def square_centre(square: str) -> tuple[int, int]:
    """Pixel centre of a field square ("c4") or goal square ("d0", "d12") on the board image."""
    end = goal_of(square)
    column, row = coords(square)
    if end is not None:
        x, _ = g.square_centre(column, 0)
        return x, g.goal_centre(end)[1]
    return g.square_centre(column, row)


def render_move_gif(*args, **kwargs) -> bytes:  # replaced below once the engine's events land
    raise NotImplementedError
