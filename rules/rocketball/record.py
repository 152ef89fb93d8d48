"""Rocketball game records: write them, read them, replay them.

A record is a header of [Key "value"] lines (Game, Seed, Settings as JSON, Result) and then
one line per action: the acting player ("N" or "S") and the command, e.g. `S place c4 N`.
The line form is written and read in one place, next to the actions (actions.record_line /
actions.parse_record_line); the command language is described in actions.py. This module
re-exports `format_action` and `parse_command` for the callers that imported them here.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass

from rules.fairness import commitment, verify_commitment
from rules.rocketball.actions import (
    Action,
    Resign,
    format_action,
    parse_command,
    parse_record_line,
)
from rules.rocketball.engine import apply, new_game
from rules.rocketball.errors import RocketballError
from rules.rocketball.state import GameState, Settings

GAME = "rocketball"  # the game's name in its seed commitment (rules.fairness)


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
        return "*"
    result = "draw" if state.winner is None else f"{state.winner} wins"
    return f"{result} {state.score['N']}-{state.score['S']} ({state.end_reason})"


def to_record(state: GameState, *, reveal: bool, salt: str | None = None) -> str:
    """The game so far as a plain-text record (header + one line per action).

    notes/fairness.md: with `salt` the header always carries [Commitment "<hex>"] (the hash of
    the seed and salt published when the match began); [Seed] and [Salt] only when `reveal`
    (the host reveals them when the match ends). A record of a live match must be written with
    reveal=False: its seed would predict every future roll.
    """
    lines = ['[Game "Rocketball"]']
    if salt is not None:
        lines.append(f'[Commitment "{commitment(GAME, state.seed, salt)}"]')
    if reveal:
        lines.append(f'[Seed "{state.seed}"]')
        if salt is not None:
            lines.append(f"[Salt {json.dumps(salt)}]")
    lines += [
        f"[Settings {json.dumps(json.dumps(asdict(state.settings)))}]",
        f'[Result "{result_text(state)}"]',
        "",
        *state.history,
    ]
    return "\n".join(lines) + "\n"


_HEADER = re.compile(r'^\[(\w+)\s+("(?:[^"\\]|\\.)*")\]$')


def parse_record(text: str) -> Record:
    """Read a record. Raises RocketballError naming the line that is wrong."""
    headers: dict[str, str] = {}
    moves: list[tuple[str, Action]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        header = _HEADER.match(line)
        if header:
            headers[header.group(1)] = json.loads(header.group(2))
            continue
        try:
            moves.append(parse_record_line(line))
        except RocketballError as error:
            raise RocketballError(f"Line {number}: {error}") from None
    try:
        seed = int(headers["Seed"]) if "Seed" in headers else None
        settings = Settings(**json.loads(headers.get("Settings", "{}")))
    except (ValueError, TypeError) as error:
        raise RocketballError(
            f"The record's [Seed] or [Settings] header is unreadable: {error}"
        ) from None
    return Record(
        seed,
        settings,
        moves,
        commitment=headers.get("Commitment"),
        salt=headers.get("Salt"),
        result=headers.get("Result"),
    )


NO_SEED = (
    "This record has no seed: the match is still being played (its seed stays secret until it "
    "ends, so nobody can predict the dice), so it cannot be replayed. The record fetched after "
    "the match ends carries the seed."
)


def _play(record: Record) -> GameState:
    if record.seed is None:
        raise RocketballError(NO_SEED)
    state, _ = new_game(record.seed, record.settings)
    for number, (player, action) in enumerate(record.moves, start=1):
        try:
            state, _ = apply(state, action, None if isinstance(action, Resign) else player)
        except RocketballError as error:
            raise RocketballError(
                f"Move {number} ({player} {format_action(action)}): {error}"
            ) from None
    return state


def replay(text: str) -> GameState:
    """Play a record from its seed and settings; the final state. A record without a seed (a
    live match's) cannot be replayed: RocketballError says so."""
    return _play(parse_record(text))


def verify_record(text: str) -> list[str]:
    """notes/fairness.md: check the revealed seed and salt against the [Commitment], replay
    every move and compare the [Result]. Returns what does not match, one sentence each
    (an empty list means the record is fair and consistent)."""
    try:
        record = parse_record(text)
    except RocketballError as error:
        return [str(error)]
    if record.seed is None or record.salt is None:
        return ["The record has no [Seed] or [Salt]: they are revealed when the match ends."]
    if record.commitment is None:
        return ["The record has no [Commitment]: there is nothing to check the seed against."]
    problems = []
    if not verify_commitment(GAME, record.seed, record.salt, record.commitment):
        actual = commitment(GAME, record.seed, record.salt)
        problems.append(
            f"The commitment does not match: seed {record.seed} with the revealed salt hashes "
            f"to {actual}, the record published {record.commitment}."
        )
    try:
        state = _play(record)
    except RocketballError as error:
        return [*problems, f"The moves do not replay: {error}"]
    if record.result is not None and record.result != result_text(state):
        problems.append(
            f"The [Result] says {record.result!r} but the moves replay to {result_text(state)!r}."
        )
    return problems


__all__ = [
    "GAME",
    "NO_SEED",
    "Record",
    "format_action",
    "parse_command",
    "parse_record",
    "replay",
    "result_text",
    "to_record",
    "verify_record",
]
