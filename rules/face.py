"""The engine face: the one typed protocol every turn-based game's engine implements, so that
the match host (host/) can run any of them without knowing which, and so that a game can be
played, saved, replayed and verified without Discord (tests/rules/test_face.py).

A game package exposes one object, `ENGINE` (`rules.rocketball.ENGINE`, `rules.rollerball.ENGINE`,
`rules.rollerball2.ENGINE`), generic in its state and action types; its entry in rules/games.py
says it has one (`face=True`). Volleyball is a league run by rounds, not a turn-based match: it
has no face.

Seats are numbered 0..n-1 in the order of the match's players. A state is never changed: `apply`
returns a new one. A PlayerError (rules/errors.py) is a mistake a player can fix (an illegal
action, bad notation); its text is written for them and the state is left untouched. Events are
what players see happen, in order (every die and card: docs/architecture.md "A new game's checklist"); each has a
`text`.

Records, commitments and verification are rules/records.py, the command line `python -m rules
verify FILE` (rules/__main__.py).
"""

from __future__ import annotations

import dataclasses
import importlib
import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Literal, Protocol, TypeVar

from rules import games as registry
from rules.records import Played, RecordError, read_record

StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT")

Outcome = Literal["win", "loss", "draw"]

# The games with a face (rules/games.py), by the name they have everywhere, in that name's order.
GAMES = tuple(sorted(game.name for game in registry.GAMES if game.face))
# The games whose matches have records (rules/records.py): every face, and the games whose
# package has a `record.RECORDS` without one (Volleyball's matches, ruling 57 of its page).
RECORDED = tuple(sorted(game.name for game in registry.GAMES if game.face or game.records))


class Event(Protocol):
    """One thing that happened, as players read it ("North rolls the d4: 3")."""

    @property
    def text(self) -> str: ...


class Engine(Protocol[StateT, ActionT]):
    """A turn-based game as the match host drives it.

    `StateT` is what the host stores (JSON through `dump`/`load`) and `ActionT` what a seat
    does. Everything here is pure and deterministic: the same seed, options and actions give
    the same game (a computer's choice depends only on the state and the `rng` it is given).
    """

    @property
    def name(self) -> str:
        """ "rocketball": the games table's kind, the records' [Game], the seed commitment."""
        ...

    @property
    def title(self) -> str:
        """ "Rocketball": as players read it."""
        ...

    @property
    def levels(self) -> tuple[str, ...]:
        """The computer player's levels, the default first (empty: no computer player)."""
        ...

    @property
    def min_seats(self) -> int: ...

    @property
    def max_seats(self) -> int: ...

    # ---- a match from its seed --------------------------------------------------------------

    def new_state(self, seed: int, options: Mapping[str, Any]) -> tuple[StateT, Sequence[Event]]:
        """A new match from its secret seed and the game's options (from the challenge or the
        lobby; the host adds "human_seats" where a game needs it). A PlayerError when the
        options do not fit together (the 11 by 11 board with 3 players)."""
        ...

    def opening_events(self, state: StateT) -> Sequence[Event]:
        """The events of the match's set-up, again (a turn message posted anew at start-up)."""
        ...

    def rematch_options(self, state: StateT) -> dict[str, Any]:
        """The options of `state`'s match, for a rematch with the same settings."""
        ...

    # ---- storing ------------------------------------------------------------------------------

    def dump(self, state: StateT) -> dict[str, Any]:
        """The state as JSON data (what the database stores); `load` gives it back exactly."""
        ...

    def load(self, data: Mapping[str, Any]) -> StateT: ...

    def seed_of(self, state: StateT) -> int:
        """The match's secret seed (revealed when it is over, with the salt)."""
        ...

    # ---- whose turn ---------------------------------------------------------------------------

    def actors(self, state: StateT) -> frozenset[int]:
        """The seats that may act now (several for a simultaneous decision; none when over)."""
        ...

    def simultaneous(self, state: StateT) -> bool:
        """True while several seats decide at once (a secret bid): one seat's action then does
        not make the other deciding seats' controls stale."""
        ...

    def is_over(self, state: StateT) -> bool: ...

    def outcome(self, state: StateT) -> tuple[Outcome, ...]:
        """'win', 'loss' or 'draw' for each seat of a finished match."""
        ...

    # ---- acting -------------------------------------------------------------------------------

    def legal_actions(self, state: StateT, seat: int) -> list[ActionT]:
        """What `seat` may do now (empty when it may not act), each accepted by `apply`.
        Resigning is always open and is not listed (`resign_action`)."""
        ...

    def apply(self, state: StateT, seat: int, action: ActionT) -> tuple[StateT, Sequence[Event]]:
        """`seat` does `action`: the new state and what happened. A PlayerError for an action
        that is not legal now or not `seat`'s to make; `state` is never changed."""
        ...

    def auto_action(self, state: StateT, seat: int) -> ActionT | None:
        """The routine action the bot takes for a seat that left its routine actions to it (a
        coach's die to roll), when one is due now; None: the seat decides this one itself."""
        ...

    def resign_action(self, state: StateT, seat: int) -> ActionT:
        """The action by which `seat` resigns (what it means is the game's ruling)."""
        ...

    def computer_action(self, state: StateT, seat: int, level: str, rng: random.Random) -> ActionT:
        """The computer's choice for `seat` at `level`, reading only what that seat may see."""
        ...

    def computer_rating(self, level: str) -> float | None:
        """The Elo rating a computer level plays at (None: games against it are not rated)."""
        ...

    # ---- actions as text ----------------------------------------------------------------------

    def parse_action(self, state: StateT, seat: int, text: str) -> ActionT:
        """A typed move for `seat` now; accepts the forms `format_action` writes for a seat's
        moves (not a secret bid's, written without its cards). A PlayerError saying what was
        not understood, or what the game waits for, when it is not one."""
        ...

    def format_action(self, action: ActionT) -> str:
        """The action as its record line's command (stored with the move); a secret one (a
        bid) says only what kind of action it was."""
        ...

    # ---- hidden information --------------------------------------------------------------------

    def view_for(self, state: StateT, seat: int | None) -> StateT:
        """What `seat` (None: a spectator) may see: a state with everything hidden from it
        removed (the seed, the deck's order, the others' hands and secret choices). Everything
        shown to a seat is drawn from its view (docs/architecture.md "A new game's checklist")."""
        ...

    # ---- records (rules/records.py) -------------------------------------------------------------

    def record(self, state: StateT, *, salt: str, reveal: bool, names: Sequence[str] = ()) -> str:
        """The game record with its [Commitment] header; the seed and the salt appear only
        when `reveal` (the match is over); `names`, the players' by seat, in [Names]."""
        ...

    def verify(self, text: str) -> list[str]:
        """What does not match in a finished record (empty: fair and consistent): the seed
        and salt against the commitment, every action replayed, the result."""
        ...

    def replay(self, text: str) -> dict[str, Any]:
        """The position a revealed record's actions lead to, as JSON data; a PlayerError
        naming the action that does not replay (or saying a live record has no seed)."""
        ...

    def plays(self, text: str) -> Iterator[Played]:
        """A revealed record played line by line, for a replay (rules/replay.py): the set-up
        first (no seat, no move, its events), then each line. The state is the engine's
        position, as the game's renderer draws it. A PlayerError as for `replay`."""
        ...


