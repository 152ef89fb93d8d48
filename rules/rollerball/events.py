"""Events: what happened, as plain dataclasses with a player-readable `.text`. Events never name
a hidden card (a drawn card, a bid before all have bid).

Every event names the rules that decided it (`rules`, for the card's Why?): "R7" is ruling 7 of
docs/rules/rollerball.md's Rulings, any other name a topic of that page as `/rollerball rules`
lists it ("Set-up", "A turn", "The cards"). The engine names them; the presenter words them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

SET_UP = "Set-up"
TURN = "A turn"
CARDS = "The cards"  # the cards and the Y of a splitter
BOT_RULES = "On Discord"  # the bot's own rules: resigning


@dataclass(frozen=True)
class Event:
    text: str
    # keyword-only, so that a subclass's own fields keep their places
    rules: tuple[str, ...] = field(default=(), kw_only=True)


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
