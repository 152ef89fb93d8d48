"""The Rollerball II match engine: the ball fires, FACs are read, players duel on the Action Matrix.

Public entry points: new_match, legal_actions, apply, result. Everything random is drawn from the
state's own generator and reported as an Event, so spectators can follow every die and card.

How a card is read (seed "FAST ACTION CARDS" and "ACTION NOTES"): the state's `phase` says which
section the next FAC is read for. Reading it runs the section's effect; a duel (2D10 on the two
players' cards, looked up on the Action Matrix) may follow at once, and its outcome sets the phase
for the next card. A few choices belong to the coaches and pause the match in `pending`.

The engine is split by what it does; each part plays on one Resolution (the state it changes
and the events it tells, resolution.py):
    validation.py   what a coach may do now (legal_actions, the refusals)
    sequence.py     turning a card, the end of a card's play, periods, the final whistle,
                    carrying out an action, private line-ups, the coaches' own dice
    effects.py      what a FAC section does: places, conditions, penalties, injuries, bans,
                    rests, players sent off and back, where the ball goes
    duels.py        the Action Matrix: duels, steals, tows, defensive bikers, passes
    ball.py         possession and goals
"""

from __future__ import annotations

import copy
import random  # only random.Random instances (seeded, held in the state), never module functions
from dataclasses import asdict

from rules.rollerball2.cards import SECTION_HEADINGS
from rules.rollerball2.resolution import SIDE_WORD, clock, describe, leader, score_text
from rules.rollerball2.roster import Lineup, Roster, default_lineup, validate_lineup
from rules.rollerball2.scoresheet import MatchResult, PlayerLine, TeamSheet
from rules.rollerball2.sequence import new_deck, play, section_for
from rules.rollerball2.state import (
    AWAY,
    HOME,
    OVERTIME_PERIOD,
    PHASE_OVER,
    PHASE_SETUP,
    Action,
    Event,
    MatchState,
    Out,
    Settings,
    TeamState,
    clone,
    roster_to_json,
)
from rules.rollerball2.validation import legal_actions, substitution_slots, validate

__all__ = [
    "apply",
    "apply_in_place",
    "describe",
    "legal_actions",
    "new_match",
    "result",
    "scoreboard",
    "substitution_slots",
]


# --- setting up ------------------------------------------------------------------------------


def _team_state(side: str, roster: Roster, lineup: Lineup) -> TeamState:
    team = TeamState(side=side, roster=roster, lineup=dict(lineup), starters=dict(lineup))
    for card in roster.players:
        team.sheet[card.number] = PlayerLine(
            number=card.number, name=card.name, position=card.position, experience=card.experience
        )
    for number in roster.absent():
        team.out[number] = Out(reason="absent", until="match")
    for number in team.on_track():
        team.sheet[number].on_track = True
    return team


def new_match(
    seed: int | str,
    home: Roster,
    away: Roster,
    settings: Settings | None = None,
    home_lineup: Lineup | None = None,
    away_lineup: Lineup | None = None,
) -> MatchState:
    """A match ready for its first card. Lineups default to default_lineup(roster)."""
    settings = settings or Settings()
    home_lineup = dict(home_lineup) if home_lineup is not None else default_lineup(home)
    away_lineup = dict(away_lineup) if away_lineup is not None else default_lineup(away)
    validate_lineup(home, home_lineup)
    validate_lineup(away, away_lineup)
    rng = random.Random(f"rollerball2-match:{seed}")
    state = MatchState(
        seed=seed,
        settings=settings,
        home=_team_state(HOME, home, home_lineup),
        away=_team_state(AWAY, away, away_lineup),
        rng=rng,
        deck=new_deck(rng),
    )
    if settings.private_lineups:
        state.phase = PHASE_SETUP
    state.setup = {
        "seed": seed,
        "settings": asdict(settings),
        "home": roster_to_json(home),
        "away": roster_to_json(away),
        "home_lineup": home_lineup,
        "away_lineup": away_lineup,
    }
    return state


# --- playing ---------------------------------------------------------------------------------


def apply_in_place(state: MatchState, action: Action) -> list[Event]:
    """apply() without the copy: validates first, so an illegal action changes nothing."""
    validate(state, action)
    return play(state, action)


def apply(state: MatchState, action: Action) -> tuple[MatchState, list[Event]]:
    """Apply a coach action to a copy of `state`; returns the new state and the play-by-play.
    Raises RollerballError for an illegal action (the given state is never changed)."""
    validate(state, action)
    new_state = clone(state)
    events = apply_in_place(new_state, action)
    return new_state, events


# --- reading the match -----------------------------------------------------------------------


def scoreboard(state: MatchState) -> str:
    """One line for a status message: clock, score, who has the ball, what comes next."""
    score = score_text(state)
    if state.phase == PHASE_OVER:
        return f"Final: {score}"
    if state.phase == PHASE_SETUP:
        return f"{score}; waiting for the line-ups"
    if state.pending is not None:
        waiting = (
            f"waiting for the {SIDE_WORD[state.pending['team']].lower()} coach: "
            + state.pending["kind"].replace("_", " ")
        )
    else:
        waiting = f"next card: {SECTION_HEADINGS[section_for(state)]}"
    ball = (
        f"{describe(state, (state.control, state.handler))} has the ball"
        if state.control and state.handler
        else "the ball is loose"
    )
    return f"[{clock(state)}] {score}; {ball}; {waiting}"


def result(state: MatchState) -> MatchResult:
    """The scoresheet and what carries over (meaningful once the match is over)."""
    sheets = {}
    for side in (HOME, AWAY):
        team = state.team(side)
        sheets[side] = TeamSheet(
            team=team.roster.team,
            side=side,
            players=[copy.copy(team.sheet[card.number]) for card in team.roster.players],
            score_by_period=list(team.score_by_period),
        )
    return MatchResult(
        home=sheets[HOME],
        away=sheets[AWAY],
        winner=leader(state) if state.phase == PHASE_OVER else None,
        overtime=state.period == OVERTIME_PERIOD,
        facs_played=state.fac_count,
        carry_over={side: list(state.team(side).new_absences) for side in (HOME, AWAY)},
        moments=list(state.moments),
    )
