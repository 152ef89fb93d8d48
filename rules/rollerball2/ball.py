"""Who has the ball, and goals: a catch, control, a turnover, the ball going dead, a goal with
its assist (seed STARTING PLAY, GAME SETUP, ACTION NOTES; the scoresheet notes). Each function
plays on a Resolution (resolution.py)."""

from __future__ import annotations

from rules.rollerball2.cards import CATCHER
from rules.rollerball2.content import CATCHER_SLOTS
from rules.rollerball2.resolution import (
    Place,
    Resolution,
    card_at,
    clock,
    describe,
    first_skater_or_catcher,
    matched_slot,
    occupant,
    score_text,
)
from rules.rollerball2.scoresheet import Moment
from rules.rollerball2.state import (
    OVERTIME_PERIOD,
    PHASE_ACTION,
    PHASE_FIRE,
    Event,
    MatchState,
    other_side,
)


def to_fire(state: MatchState) -> None:
    """The ball is dead: the next card is read for THE BALL FIRES, nobody has it."""
    state.phase = PHASE_FIRE
    state.control = None
    state.handler = None
    state.previous_handler = None
    state.context = {}


def give_ball(res: Resolution, side: str, slot: str, how: str) -> None:
    """`side`'s player in `slot` now has the ball; remembers a teammate for the assist."""
    state = res.state
    team = state.team(side)
    assert team.lineup[slot] is not None
    if state.control == side and state.handler and state.handler != slot:
        state.previous_handler = team.lineup.get(state.handler)
    elif state.control != side:
        state.previous_handler = None
    state.control = side
    state.handler = slot
    res.emit(Event("control", f"{how}: {describe(state, (side, slot))} has the ball."))


def turnover(res: Resolution) -> None:
    """The defense takes the ball: the man guarding the handler, else the first skater/catcher."""
    state = res.state
    assert state.control is not None
    new_side = other_side(state.control)
    team = state.team(new_side)
    slot = matched_slot(team, state.handler) if state.handler else None
    if slot is None or team.lineup.get(slot) is None:
        slot = first_skater_or_catcher(team)
    if slot is None:
        res.emit(Event("fire", "Nobody there to pick it up: the ball rolls into the gutter."))
        to_fire(state)
        return
    give_ball(res, new_side, slot, f"Turnover, {state.team(new_side).roster.team}")
    state.phase = PHASE_ACTION
    state.context = {}


def retain(res: Resolution) -> None:
    state = res.state
    state.phase = PHASE_ACTION
    state.context = {}
    res.emit(
        Event(
            "info",
            f"{state.team(state.control).roster.team} keep the ball: next card, ACTION."
            if state.control
            else "Next card, ACTION.",
        )
    )


def holds_catcher(state: MatchState, place: Place) -> bool:
    card = card_at(state, place)
    return card is not None and card.position == CATCHER


def opposing_catcher(place: Place) -> Place:
    """Where a fired ball or a FAC result goes when `place`, a catcher slot, holds no catcher
    (seed GAME SETUP: it "will automatically go to the opposing Catcher"): the same catcher slot
    across the track. Ruling: Catcher3 goes to Catcher1 (the other team may have no Catcher3)."""
    side, slot = place
    return other_side(side), "Catcher1" if slot == "Catcher3" else slot


def catch(res: Resolution, place: Place) -> None:
    """Seed STARTING PLAY and GAME SETUP: a catcher slot that is empty (or holds a skater, who
    does not catch a fired ball) sends the ball to the opposing catcher."""
    state = res.state
    side, slot = place
    card = card_at(state, place)
    if slot in CATCHER_SLOTS and (card is None or card.position != CATCHER):
        why = "is empty" if card is None else "has no catcher"
        other, other_slot = opposing_catcher(place)
        res.emit(
            Event(
                "info",
                f"{state.team(side).roster.team} {slot} {why}: the opposing catcher takes it.",
            )
        )
        if not holds_catcher(state, (other, other_slot)):
            res.emit(Event("fire", "No catcher there either: the ball rolls into the gutter."))
            to_fire(state)
            return
        side, slot = other, other_slot
    elif card is None:
        res.emit(Event("fire", f"{describe(state, place)}: nobody there, into the gutter."))
        to_fire(state)
        return
    state.control = None
    give_ball(res, side, slot, "Catch")
    number = state.team(side).lineup[slot]
    assert number is not None
    state.team(side).sheet[number].catches += 1
    state.previous_handler = None
    state.pending = {"kind": "catcher_choice", "team": side}
    res.emit(
        Event(
            "choice",
            f"{state.team(side).roster.team} coach: roll on the card or draw a new FAC?",
        )
    )


def score(res: Resolution, place: Place, assist: int | None) -> None:
    """A goal: the scoresheet gets the goal (numbered for the team), an assist if any."""
    state = res.state
    side, _ = place
    team = state.team(side)
    scorer = occupant(state, place)
    assert scorer is not None
    if assist == scorer:
        assist = None
    team.score_by_period[-1] += 1
    line = team.sheet[scorer]
    line.goals += 1
    line.goal_order.append(team.score)
    text = f"GOAL! {describe(state, place)} scores"
    if assist is not None:
        team.sheet[assist].assists += 1
        text += f", assist #{assist} {team.card(assist).name}"
    state.moments.append(
        Moment(
            "goal",
            clock(state),
            side,
            scorer,
            line.name,
            assist=assist,
            assist_name=team.card(assist).name if assist is not None else "",
            detail=f"{state.away.score}-{state.home.score}",
        )
    )
    res.emit(
        Event(
            "goal",
            f"{text}. {score_text(state)}.",
        )
    )
    if state.period == OVERTIME_PERIOD:
        state.golden_goal = True
    to_fire(state)


def goal_by_handler(res: Resolution, assist: int | None) -> None:
    state = res.state
    assert state.control and state.handler
    if assist is None and state.previous_handler is not None:
        # Seed scoresheet note e): credit the teammate in control on the previous FAC.
        assist = state.previous_handler
    score(res, (state.control, state.handler), assist)
