"""What the Rocketball pictures show, as plain data: the part of the engine's state a viewer sees.

The drawing code reads only these dataclasses; `board_view` (in from_state.py) builds them from the
engine's state, so a change in the engine's internals touches one function, not the drawing.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class ChipView:
    """A chip on the field: kind is 'vortex', 'gust', 'bumper', 'twister', 'barricade', 'mogul'."""

    column: int
    row: int
    kind: str
    facing: str | None = None  # 'N'/'E'/'S'/'W' for vortex and gust chips


@dataclass(frozen=True)
class BallView:
    """A rocketball: on a square, or in a goal ('N'/'S') right after a score."""

    column: int
    row: int
    facing: str
    owner: str | None = None  # Assault: 'N' or 'S', the player the ball belongs to
    in_goal: str | None = None


@dataclass(frozen=True)
class BoardView:
    """Everything the board image shows."""

    chips: tuple[ChipView, ...]
    balls: tuple[BallView, ...]
    score: dict[str, int]  # 'N'/'S' -> points
    status: str  # one line: whose turn and what to do, or the result
    goal_scorer: dict[str, str]  # goal end 'N'/'S' -> the player ('N'/'S') who scores there
    edge_arrows: tuple[tuple[int, int, str, str], ...]  # (column, row, edge, arrow facing)
    chip_kinds: tuple[str, ...] = ("vortex",)  # kinds in this match, for the legend
    assault: bool = False
    names: dict[str, str] = field(default_factory=lambda: {"N": "North", "S": "South"})
    note: str | None = None  # third header line: the windbag, chips left, Tug-of-War swaps
