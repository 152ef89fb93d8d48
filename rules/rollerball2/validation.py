"""What a coach may do now: the legal actions, and the refusal (a RollerballError written for the
coach) of anything else, before the match is touched (docs/architecture.md, "A new game's checklist": an illegal action leaves the
state untouched). Seed SUBSTITUTING PLAYERS: changes only while in possession, never the ball
handler; a penalised player's slot stays short-handed (PENALTY TIMING)."""

from __future__ import annotations

from rules.rollerball2.errors import RollerballError
from rules.rollerball2.resolution import SIDE_WORD, bikers_on_track, is_locked, open_skaters
from rules.rollerball2.roster import default_lineup, fits_slot, validate_lineup
from rules.rollerball2.state import (
    AWAY,
    HOME,
    PHASE_OVER,
    PHASE_SETUP,
    Action,
    CatcherChoice,
    ChooseBiker,
    ChooseScorer,
    MatchState,
    NextCard,
    RollDie,
    SubmitLineup,
    Substitute,
)


def _bench(state: MatchState, side: str) -> list[int]:
    team = state.team(side)
    on_track = team.on_track()
    return [
        card.number
        for card in team.roster.players
        if card.number not in on_track and card.number not in team.out
    ]


def _can_substitute(state: MatchState, side: str) -> bool:
    return state.phase != PHASE_OVER and state.pending is None and state.control == side


def substitution_slots(state: MatchState, side: str) -> list[str]:
    """Slots `side` may change now (in possession, not the handler's, not short-handed)."""
    if not _can_substitute(state, side):
        return []
    team = state.team(side)
    return [
        slot for slot in team.lineup if slot != state.handler and not is_locked(state, team, slot)
    ]


def legal_actions(state: MatchState) -> list[Action]:
    """Everything that may be done now. In PHASE_SETUP any legal line-up may be handed in; the
    list offers each waiting coach his default line-up."""
    if state.phase == PHASE_OVER:
        return []
    if state.phase == PHASE_SETUP:
        return [
            SubmitLineup.of(side, default_lineup(state.team(side).roster))
            for side in (HOME, AWAY)
            if side not in state.submitted
        ]
    pending = state.pending
    if pending is not None:
        side = pending["team"]
        if pending["kind"] == "dice":
            return [RollDie(side)]
        if pending["kind"] == "catcher_choice":
            return [CatcherChoice(side, True), CatcherChoice(side, False)]
        if pending["kind"] in ("defensive_biker", "assist_biker"):
            return [ChooseBiker(side, slot) for slot in bikers_on_track(state, side)]
        if pending["kind"] == "pass_scorer":
            return [
                ChooseScorer(side, slot)
                for slot in open_skaters(state, side, exclude=pending["passer"])
            ]
    actions: list[Action] = [NextCard()]
    if state.control is not None:
        side = state.control
        team = state.team(side)
        bench = _bench(state, side)
        for slot in substitution_slots(state, side):
            for number in bench:
                if fits_slot(team.card(number).position, slot):
                    actions.append(Substitute(side, slot, number))
    return actions


def _check_pending(state: MatchState, kind: str, team: str) -> dict:
    pending = state.pending
    if pending is None or pending["kind"] != kind:
        raise RollerballError("That choice is not being asked for right now.")
    if pending["team"] != team:
        raise RollerballError(f"It is the {SIDE_WORD[pending['team']].lower()} coach's choice.")
    return pending


def validate(state: MatchState, action: Action) -> None:
    """Raise RollerballError (a message for the coach) unless `action` is legal now."""
    if state.phase == PHASE_OVER:
        raise RollerballError("The match is over.")
    if isinstance(action, SubmitLineup):
        if state.phase != PHASE_SETUP:
            raise RollerballError("The line-ups are in and the match has started.")
        if action.team not in (HOME, AWAY):
            raise RollerballError("Team must be home or away.")
        if action.team in state.submitted:
            raise RollerballError("Your line-up is already handed in.")
        validate_lineup(state.team(action.team).roster, action.as_dict())
        return
    if state.phase == PHASE_SETUP:
        waiting = " and ".join(
            SIDE_WORD[side] for side in (HOME, AWAY) if side not in state.submitted
        )
        raise RollerballError(f"Waiting for line-ups: {waiting}.")
    if state.pending is not None and state.pending["kind"] == "dice":
        side = state.pending["team"]
        if not isinstance(action, RollDie):
            raise RollerballError(
                f"The dice first: the {SIDE_WORD[side].lower()} coach rolls the next die."
            )
        if action.team != side:
            raise RollerballError(f"It is the {SIDE_WORD[side].lower()} coach's die to roll.")
        return
    if isinstance(action, RollDie):
        raise RollerballError("No die is waiting to be rolled.")
    if isinstance(action, NextCard):
        if state.pending is not None:
            raise RollerballError(
                "A coach must decide first: " + state.pending["kind"].replace("_", " ") + "."
            )
        return
    if isinstance(action, Substitute):
        if action.team not in (HOME, AWAY):
            raise RollerballError("Team must be home or away.")
        if state.pending is not None:
            raise RollerballError("Finish the decision in hand before substituting.")
        if state.control != action.team:
            raise RollerballError("You may only substitute while your team has the ball.")
        team = state.team(action.team)
        if action.slot not in team.lineup:
            raise RollerballError(f"There is no {action.slot} slot in your lineup.")
        if action.slot == state.handler:
            raise RollerballError("You can't substitute the current ball handler.")
        if is_locked(state, team, action.slot):
            raise RollerballError(
                f"{action.slot} is short-handed for a penalty until its marker turns up."
            )
        card = team.card(action.number)
        if action.number in team.out:
            raise RollerballError(f"#{card.number} {card.name} may not play now.")
        if action.number in team.on_track():
            raise RollerballError(f"#{card.number} {card.name} is already on the track.")
        if not fits_slot(card.position, action.slot):
            raise RollerballError(f"A {card.position} cannot play {action.slot}.")
        return
    if isinstance(action, CatcherChoice):
        _check_pending(state, "catcher_choice", action.team)
        return
    if isinstance(action, ChooseBiker):
        pending = state.pending
        kind = pending["kind"] if pending else ""
        if kind not in ("defensive_biker", "assist_biker"):
            raise RollerballError("No biker is being asked for right now.")
        _check_pending(state, kind, action.team)
        if action.slot not in bikers_on_track(state, action.team):
            raise RollerballError(f"{action.slot} has no biker on the track.")
        return
    if isinstance(action, ChooseScorer):
        pending = _check_pending(state, "pass_scorer", action.team)
        if action.slot not in open_skaters(state, action.team, exclude=pending["passer"]):
            raise RollerballError(f"{action.slot} is not an open skater for this pass.")
        return
    raise RollerballError("Unknown action.")
