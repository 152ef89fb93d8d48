"""The order of play: turning a card and reading the section the phase names, the end of a
card's play (markers turn up, a period ends, overtime, the final whistle), carrying out each
coach action once it is validated (validation.py), private line-ups, and the coaches' own dice.

docs/rules/rollerball2.md, "The flow of a match": a period is 30 FACs from two shuffled piles of 30,
a match four periods, reshuffled for periods 3-4 (and for overtime). Seed ACTION NOTES 2: in a
two-coach game each coach rolls his own die (Settings.coach_dice)."""

from __future__ import annotations

import random  # only random.Random instances (seeded, held in the state), never module functions

from rules.prose import possessive
from rules.rollerball2.ball import goal_by_handler, score, to_fire
from rules.rollerball2.cards import SECTION_HEADINGS, face_label
from rules.rollerball2.content import BIKER_SLOTS, load_content
from rules.rollerball2.duels import defensive_biker, duel
from rules.rollerball2.effects import expire_markers, release, release_new_ball, run_effect
from rules.rollerball2.resolution import Resolution, clock, describe, leader, score_text
from rules.rollerball2.state import (
    AWAY,
    HOME,
    OVERTIME_PERIOD,
    PERIOD_FACS,
    PERIODS,
    PHASE_ACTION,
    PHASE_ATTACK,
    PHASE_BIKER_ID,
    PHASE_EVENT,
    PHASE_FIRE,
    PHASE_OVER,
    Action,
    CatcherChoice,
    ChooseBiker,
    ChooseScorer,
    Event,
    MatchState,
    NextCard,
    Roll,
    RollDie,
    SubmitLineup,
    Substitute,
    clone,
    parse_action,
    record_line,
)


def new_deck(rng: random.Random) -> list[int]:
    """Shuffle the 60 FACs and split them into two piles of 30, one per period
    (docs/rules/rollerball2.md, "The flow of a match")."""
    deck = list(range(1, 61))
    rng.shuffle(deck)
    return deck


# --- reading a card --------------------------------------------------------------------------


def section_for(state: MatchState) -> str:
    """The FAC section the next card is read for (the phase; ATTACK by the attacker)."""
    if state.phase == PHASE_ATTACK:
        attacker = state.context.get("attacker")
        return "attack_biker" if attacker and attacker[1] in BIKER_SLOTS else "attack_skater"
    return {
        PHASE_FIRE: "ball_fires",
        PHASE_ACTION: "action",
        PHASE_EVENT: "event",
        PHASE_BIKER_ID: "biker_id",
    }[state.phase]


def _next_card(res: Resolution) -> None:
    state = res.state
    if state.fac_count == 0:
        res.emit(Event("info", "The 60 FACs are shuffled and split into two piles of 30."))
    if state.period_fac == 0:
        label = (
            "Overtime (sudden death)"
            if state.period == OVERTIME_PERIOD
            else f"Period {state.period}"
        )
        res.emit(Event("period", f"{label} begins."))
    index = state.deck.pop(0)
    state.fac_count += 1
    state.period_fac += 1
    card = load_content().fac(index)
    key = section_for(state)
    if key == "ball_fires":
        release_new_ball(res)
    section = getattr(card, key)
    res.emit(
        Event(
            "card",
            f"[{clock(state)}] FAC {index}, {SECTION_HEADINGS[key]}: {section.text}",
            fac=index,
            section=key,
        )
    )
    context = dict(state.context)
    context.pop("places", None)
    context.pop("removed", None)
    run_effect(res, section.effect, context)


