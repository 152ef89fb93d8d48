"""Rocketball's engine face (rules/face.py): the match host's calls, forwarded to the engine.

Seat 0 is North (the challenger), seat 1 South (docs/rules/rocketball.md "On Discord"). Nothing
on the field is hidden; only the seed and the dice's state are, while the match is played
(docs/rules/rocketball.md "Records and fair dice").
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from rules.face import Engine, Outcome
from rules.games import title_of
from rules.records import Played
from rules.rocketball.actions import Action, Resign, Roll, format_action, parse_command
from rules.rocketball.ai import LEVEL_RATINGS, LEVELS, choose_action
from rules.rocketball.dice import Dice
from rules.rocketball.engine import apply, legal_actions, new_game
from rules.rocketball.errors import RocketballError
from rules.rocketball.events import Event
from rules.rocketball.record import GAME, plays, replay, to_record, verify_record
from rules.rocketball.state import PHASE_ROLL, GameState, Settings
from rules.rocketball.turn import actors

SEATS = ("N", "S")
HIDDEN_SEED = 0  # what a view shows for the secret seed


def _settings(value: Any) -> Settings | None:
    """The "settings" option: Settings, or its fields as JSON data (a stored option)."""
    if value is None or isinstance(value, Settings):
        return value
    return Settings(**value)


class RocketballEngine:
    name = GAME
    title = title_of(GAME)
    levels = LEVELS
    min_seats = 2
    max_seats = 2

    def new_state(self, seed: int, options: Mapping[str, Any]) -> tuple[GameState, list[Event]]:
        return new_game(seed, _settings(options.get("settings")))

    def opening_events(self, state: GameState) -> list[Event]:
        return new_game(state.seed, state.settings)[1]

    def rematch_options(self, state: GameState) -> dict[str, Any]:
        return {"settings": state.settings}

    def dump(self, state: GameState) -> dict[str, Any]:
        return state.to_dict()

    def load(self, data: Mapping[str, Any]) -> GameState:
        return GameState.from_dict(dict(data))

    def seed_of(self, state: GameState) -> int:
        return state.seed

    def actors(self, state: GameState) -> frozenset[int]:
        return frozenset(SEATS.index(side) for side in actors(state))

    def simultaneous(self, state: GameState) -> bool:
        return False  # one seat acts at a time (the second placer of Assault waits)

    def is_over(self, state: GameState) -> bool:
        return state.over

    def outcome(self, state: GameState) -> tuple[Outcome, ...]:
        if state.winner is None:
            return ("draw", "draw")
        return tuple("win" if side == state.winner else "loss" for side in SEATS)

    def legal_actions(self, state: GameState, seat: int) -> list[Action]:
        if SEATS[seat] not in actors(state):
            return []
        return legal_actions(state)

    def apply(self, state: GameState, seat: int, action: Action) -> tuple[GameState, list[Event]]:
        if isinstance(action, Resign) and action.player != SEATS[seat]:
            raise RocketballError("You can only resign for yourself.")
        return apply(state, action, SEATS[seat])

    def auto_action(self, state: GameState, seat: int) -> Action | None:
        """The d4 roll that begins a round has no choice in it (docs/rules/rocketball.md "The
        roll is made for you"): the bot makes it for a seat that left it to the bot, as the
        same Roll action in the record. An aim or a chip is always the player's own."""
        if state.phase == PHASE_ROLL and state.to_move == SEATS[seat]:
            return Roll()
        return None

    def resign_action(self, state: GameState, seat: int) -> Action:
        return Resign(SEATS[seat])

    def computer_action(
        self, state: GameState, seat: int, level: str, rng: random.Random
    ) -> Action:
        """The field is open to both seats, so the computer reads the state itself."""
        return choose_action(state, level, rng)

    def computer_rating(self, level: str) -> float | None:
        """The levels' ratings come from bench/rocketball_engine.py's Elo fit (ai.py)."""
        return LEVEL_RATINGS.get(level)

    def parse_action(self, state: GameState, seat: int, text: str) -> Action:
        return parse_command(text, SEATS[seat])

    def format_action(self, action: Action) -> str:
        return format_action(action)

    def view_for(self, state: GameState, seat: int | None) -> GameState:
        """The whole field, without the seed and the dice (they would predict every roll)."""
        view = state.copy()
        view.seed = HIDDEN_SEED
        view.rng = Dice(HIDDEN_SEED)
        return view

    def record(
        self, state: GameState, *, salt: str, reveal: bool, names: Sequence[str] = ()
    ) -> str:
        return to_record(state, salt=salt, reveal=reveal, names=names)

    def verify(self, text: str) -> list[str]:
        return verify_record(text)

    def replay(self, text: str) -> dict[str, Any]:
        return replay(text).to_dict()

    def plays(self, text: str) -> Iterator[Played]:
        for side, move, state, events in plays(text):
            yield Played(None if side is None else SEATS.index(side), move, state, events)


ENGINE: Engine[GameState, Action] = RocketballEngine()

__all__ = ["ENGINE", "SEATS", "RocketballEngine"]
