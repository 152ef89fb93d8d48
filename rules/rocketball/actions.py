"""Rocketball actions: plain frozen dataclasses handed to `engine.apply`.

Who acts is `state.to_move` (the windbag holder, or in Assault the second placer), except
Resign, which either player may do at any time while the match is on.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Roll:
    """Roll the d4 and move the ball (both balls in Assault, one roll each)."""


@dataclass(frozen=True)
class Place:
    """Place the drawn chip on `square`. `facing` ("N"/"E"/"S"/"W") for vortex and gust chips,
    None for the others. `kind` only when a djinn was drawn: the chip picked from the windbag."""

    square: str
    facing: str | None = None
    kind: str | None = None


@dataclass(frozen=True)
class Rotate:
    """Turn the vortex (or gust) chip on `square` a quarter turn."""

    square: str
    clockwise: bool = True


@dataclass(frozen=True)
class Drift:
    """Drifting Winds: move the chip on `from_square` one square to the vacant `to_square`."""

    from_square: str
    to_square: str


@dataclass(frozen=True)
class Aim:
    """Moguls: face the ball that was put back on the centre, then it is rolled and moved."""

    facing: str


@dataclass(frozen=True)
class Pass:
    """Only when the player can neither place, rotate nor drift a chip."""


@dataclass(frozen=True)
class Resign:
    player: str


Action = Roll | Place | Rotate | Drift | Aim | Pass | Resign