def _after_card(res: Resolution) -> None:
    """End of a card's play: the period ends after its 30th card (or at a golden goal)."""
    state = res.state
    if state.pending is not None or state.phase == PHASE_OVER:
        return
    if state.golden_goal:
        _finish(res)
        return
    if state.period_fac < PERIOD_FACS:
        return
    res.emit(
        Event(
            "period",
            f"End of {'overtime' if state.period == OVERTIME_PERIOD else f'period {state.period}'}: "
            f"{score_text(state)}.",
        )
    )
    release(res, "period", "New period")
    tied = state.home.score == state.away.score
    if state.period == OVERTIME_PERIOD or (
        state.period == PERIODS and not (tied and state.settings.overtime)
    ):
        _finish(res)
        return
    state.period += 1
    state.period_fac = 0
    for team in (state.home, state.away):
        team.score_by_period.append(0)
    if state.period in (3, OVERTIME_PERIOD):
        # Reshuffled for periods 3-4 ("The flow of a match") and for overtime ("Overtime").
        state.deck = new_deck(state.rng)
        res.emit(Event("info", "The FAC deck is reshuffled and split into new piles."))
    to_fire(state)


def _finish(res: Resolution) -> None:
    state = res.state
    state.phase = PHASE_OVER
    state.pending = None
    state.control = None
    state.handler = None
    for side in (HOME, AWAY):
        team = state.team(side)
        for number, out in list(team.out.items()):
            if out.reason == "penalty":
                del team.out[number]  # every penalty expires when the match ends
    ahead = leader(state)
    verdict = "A draw" if ahead is None else f"{state.team(ahead).roster.team} win"
    res.emit(Event("final", f"FINAL: {score_text(state)}. {verdict}."))


# --- carrying out an action ------------------------------------------------------------------


def play(state: MatchState, action: Action) -> list[Event]:
    """Carry out a validated action on `state` in place: it goes into the record (a private
    line-up only once both are in), and with coach dice a play that rolls waits for them."""
    if isinstance(action, SubmitLineup):
        res = Resolution(state)
        _submit_lineup(res, action)  # recorded only once both are in (private)
        return res.events
    if isinstance(action, RollDie):
        state.record.append(record_line(action))
        return _roll_die(state, action)
    state.record.append(record_line(action))
    if state.settings.coach_dice and not isinstance(action, Substitute):
        return _ask_for_dice(state, action)
    return _resolve(state, action)


def _resolve(state: MatchState, action: Action) -> list[Event]:
    """Carry out a validated, recorded action; its play-by-play."""
    res = Resolution(state)
    if isinstance(action, NextCard):
        _next_card(res)
    elif isinstance(action, Substitute):
        team = state.team(action.team)
        leaving = team.lineup.get(action.slot)
        team.lineup[action.slot] = action.number
        team.sheet[action.number].on_track = True
        text = f"Substitution, {team.roster.team}: #{action.number} {team.card(action.number).name} into {action.slot}"
        if leaving is not None:
            text += f" for #{leaving} {team.card(leaving).name}"
        res.emit(Event("sub", text + "."))
    elif isinstance(action, CatcherChoice):
        state.pending = None
        who = describe(state, (action.team, state.handler or ""))
        if action.roll:
            res.emit(Event("choice", f"{who} rolls on his card."))
            duel(res)
        else:
            res.emit(
                Event(
                    "choice",
                    f"{state.team(action.team).roster.team} coach: {who} hands over to the deck "
                    "(next card, ACTION).",
                )
            )
            state.phase = PHASE_ACTION
            state.context = {}
    elif isinstance(action, ChooseBiker):
        pending = state.pending
        assert pending is not None
        state.pending = None
        if pending["kind"] == "assist_biker":
            assist = state.team(action.team).lineup[action.slot]
            res.emit(Event("choice", f"Assist to {describe(state, (action.team, action.slot))}."))
            goal_by_handler(res, assist)
        else:
            defensive_biker(res, (action.team, action.slot), pending.get("biker"))
    elif isinstance(action, ChooseScorer):
        pending = state.pending
        assert pending is not None
        state.pending = None
        scorer = (action.team, action.slot)
        res.emit(Event("choice", f"The pass finds {describe(state, scorer)}."))
        score(res, scorer, pending["passer"])
    if state.pending is None and state.phase != PHASE_OVER:
        expire_markers(res)
    _after_card(res)
    return res.events


