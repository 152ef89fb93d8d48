"""Rocketball game records: write them, read them, replay them, verify them (rules/records.py:
the header format, the commitment and the checks every game shares).

A record is a header of [Key "value"] lines (Game, Commitment, Seed and Salt once revealed,
Settings as JSON, Result) and then one line per action: the acting player ("N" or "S") and the
command, e.g. `S place c4 N`. The line form is written and read in one place, next to the
actions (actions.record_line / actions.parse_record_line); the command language is described in
actions.py. This module re-exports `format_action` and `parse_command` for the callers that
imported them here.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass

from rules import records
from rules.records import NO_SEED
from rules.rocketball.actions import (
    Action,
    Resign,
    format_action,
    parse_command,
    parse_record_line,
)
from rules.rocketball.engine import apply, new_game
from rules.rocketball.errors import RocketballError
from rules.rocketball.events import Event
from rules.rocketball.state import GameState, Settings

GAME = "rocketball"  # the game's name in its seed commitment and the records' [Game]
NAME = "Rocketball"  # how [Game] has always been written


@dataclass
class Record:
    """A parsed record. `seed` and `salt` are None while the match is live (kept secret)."""

    seed: int | None
    settings: Settings
    moves: list[tuple[str, Action]]
    commitment: str | None = None
    salt: str | None = None
    result: str | None = None


def result_text(state: GameState) -> str:
    """The [Result] header: "*" while live, else e.g. "N wins 2-1 (score)"."""
    if not state.over:
        return records.LIVE_RESULT
    result = "draw" if state.winner is None else f"{state.winner} wins"
    return f"{result} {state.score['N']}-{state.score['S']} ({state.end_reason})"


def to_record(
    state: GameState, *, salt: str | None = None, reveal: bool, names: Sequence[str] = ()
) -> str:
    """The game so far as a plain-text record (header + one line per action).

    With `salt` the header always carries [Commitment "<hex>"] (the hash of the seed and salt
    published when the match began); [Seed] and [Salt] only when `reveal` (the host reveals
    them when the match ends). A record of a live match must be written with reveal=False: its
    seed would predict every future roll (rules/records.py). `names`: the players', North first.
    """
    return records.write_record(
        GAME,
        name=NAME,
        names=names,
        seed=state.seed,
        salt=salt,
        reveal=reveal,
        headers=[records.header("Settings", json.dumps(asdict(state.settings)))],
        result=result_text(state),
        actions=state.history,
    )


def _from_record(record: records.Record) -> Record:
    moves: list[tuple[str, Action]] = []
    for number, line in record.actions:
        try:
            moves.append(parse_record_line(line))
        except RocketballError as error:
            raise RocketballError(f"Line {number}: {error}") from None
    try:
        seed = record.seed
        settings = Settings(**json.loads(record.headers.get("Settings", "{}")))
        if seed is not None:
            seed = int(seed)
    except (ValueError, TypeError, records.RecordError) as error:
        raise RocketballError(
            f"The record's [Seed] or [Settings] header is unreadable: {error}"
        ) from None
    return Record(
        seed,
        settings,
        moves,
        commitment=record.commitment,
        salt=record.salt,
        result=record.result,
    )


def parse_record(text: str) -> Record:
    """Read a record. Raises RocketballError naming the line that is wrong."""
    try:
        record = records.read_record(text)
    except records.RecordError as error:
        raise RocketballError(str(error)) from None
    return _from_record(record)


def _plays(record: Record) -> Iterator[tuple[str | None, str, GameState, list[Event]]]:
    """The set-up (no player, no move), then each line played: (player, the line's command,
    the state after it, its events)."""
    if record.seed is None:
        raise RocketballError(NO_SEED)
    state, events = new_game(record.seed, record.settings)
    yield None, "", state, events
    for number, (player, action) in enumerate(record.moves, start=1):
        try:
            state, events = apply(state, action, None if isinstance(action, Resign) else player)
        except RocketballError as error:
            raise RocketballError(
                f"Move {number} ({player} {format_action(action)}): {error}"
            ) from None
        yield player, format_action(action), state, events


def _play(record: Record) -> GameState:
    *_, state, _ = deque(_plays(record), maxlen=1)[0]  # the last line's (the set-up's, if none)
    return state


def plays(text: str) -> Iterator[tuple[str | None, str, GameState, list[Event]]]:
    """A revealed record played line by line (a replay's steps, rules/replay.py): the set-up,
    then (player, command, state after, events) for each line. RocketballError names a line
    that does not replay."""
    return _plays(parse_record(text))


def replay(text: str) -> GameState:
    """Play a record from its seed and settings; the final state. A record without a seed (a
    live match's) cannot be replayed: RocketballError says so."""
    return _play(parse_record(text))


def verify_record(text: str) -> list[str]:
    """rules/records.py: check the revealed seed and salt against the [Commitment], replay
    every move and compare the [Result]. Returns what does not match, one sentence each
    (an empty list means the record is fair and consistent)."""
    return records.verify(text, GAME, lambda record: result_text(_play(_from_record(record))))


__all__ = [
    "GAME",
    "NO_SEED",
    "Record",
    "format_action",
    "parse_command",
    "parse_record",
    "plays",
    "replay",
    "result_text",
    "to_record",
    "verify_record",
]
