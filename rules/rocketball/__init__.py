"""Rocketball (Jonathan Leistiko's rules; docs/rules/rocketball.md): the pure rules engine and
computer opponent.

Public API (everything a cog or renderer needs):
    new_game(seed: int, settings: Settings | None = None) -> (GameState, list[Event])
    legal_actions(state) -> list[Action]          # for state.to_move; Resign is always allowed
    random_action(state, rng) -> Action           # = rng.choice(legal_actions(state)), faster
    apply_trusted(state, action) -> None          # in place, no copy/events/history (playout.py)
    playout(state, rng, *, max_actions=None) -> int   # random_action's game, in place, fast
    apply(state, action, player=None) -> (GameState, list[Event])
        raises RocketballError(message for the player); `state` is never changed
    Actions: Roll(), Place(square, facing=None, kind=None), Rotate(square, clockwise=True),
             Drift(from_square, to_square), Aim(facing), Pass(), Resign(player)
    parse_command(text, player=None) -> Action     # "c4 N", "rotate c4 cw", "roll", ...
    format_action(action) -> str
    record_line(player, action) -> str; parse_record_line(line) -> (player, Action)
    to_record(state, *, salt: str | None = None, reveal: bool) -> str   # seed only if reveal
    parse_record(text) -> Record; replay(text) -> GameState (needs the revealed seed)
    verify_record(text) -> list[str]               # commitment, moves, result; [] when OK
        (the header format, the commitment and the checks are rules/records.py's)
    GameState.to_json() / GameState.from_json(text); state.winner, state.over, state.phase,
    state.to_move, state.windbag, state.score
    next_step(state) -> NextStep                   # what happens next, as data (turn.py)
    actors(state) -> frozenset[str]                # the seats that may act now
    describe_next(step, names) -> str              # "North (Alice) rolls the d4."
    turn_prompt(state) -> str                      # = describe_next(next_step(state))
    choose_action(state, level, rng) -> Action     # computer: one of LEVELS
    suggest_action(state, rng) -> Action           # the card's suggested move (attacking)
    LEVELS = ("easy", "medium", "strong", "master"); LEVEL_RATINGS: level -> Elo-style rating
    ENGINE                                         # the engine face (rules/face.py)
    python -m rules verify FILE                     # OK, or what does not match (exit 1)
    python -m rules replay FILE                     # prints the final state as JSON
        (python -m rules.rocketball verify|replay FILE: the same)

Players are "N" (North) and "S" (South). State, geometry and edge arrows: see state.py.
"""

from rules.rocketball.actions import (
    Action,
    Aim,
    Drift,
    Pass,
    Place,
    Resign,
    Roll,
    Rotate,
    parse_record_line,
    record_line,
)
from rules.rocketball.ai import (
    LEVEL_RATINGS,
    LEVELS,
    choose_action,
    suggest_action,
    suggested_actions,
)
from rules.rocketball.engine import apply, legal_actions, new_game, random_action, turn_prompt
from rules.rocketball.errors import RocketballError
from rules.rocketball.events import Event, MoveEvent, Step
from rules.rocketball.face import ENGINE
from rules.rocketball.playout import apply_trusted, playout
from rules.rocketball.record import (
    Record,
    format_action,
    parse_command,
    parse_record,
    replay,
    to_record,
    verify_record,
)
from rules.rocketball.state import Ball, Chip, GameState, Settings
from rules.rocketball.turn import NextStep, actors, describe_next, next_step

__all__ = [
    "ENGINE",
    "LEVELS",
    "LEVEL_RATINGS",
    "Action",
    "Aim",
    "Ball",
    "Chip",
    "Drift",
    "Event",
    "GameState",
    "MoveEvent",
    "NextStep",
    "Pass",
    "Place",
    "Record",
    "Resign",
    "RocketballError",
    "Roll",
    "Rotate",
    "Settings",
    "Step",
    "actors",
    "apply",
    "apply_trusted",
    "choose_action",
    "describe_next",
    "format_action",
    "legal_actions",
    "new_game",
    "next_step",
    "parse_command",
    "parse_record",
    "parse_record_line",
    "playout",
    "random_action",
    "record_line",
    "replay",
    "suggest_action",
    "suggested_actions",
    "to_record",
    "turn_prompt",
    "verify_record",
]
