"""Test helpers: hand-made teams whose cards always give the same result, and loaded dice.

A card whose OFFENSE column is ten GOALs always rolls GOAL, so a test can walk a chosen line of
the Action Matrix without depending on the dice.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from rules.rollerball2.cards import BIKER, CATCHER, SKATER, VETERAN, FastActionCard, PlayerCard
from rules.rollerball2.content import load_content
from rules.rollerball2.engine import new_match
from rules.rollerball2.roster import Roster
from rules.rollerball2.state import PHASE_ACTION, MatchState

# slot -> uniform number in the hand-made lineups
LINEUP_NUMBERS = {
    "Biker1": 1,
    "Biker2": 2,
    "Biker3": 3,
    "Skater1": 11,
    "Skater2": 12,
    "Skater3": 13,
    "Skater4": 14,
    "Skater5": 15,
    "Catcher1": 21,
    "Catcher2": 22,
}
BENCH = {4: BIKER, 5: BIKER, 16: SKATER, 17: SKATER, 23: CATCHER, 24: CATCHER}


def card(
    number: int,
    position: str,
    offense: str = "Att",
    defense: str = "Att",
    experience: str = VETERAN,
    team: str = "Home",
) -> PlayerCard:
    """A card whose columns are all one result."""
    if position == BIKER and offense == "Bkr":
        offense = "Att"
    return PlayerCard(
        number=number,
        name=f"Player {number}",
        position=position,
        experience=experience,
        team=team,
        offense=(offense,) * 10,
        defense=(defense,) * 10,
    )


def position_of(slot: str) -> str:
    return BIKER if slot.startswith("Biker") else CATCHER if slot.startswith("Catcher") else SKATER


def roster(team: str, **slots: tuple) -> Roster:
    """A team of 16: the ten starters plus six on the bench. `Skater1=("GOAL", "LOSE", "star")`
    sets that starter's offense result, defense result and (optionally) experience."""
    players = []
    for slot, number in LINEUP_NUMBERS.items():
        spec = slots.get(slot, ())
        offense = spec[0] if len(spec) > 0 else "Att"
        defense = spec[1] if len(spec) > 1 else "Att"
        experience = spec[2] if len(spec) > 2 else VETERAN
        players.append(card(number, position_of(slot), offense, defense, experience, team))
    for number, position in BENCH.items():
        players.append(card(number, position, team=team))
    return Roster(team=team, players=players)


def lineup() -> dict[str, int | None]:
    return dict(LINEUP_NUMBERS)


class LoadedDice(random.Random):
    """A generator whose D10 rolls come from a list (then 1s); shuffles stay seeded."""

    def __init__(self, rolls: list[int]) -> None:
        super().__init__(0)
        self.rolls = list(rolls)

    def randint(self, a: int, b: int) -> int:
        return self.rolls.pop(0) if self.rolls else a

    def __deepcopy__(self, memo: dict) -> LoadedDice:
        twin = LoadedDice(self.rolls)
        twin.setstate(self.getstate())
        return twin


def match(
    home: Roster | None = None,
    away: Roster | None = None,
    control: str | None = "home",
    handler: str | None = "Skater1",
    rolls: list[int] | None = None,
) -> MatchState:
    """A match in progress: `control` has the ball in `handler`'s hands, next card ACTION."""
    state = new_match(
        1,
        home or roster("Home"),
        away or roster("Away"),
        home_lineup=lineup(),
        away_lineup=lineup(),
    )
    if rolls is not None:
        state.rng = LoadedDice(rolls)
    state.control = control
    state.handler = handler
    if control is not None:
        state.phase = PHASE_ACTION
    return state


def find_fac(predicate: Callable[[FastActionCard], bool]) -> int:
    """The index of the first FAC matching `predicate`."""
    for fac in load_content().facs:
        if predicate(fac):
            return fac.index
    raise LookupError("no FAC matches")


def top_card(state: MatchState, index: int) -> None:
    """Put FAC `index` on top of the pile."""
    state.deck.remove(index)
    state.deck.insert(0, index)
