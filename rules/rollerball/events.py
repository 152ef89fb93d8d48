"""Events: what happened, as plain dataclasses with a player-readable `.text`. Events never name
a hidden card (a drawn card, a bid before all have bid)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Event:
    text: str


@dataclass(frozen=True)
class BallFrame:
    """One ball after one space: id, square, and its counter ("normal", "energised",
    "up rubber", "down rubber and energised", ...)."""

    ball: int
    square: int
    state: str


@dataclass(frozen=True)
class BallsMoved(Event):
    """The balls' movement this turn. `frames[0]` is where they started, then one frame per
    space moved in lockstep, then one per push; a renderer animates them in order."""

    frames: tuple[tuple[BallFrame, ...], ...] = field(default_factory=tuple)
