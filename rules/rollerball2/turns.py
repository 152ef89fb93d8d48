"""Whose turn it is and how far to play: what a front end (the Discord match host) asks the engine.

actors(state) says which coach may act now, play_until_event turns cards until something a coach
would want to see happens, and substitutions are offered in two short lists (a slot, then a
player), each small enough for one Discord select menu.
"""

from __future__ import annotations

from rules.rollerball2.cards import BIKER, CATCHER, SKATER
from rules.rollerball2.content import BIKER_SLOTS, CATCHER_SLOTS
from rules.rollerball2.engine import apply_in_place, substitution_slots
from rules.rollerball2.errors import RollerballError
from rules.rollerball2.roster import EXPERIENCE_RANK
from rules.rollerball2.state import (
    AWAY,
    HOME,
    PHASE_OVER,
    PHASE_SETUP,
    Event,
    MatchState,
    NextCard,
    clone,
)

MAX_CHOICES = 25  # a Discord select menu holds 25 options
STOP_KINDS = frozenset({"goal", "penalty"})  # play_until_event's default stops (besides the rest)


def actors(state: MatchState) -> frozenset[str]:
    """The side(s) ("home", "away") whose coach may act now.

    - Before the first card of a match with private line-ups: every coach who has not handed
      his in (both at first).
    - A decision the rules give a coach (state.pending): that coach alone.
    - Otherwise the team in possession: it turns the next card and may substitute first (seed
      SUBSTITUTING PLAYERS: "You may change any number players when you are in possession"), so
      the other coach can never turn the card before it has made its changes.
    - Ruling (seed silent): while the ball is loose (a new ball is about to fire) nobody may
      substitute, and the home coach, whose track it is, turns the card.
    - The match is over: nobody."""
    if state.phase == PHASE_OVER:
        return frozenset()
    if state.phase == PHASE_SETUP:
        return frozenset(side for side in (HOME, AWAY) if side not in state.submitted)
    if state.pending is not None:
        return frozenset({state.pending["team"]})
    if state.control is not None:
        return frozenset({state.control})
    return frozenset({HOME})


def play_until_event(
    state: MatchState, stop_kinds: frozenset[str] = STOP_KINDS
) -> tuple[MatchState, list[Event]]:
    """Turn cards (NextCard, nothing else: no substitution is ever made for a coach) until
    something happens: an event of `stop_kinds` (by default a goal or a penalty), a decision
    for a coach, the end of a period or of the match. Returns a new state and every event.
    Raises RollerballError when a card may not be turned now (a decision or line-ups pending)."""
    if state.phase == PHASE_OVER:
        raise RollerballError("The match is over.")
    state = clone(state)
    events: list[Event] = []
    period = state.period
    while True:
        new_events = apply_in_place(state, NextCard())
        events.extend(new_events)
        if (
            state.over
            or state.pending is not None
            or state.period != period
            or any(event.kind in stop_kinds for event in new_events)
        ):
            return state, events


def _wanted_positions(slot: str) -> tuple[str, ...]:
    if slot in BIKER_SLOTS:
        return (BIKER,)
    if slot in CATCHER_SLOTS:
        return (CATCHER, SKATER)
    return (SKATER, CATCHER)


def substitutes_for(state: MatchState, team: str, slot: str) -> list[int]:
    """Step two of a substitution: the fit players on `team`'s bench who may go into `slot`
    (step one is engine.substitution_slots). Best first: the slot's own position before the
    other, then STAR, VETERAN, ROOKIE, then uniform number; at most MAX_CHOICES (25). Raises
    RollerballError if `slot` may not be changed now."""
    if slot not in substitution_slots(state, team):
        raise RollerballError(f"{slot} cannot be changed now.")
    side = state.team(team)
    on_track = side.on_track()
    wanted = _wanted_positions(slot)
    bench = [
        card
        for card in side.roster.players
        if card.position in wanted and card.number not in on_track and card.number not in side.out
    ]
    bench.sort(
        key=lambda card: (
            wanted.index(card.position),
            EXPERIENCE_RANK[card.experience],
            card.number,
        )
    )
    return [card.number for card in bench[:MAX_CHOICES]]