def rules_named(event: Any) -> tuple[str, ...]:
    """The topics and rulings of its game's rules page that an event names as deciding it
    (its steps' too, where it has any: `all_rules`); none for an event that names none."""
    return tuple(getattr(event, "all_rules", None) or getattr(event, "rules", ()))


def with_hosted(engine: Any, state: Any, played: Sequence[Played]) -> list[Played]:
    """A record's lines (`engine.plays`) with the lines the hosted match wrote itself and its
    record does not keep (Rollerball II's opening, hand-overs, stops and deadlines), each among
    the events of the record's line it came with, so that a Why? words their rulings too. An
    engine lists those by `hosted(state)`: (the record's line, 0 the set-up; before that line's
    events or after them; the event); an engine whose record keeps everything has none."""
    hosted = getattr(engine, "hosted", None)
    if hosted is None:
        return list(played)
    told = [(list[Any](), list[Any]()) for _ in played]
    for line, first, event in hosted(state):
        if 0 <= line < len(played):
            told[line][0 if first else 1].append(event)
    return [
        dataclasses.replace(line, events=[*before, *line.events, *after])
        for line, (before, after) in zip(played, told, strict=True)
    ]


def engine_for(game: str) -> Engine[Any, Any]:
    """The face of `game` (one of GAMES). KeyError for a game without one."""
    if game not in GAMES:
        raise KeyError(game)
    return importlib.import_module(f"rules.{game}").ENGINE


class Recorded(Protocol):
    """What the record tools (rules/__main__.py, rules/replay.py) need of a game: every
    engine face has it, and a game with records but no face (rules/games.py `records`)."""

    @property
    def name(self) -> str: ...

    @property
    def title(self) -> str: ...

    def verify(self, text: str) -> list[str]: ...

    def replay(self, text: str) -> dict[str, Any]: ...

    def plays(self, text: str) -> Iterator[Played]: ...


def engine_of_record(text: str, game: str | None = None) -> Recorded:
    """The face of a record's game, read from its [Game] header (or `game`, which the header,
    when it names one, must agree with); RecordError saying which games have records."""
    return engine_named(read_record(text).game, game)


def engine_named(named: str, game: str | None = None) -> Recorded:
    """`engine_of_record` for a record already read: `named` is its [Game] as code names it
    (rules/records.py Record.game)."""
    if game is not None:
        if named and named != game:
            raise RecordError(
                f"This is a record of {named}, not {game}: use python -m rules verify FILE."
            )
        named = game
    if named not in RECORDED:
        said = f"“{named}”" if named else "none"
        raise RecordError(
            f"The record's [Game] header names no game I know ({said}); the games with records "
            f"are {', '.join(RECORDED)}."
        )
    if named not in GAMES:
        return importlib.import_module(f"rules.{named}.record").RECORDS
    return engine_for(named)


def engines() -> Sequence[Engine[Any, Any]]:
    """Every game's face, in GAMES order."""
    return [engine_for(game) for game in GAMES]
