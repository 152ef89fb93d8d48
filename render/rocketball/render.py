"""Public entry points of the Rocketball renderer: engine state in, PNG/GIF bytes out."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from render.rocketball import geometry as g
from render.rocketball.animation import BallPath, PathStep, move_gif
from render.rocketball.board import board_png
from render.rocketball.from_state import ball_view, board_view, coords, highlight_coords
from render.rocketball.view import BoardView
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


def _field(event: Any, name: str, default: Any = None) -> Any:
    """An event's field, whether it is the engine's dataclass or its `to_dict()` form."""
    if isinstance(event, dict):
        return event.get(name, default)
    return getattr(event, name, default)


def _is_move(event: Any) -> bool:
    return _field(event, "kind") == "move" and _field(event, "steps") is not None


def ball_paths(events: Any, names: dict[str, str]) -> list[BallPath]:
    """The ball paths in a move's events (a MoveEvent, or the list `apply` returned)."""
    items = [events] if _is_move(events) else list(events)
    paths = []
    for event in items:
        if not _is_move(event):
            continue
        steps = []
        for step in _field(event, "steps"):
            view = ball_view(_field(step, "square"), _field(step, "facing"), None)
            steps.append(
                PathStep(
                    column=view.column,
                    row=view.row,
                    facing=view.facing,
                    what=_field(step, "what", "moved"),
                    text=_field(step, "text", ""),
                    in_goal=view.in_goal,
                )
            )
        roll = _field(event, "roll", 0)
        player = names.get(_field(event, "player", "N"), "North")
        paths.append(
            BallPath(
                ball=_field(event, "ball", 0),
                roll=roll,
                steps=tuple(steps),
                caption=f"{player} rolls the d4: {roll}",
            )
        )
    return paths


def render_move_gif(
    state_before: GameState, events: Any, *, names: dict[str, str] | None = None
) -> bytes:
    """An animated GIF of one move: the ball's path step by step, then a goal flash if it scored.

    `state_before`: the state the move started from (the board as it was when the die was rolled).
    `events`: the MoveEvent(s) of the move, or simply the whole list `apply` returned (other
    events are ignored, except a goal's new score). Frame count: see render.rocketball.animation.
    Raises ValueError when the events hold no ball movement.
    """
    view = board_view(state_before, names)
    paths = ball_paths(events, view.names)
    if not paths:
        raise ValueError("these events contain no ball movement to animate")
    # Start each ball where its move started (after a Mogul restart that is the centre).
    balls = list(view.balls)
    items = [events] if _is_move(events) else list(events)
    for event in items:
        if _is_move(event):
            index = _field(event, "ball", 0)
            start = ball_view(_field(event, "start_square"), _field(event, "start_facing"), None)
            balls[index] = replace(start, owner=balls[index].owner)
    if len(paths) > 1:
        # Assault: one caption for both rolls.
        paths = [
            replace(
                path,
                caption=f"{_ball_name(view, path.ball)}: d4 {path.roll}",
                label=view.names.get(view.balls[path.ball].owner or "", ""),
            )
            for path in paths
        ]
    final_score = None
    for event in items:
        if _field(event, "kind") == "goal" and _field(event, "score"):
            final_score = dict(_field(event, "score"))
    return move_gif(replace(view, balls=tuple(balls)), paths, final_score=final_score)


def _ball_name(view: BoardView, index: int) -> str:
    owner = view.balls[index].owner
    return f"{view.names[owner]}'s ball" if owner else "Ball"


def move_squares(events: Any) -> list[str]:
    """The field squares the ball(s) crossed in a move, start included, in order without repeats:
    what `render_board(..., highlight=...)` should tint after the move. Goal squares are left out
    (they are not field squares)."""
    items = [events] if _is_move(events) else list(events)
    squares: list[str] = []
    for event in items:
        if not _is_move(event):
            continue
        path = [_field(event, "start_square")]
        path += [_field(step, "square") for step in _field(event, "steps")]
        for square in path:
            if square and goal_of(square) is None and square not in squares:
                squares.append(square)
    return squares


def turn_squares(events: Any) -> list[str]:
    """Everything a turn touched, to pass as `highlight`: the squares the ball(s) crossed
    (`move_squares`) and the square of each chip placed, rotated or drifted (both ends)."""
    items = [events] if _is_move(events) else list(events)
    squares = move_squares(items)
    for event in items:
        kind = _field(event, "kind")
        if kind in ("place", "rotate"):
            touched = [_field(event, "square")]
        elif kind == "drift":
            touched = [_field(event, "from_square"), _field(event, "to_square")]
        else:
            continue
        squares.extend(square for square in touched if square and square not in squares)
    return squares
