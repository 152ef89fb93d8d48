"""The play of one coach action, as one object: the match it changes and the play-by-play.

Every part of the engine that plays (effects.py, duels.py, ball.py, sequence.py) takes a
`Resolution`: it changes `resolution.state` in place and tells spectators what happened with
`resolution.emit(Event(...))`, in the order it happened. Everything random is drawn from the
state's own seeded generator (`resolution.d10()`), never from anywhere else (docs/architecture.md, "A new game's checklist": game
engines are deterministic).

Also here: the read-only look-ups every part needs (who is in a slot, how a player is named,
the match clock, which slot guards which).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.rollerball2.cards import SKATER, PlayerCard
from rules.rollerball2.content import BIKER_SLOTS, EXTRA_SLOTS, SLOTS
from rules.rollerball2.state import (
    AWAY,
    HOME,
    OVERTIME_PERIOD,
    Event,
    MatchState,
    TeamState,
)
from rules.rollerball2.stats import score_line

SIDE_WORD = {HOME: "Home", AWAY: "Visitors"}

Place = tuple[str, str]  # (side, slot)


@dataclass
class Resolution:
    """One action being played: `state` is changed in place, `events` collects the
    play-by-play (every card, die, chart look-up and consequence, in order)."""

    state: MatchState
    events: list[Event] = field(default_factory=list)

    def emit(self, event: Event) -> None:
        self.events.append(event)

    def d10(self) -> int:
        """One ten-sided die from the match's seeded generator (1..10; cards print 10 as 0)."""
        return self.state.rng.randint(1, 10)


# --- reading the match -----------------------------------------------------------------------


def occupant(state: MatchState, place: Place | None) -> int | None:
    if place is None:
        return None
    return state.team(place[0]).lineup.get(place[1])


def card_at(state: MatchState, place: Place) -> PlayerCard | None:
    number = occupant(state, place)
    return None if number is None else state.team(place[0]).card(number)


def describe(state: MatchState, place: Place) -> str:
    """'Houston Skater3 #6 Jonathan E. (STAR)' or 'Houston Skater3 (empty)'."""
    team = state.team(place[0])
    number = occupant(state, place)
    if number is None:
        return f"{team.roster.team} {place[1]} (empty)"
    card = team.card(number)
    return f"{team.roster.team} {place[1]} #{number} {card.name} ({card.experience.upper()})"


def player_name(state: MatchState, side: str, number: int) -> str:
    team = state.team(side)
    return f"{team.roster.team} #{number} {team.card(number).name}"


def extra_slot(team: TeamState) -> str:
    return "Skater5" if "Skater5" in team.lineup else "Catcher3"


def matched_slot(team: TeamState, slot: str) -> str:
    """The opponent's slot that guards `slot` (seed ACTION NOTES 2: Skater 1 vs Skater 1 ...).
    Ruling: the two extra players (Skater5 / Catcher3) guard each other."""
    if slot in EXTRA_SLOTS:
        return extra_slot(team)
    return slot


def clock(state: MatchState) -> str:
    seconds = state.period_fac * 30
    period = "OT" if state.period == OVERTIME_PERIOD else f"P{state.period}"
    return f"{period} {seconds // 60:02d}:{seconds % 60:02d}"


def is_locked(state: MatchState, team: TeamState, slot: str) -> bool:
    """A penalised player's slot stays empty through card `locked[slot]`; it opens when that
    card's play is over, which is also when his Penalty Expires marker turns up (see
    effects.expire_markers), so he is back before any substitute could take it."""
    return team.locked.get(slot, 0) > state.fac_count


def bikers_on_track(state: MatchState, side: str) -> list[str]:
    team = state.team(side)
    return [slot for slot in BIKER_SLOTS if team.lineup.get(slot) is not None]


def open_skaters(state: MatchState, side: str, exclude: int | None) -> list[str]:
    team = state.team(side)
    slots = []
    for slot in SLOTS:
        number = team.lineup.get(slot)
        if number is not None and number != exclude and team.card(number).position == SKATER:
            slots.append(slot)
    return slots


def first_skater_or_catcher(team: TeamState) -> str | None:
    for slot in SLOTS:
        if slot not in BIKER_SLOTS and team.lineup.get(slot) is not None:
            return slot
    return None


def score_text(state: MatchState) -> str:
    """The score as every line of the match prints it (one score order, docs/rules/
    rollerball2.md "Teams, seasons and statistics"): "Tokyo 1 at Houston 2"."""
    home, away = state.home, state.away
    return score_line(away.roster.team, away.score, home.roster.team, home.score)


def leader(state: MatchState) -> str | None:
    """The side ahead on goals, None when level."""
    if state.home.score == state.away.score:
        return None
    return HOME if state.home.score > state.away.score else AWAY
