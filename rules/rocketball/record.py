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

# --- records --------------------------------------------------------------------------------


@dataclass
class Record:
    seed: int
    settings: Settings
    moves: list[tuple[str, Action]]


def to_record(state: GameState) -> str:
    """The game so far as a plain-text record (header + one line per action)."""
    result = "*"
    if state.over:
        result = "draw" if state.winner is None else f"{state.winner} wins"
        result += f" {state.score['N']}-{state.score['S']} ({state.end_reason})"
    lines = [
        '[Game "Rocketball"]',
        f'[Seed "{state.seed}"]',
        f"[Settings {json.dumps(json.dumps(asdict(state.settings)))}]",
        f'[Result "{result}"]',
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
    if "Seed" not in headers:
        raise RocketballError('The record has no [Seed "..."] header.')
    settings = Settings(**json.loads(headers.get("Settings", "{}")))
    return Record(int(headers["Seed"]), settings, moves)


def replay(text: str) -> GameState:
    """Play a record from its seed and settings; the final state."""
    record = parse_record(text)
    state, _ = new_game(record.seed, record.settings)
    for number, (player, action) in enumerate(record.moves, start=1):
        try:
            state, _ = apply(state, action, None if isinstance(action, Resign) else player)
        except RocketballError as error:
            raise RocketballError(
                f"Move {number} ({player} {format_action(action)}): {error}"
            ) from None
    return state


__all__ = [
    "Record",
    "format_action",
    "parse_command",
    "parse_record",
    "replay",
    "to_record",
]
