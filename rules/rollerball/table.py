"""A hosted Rollerball game: the engine's state plus who resigned, who is a person, and how
the game ended.

The board engine has no resignation, so it lives here, with the ruling the bot follows
(docs/rules/rollerball.md, "On Discord", ruling D1): a player who resigns is out and loses.
While other people play on, a computer plays the resigned seat to the end so the board goes on
as it was, and it keeps every card it earns in hand (it never banks one), so a resigned seat
cannot win. When a resignation leaves one seat in the game, or no person, the game ends at once:
of the seats still in it, those with the most victory points win.

A seat's actions are `Play(action, size)` (an engine action and the board size, so a move can
be written as its record line) and `Resign()`. The engine face (face.py) drives a Table.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from rules.prose import plural
from rules.rollerball.actions import Bank, Keep
from rules.rollerball.ai import choose_action
from rules.rollerball.engine import actors, apply, view_for
from rules.rollerball.errors import RollerballBoardError
from rules.rollerball.events import BOT_RULES, Event
from rules.rollerball.state import GameState


@dataclass(frozen=True)
class Play:
    """An engine action, with the board size it was typed for (to write it back as a command)."""

    action: Any
    size: int = 9


@dataclass(frozen=True)
class Resign:
    """The seat leaves the game (see the module docstring)."""


@dataclass(frozen=True)
class Table:
    game: GameState
    humans: tuple[int, ...]  # the seats of people; the others are computer players
    resigned: tuple[int, ...] = ()
    winners: tuple[int, ...] | None = None  # set when resignations ended the game
    # The board's log length when each resigned seat resigned: where the record writes it.
    resigned_at: tuple[int, ...] = ()

    @property
    def over(self) -> bool:
        return self.game.over or self.winners is not None

    @property
    def final_winners(self) -> tuple[int, ...]:
        return self.winners if self.winners is not None else tuple(self.game.winners)

    @property
    def ended_by_resignation(self) -> bool:
        return self.winners is not None

    def in_game(self) -> list[int]:
        return [seat for seat in range(self.game.players) if seat not in self.resigned]

    @property
    def resignations(self) -> list[tuple[int, int]]:
        """(seat, the board's log length when it resigned), in order; a table stored before
        the lengths were kept has its resignations at the end."""
        at = (*self.resigned_at, *[len(self.game.log)] * len(self.resigned))
        return list(zip(self.resigned, at, strict=False))

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game.to_dict(),
            "humans": list(self.humans),
            "resigned": list(self.resigned),
            "winners": None if self.winners is None else list(self.winners),
            "resigned_at": list(self.resigned_at),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Table:
        winners = data.get("winners")
        return cls(
            game=GameState.from_dict(data["game"]),
            humans=tuple(data["humans"]),
            resigned=tuple(data.get("resigned", ())),
            winners=None if winners is None else tuple(winners),
            resigned_at=tuple(data.get("resigned_at", ())),
        )


def play(table: Table, seat: int, action: Play | Resign) -> tuple[Table, list[Event]]:
    """Apply a seat's action (RollerballBoardError if illegal, the table untouched), then let the
    computer play every resigned seat the game waits for."""
    if table.over:
        raise RollerballBoardError("The game is over.")
    if isinstance(action, Resign):
        return resign(table, seat)
    game, events = apply(table.game, action.action, seat)
    table, more = play_resigned_seats(replace(table, game=game))
    return table, events + more


def resign(table: Table, seat: int) -> tuple[Table, list[Event]]:
    if seat in table.resigned:
        raise RollerballBoardError("You have resigned already: a computer plays your seat.")
    table = replace(
        table,
        resigned=(*table.resigned, seat),
        resigned_at=(*table.resigned_at, len(table.game.log)),
    )
    events = [resigned_event(seat)]
    people = [s for s in table.humans if s not in table.resigned]
    if len(table.in_game()) > 1 and people:
        table, more = play_resigned_seats(table)
        return table, events + more
    winners = resignation_winners(table.game, table.resigned)
    return replace(table, winners=winners), [*events, ended_event(winners)]


def resigned_event(seat: int) -> Event:
    return Event(f"Player {seat + 1} resigns.", rules=(BOT_RULES,))


def resignation_winners(game: GameState, resigned: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    """Of the seats still in the game, those with the most victory points (ruling D1)."""
    in_game = [seat for seat in range(game.players) if seat not in resigned]
    best = max(len(game.victory[seat]) for seat in in_game)
    return tuple(seat for seat in in_game if len(game.victory[seat]) == best)


def ended_event(winners: tuple[int, ...]) -> Event:
    names = " and ".join(f"Player {s + 1}" for s in winners)
    return Event(
        f"The game ends: {names} {plural(len(winners)):wins|share the win!}.",
        rules=(BOT_RULES,),
    )


def play_resigned_seats(table: Table) -> tuple[Table, list[Event]]:
    """The sensible computer plays resigned seats from their own view, but keeps earned cards in
    hand instead of banking them. Its choices are seeded by the position (deterministic)."""
    game, events = table.game, []
    out = set(table.resigned)
    while not game.over and (acting := actors(game) & out):
        for seat in sorted(acting):
            if seat not in actors(game):
                continue
            rng = random.Random(f"resigned:{seat}:{len(game.log)}")
            action = choose_action(view_for(game, seat), rng, "sensible")
            if isinstance(action, Bank):
                action = Keep()
            game, new = apply(game, action, seat)
            events += new
    return replace(table, game=game), events
