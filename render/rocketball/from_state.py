"""Reads the Rocketball engine's GameState (rules.rocketball.state) into the renderer's BoardView.

This is the only module of the renderer that knows the engine's field names. The engine numbers
rows 1-11 (goal squares are rows 0 and 12); the drawing code counts rows from 0.
"""

from __future__ import annotations

from collections.abc import Iterable

from render.rocketball.view import BallView, BoardView, ChipView
from rules.prose import plural
from rules.rocketball.state import (
    EDGE_ARROWS,
    PHASE_OVER,
    GameState,
    goal_of,
    square_coords,
)
from rules.rocketball.turn import describe_next, next_step

# Chip kinds that can lie on the field, in legend order, with the setting that puts them in.
_FIELD_KINDS = (
    ("bumper", "bumpers"),
    ("twister", "twisters"),
    ("gust", "gusts"),
    ("barricade", "barricades"),
    ("mogul", "moguls"),
)


def coords(square: str) -> tuple[int, int]:
    """Engine square name -> drawing (column, row from 0); goal squares give rows -1 and 11."""
    column, row = square_coords(square)
    return column, row - 1


def edge_arrow_views() -> tuple[tuple[int, int, str, str], ...]:
    """The engine's edge arrows as (column, row from 0, edge, arrow direction)."""
    return tuple((*coords(square), edge, arrow) for square, edge, arrow in EDGE_ARROWS)


def chip_kinds(state: GameState) -> tuple[str, ...]:
    """Chip kinds this match can show on the field: vortex plus the chip variants switched on."""
    settings = state.settings
    return ("vortex", *(kind for kind, option in _FIELD_KINDS if getattr(settings, option)))


def ball_view(square: str, facing: str, owner: str | None) -> BallView:
    column, row = coords(square)
    end = goal_of(square)
    if end is not None:
        row = -1 if end == "N" else 11
    return BallView(column=column, row=row, facing=facing, owner=owner, in_goal=end)


def _status(state: GameState, names: dict[str, str]) -> str:
    """One line saying what happens next (or how the match ended): the engine's one phrase for
    it (rules.rocketball.turn.describe_next), so the board and every message agree."""
    return describe_next(next_step(state), names)


def _note(state: GameState, names: dict[str, str]) -> str:
    bag = sum(state.bag.values())
    parts = [f"Windbag: {names[state.windbag]} · {bag} chips in it"]
    settings = state.settings
    if settings.tug_of_war:
        if settings.tug_swap_rounds > 0:
            left = settings.tug_swap_rounds - state.rounds % settings.tug_swap_rounds
            parts.append(f"goals swap in {plural(left):round}")
        else:
            parts.append("Tug-of-War")
    return " · ".join(parts)


NAME_LENGTH = 18  # longer display names are cut: they must fit beside the score and in a goal


def display_names(names: dict[str, str] | None) -> dict[str, str]:
    """'N'/'S' -> the name shown on the board: the given name, cut to NAME_LENGTH, or North/South."""
    shown = {"N": "North", "S": "South"}
    for player, name in (names or {}).items():
        name = " ".join(str(name).split())
        if player in shown and name:
            shown[player] = name if len(name) <= NAME_LENGTH else name[: NAME_LENGTH - 1] + "…"
    return shown


def board_view(state: GameState, names: dict[str, str] | None = None) -> BoardView:
    """What the board image shows for `state`; `names` maps 'N'/'S' to display names."""
    shown = display_names(names)
    # By square, not in the order the chips were placed or stored: one position, one view,
    # so a round drawn ahead is found by the click's position read back from the database.
    chips = tuple(
        sorted(
            (
                ChipView(*coords(square), kind=chip.kind, facing=chip.facing)
                for square, chip in state.chips.items()
            ),
            key=lambda chip: (chip.row, chip.column),
        )
    )
    balls = tuple(
        ball_view(ball.square, ball.facing, ball.owner if state.settings.assault else None)
        for ball in state.balls
    )
    # The goal a player aims at is where that player scores.
    goal_scorer = {state.target_goal(player): player for player in ("N", "S")}
    return BoardView(
        chips=chips,
        balls=balls,
        score=dict(state.score),
        status=_status(state, shown),
        goal_scorer=goal_scorer,
        edge_arrows=edge_arrow_views(),
        chip_kinds=chip_kinds(state),
        assault=state.settings.assault,
        names=shown,
        note=None if state.phase == PHASE_OVER else _note(state, shown),
    )


def highlight_coords(squares: Iterable[str]) -> list[tuple[int, int]]:
    """Field squares among `squares` as drawing coordinates (goal squares are skipped)."""
    return [coords(square) for square in squares if goal_of(square) is None]
