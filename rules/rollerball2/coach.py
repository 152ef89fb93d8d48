"""The default coach: makes every decision the rules leave to a coach, so a match can run unattended.

It reads the cards the way a coach at the table would (no hidden ratings: it counts results on
the printed columns) and only ever picks among legal_actions.
"""

from __future__ import annotations

from rules.rollerball2.cards import BIKER, CATCHER, GOAL, LOSE, PASS, SKATER, PlayerCard
from rules.rollerball2.content import BIKER_SLOTS
from rules.rollerball2.engine import apply, apply_in_place, legal_actions, substitution_slots
from rules.rollerball2.roster import EXPERIENCE_RANK
from rules.rollerball2.state import (
    PHASE_SETUP,
    Action,
    CatcherChoice,
    ChooseBiker,
    ChooseScorer,
    Event,
    MatchState,
    NextCard,
    RollDie,
    Substitute,
    clone,
)


def _count(column: tuple[str, ...], result: str) -> int:
    return sum(1 for entry in column if entry == result)


def _best_substitute(state: MatchState, side: str, slot: str) -> Substitute | None:
    """Who the coach sends into `slot`: its starter if he is fit and on the bench, otherwise, for
    an empty slot, the most experienced fit player of the right position."""
    team = state.team(side)
    on_track = team.on_track()
    current = team.lineup.get(slot)
    starter = team.starters.get(slot)
    if (
        starter is not None
        and current != starter
        and starter not in on_track
        and starter not in team.out
    ):
        return Substitute(side, slot, starter)
    if current is not None:
        return None
    if slot in BIKER_SLOTS:
        wanted = (BIKER,)
    elif slot.startswith("Catcher"):
        wanted = (CATCHER, SKATER)
    else:
        wanted = (SKATER, CATCHER)
    for position in wanted:
        bench = [
            card
            for card in team.roster.players
            if card.position == position
            and card.number not in on_track
            and card.number not in team.out
            # Keep other slots' fit starters free for their own slots.
            and card.number not in team.starters.values()
        ]
        if bench:
            best = min(bench, key=lambda c: (EXPERIENCE_RANK[c.experience], c.number))
            return Substitute(side, slot, best.number)
    return None


def _shooting(card: PlayerCard) -> tuple[int, int]:
    return (_count(card.offense, GOAL), -EXPERIENCE_RANK[card.experience])


def choose_action(state: MatchState) -> Action:
    """The default coach's choice (for whichever side must act) among the legal actions."""
    if state.phase == PHASE_SETUP:
        return legal_actions(state)[0]  # the default line-up, home first
    if state.pending is not None and state.pending["kind"] == "dice":
        return RollDie(state.pending["team"])
    pending = state.pending
    if pending is not None:
        side = pending["team"]
        team = state.team(side)
        if pending["kind"] == "catcher_choice":
            assert state.handler is not None
            number = team.lineup[state.handler]
            assert number is not None
            card = team.card(number)
            # A catcher with many GOAL/PASS results shoots; the rest hand over to the deck.
            return CatcherChoice(side, _count(card.offense, GOAL) + _count(card.offense, PASS) >= 5)
        options = legal_actions(state)
        if pending["kind"] == "defensive_biker":
            # The biker least likely to give up the goal, then the best at stripping the ball.
            def stopping(action: Action) -> tuple[int, int]:
                assert isinstance(action, ChooseBiker)
                card = team.card_in(action.slot)
                return (_count(card.defense, GOAL), -_count(card.defense, LOSE))

            return min(options, key=stopping)
        if pending["kind"] == "assist_biker":
            return options[0]
        if pending["kind"] == "pass_scorer":

            def scoring(action: Action) -> tuple[int, int]:
                assert isinstance(action, ChooseScorer)
                return _shooting(team.card_in(action.slot))

            return max(options, key=scoring)
    # Only look for substitutions when the lineup differs from the starting one (cheap check).
    if (
        state.control is not None
        and state.team(state.control).lineup != state.team(state.control).starters
    ):
        for slot in substitution_slots(state, state.control):
            substitute = _best_substitute(state, state.control, slot)
            if substitute is not None:
                return substitute
    return NextCard()


def step(state: MatchState) -> tuple[MatchState, list[Event]]:
    """One default-coach action applied to a copy of `state`."""
    return apply(state, choose_action(state))


def auto_play(state: MatchState, max_actions: int = 100_000) -> tuple[MatchState, list[Event]]:
    """Play the match to its end with the default coach on both benches. Returns a new state (the
    given one is untouched) and the whole play-by-play."""
    state = clone(state)
    events: list[Event] = []
    for _ in range(max_actions):
        if state.over:
            break
        events.extend(apply_in_place(state, choose_action(state)))
    return state, events