def _submit_lineup(res: Resolution, action: SubmitLineup) -> None:
    """Keep a coach's line-up hidden until the other is in; then both take the track and both
    go into the record, home first, so a record never shows one line-up early."""
    state = res.state
    state.submitted[action.team] = action.as_dict()
    waiting = [side for side in (HOME, AWAY) if side not in state.submitted]
    if waiting:
        res.emit(
            Event(
                "lineup",
                f"{state.team(action.team).roster.team} have handed in their line-up; waiting for "
                f"{state.team(waiting[0]).roster.team}.",
            )
        )
        return
    for side in (HOME, AWAY):
        team = state.team(side)
        lineup = state.submitted[side]
        team.lineup = dict(lineup)
        team.starters = dict(lineup)
        for line in team.sheet.values():
            line.on_track = False
        for number in team.on_track():
            team.sheet[number].on_track = True
        state.record.append(record_line(SubmitLineup.of(side, lineup)))
    state.submitted = {}
    state.phase = PHASE_FIRE
    res.emit(Event("lineup", "Both line-ups are in: the match begins."))


# --- the coaches' own dice -------------------------------------------------------------------


def _dice_of(state: MatchState, action: Action, resume: dict | None) -> tuple[list, list]:
    """Play `action` on a copy: its events and, in order, every die it rolls (event index,
    Roll). The generator is seeded, so the real play later rolls exactly these."""
    trial = clone(state)
    trial.pending = resume
    events = _resolve(trial, action)
    rolls = [(index, roll) for index, event in enumerate(events) for roll in event.rolls]
    return events, rolls


def _ask_for_dice(state: MatchState, action: Action) -> list[Event]:
    """Seed ACTION NOTES 2: "in a two 'coach' game, opposing coaches roll their own D10". With
    Settings.coach_dice the play of `action` waits until each die's coach has rolled it
    (RollDie), in the order the rules roll them; the faces still come from the match's seeded
    generator, so nothing about the outcome changes, only who clicks. What happens before the
    first die (the card turned) is shown at once."""
    events, rolls = _dice_of(state, action, state.pending)
    if not rolls:
        return _resolve(state, action)
    first_event, first_roll = rolls[0]
    state.pending = {
        "kind": "dice",
        "team": first_roll.side,
        "action": record_line(action),
        "rolled": 0,
        "shown": first_event,
        "resume": state.pending,
    }
    return [*events[:first_event], _dice_request(state, first_roll)]


def _dice_request(state: MatchState, roll: Roll) -> Event:
    what = {"offense": "OFFENSE", "defense": "DEFENSE"}.get(roll.column)
    if what is not None:
        whose = f"{possessive(describe(state, (roll.side, roll.slot)))} {what} column"
    elif roll.column == "coach":
        whose = "the coach's D10"
    else:
        whose = "the Random Player chart"
    team = state.team(roll.side).roster.team
    return Event("choice", f"{team} coach: roll the die for {whose}.")


def _roll_die(state: MatchState, action: RollDie) -> list[Event]:
    pending = state.pending
    assert pending is not None
    held = parse_action(pending["action"])
    _, rolls = _dice_of(state, held, pending["resume"])
    index = pending["rolled"]
    roll = rolls[index][1]
    team = state.team(action.team).roster.team
    rolled = Event("roll", f"{team} coach rolls d10 = {face_label(roll.face)}.", rolls=(roll,))
    if index + 1 < len(rolls):
        next_roll = rolls[index + 1][1]
        pending["rolled"] = index + 1
        pending["team"] = next_roll.side
        return [rolled, _dice_request(state, next_roll)]
    state.pending = pending["resume"]
    return [rolled, *_resolve(state, held)[pending["shown"] :]]
