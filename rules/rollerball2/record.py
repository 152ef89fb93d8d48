"""Game records: a match as plain text, one action a line, with its starting point in a header.

    # Rollerball II game record
    [Game "rollerball2"]
    [Seed 7]
    [Settings {"overtime": true}]
    [Home {...roster as JSON...}]
    [Away {...}]
    [HomeLineup {"Biker1": 50, ...}]
    [AwayLineup {...}]
    next
    catcher away roll
    sub home Skater2 31
    biker home Biker3
    scorer away Skater1

Header values are JSON. Replaying the actions from the header's starting point gives the same
match, card for card and die for die (DESIGN.md: "A game record").
"""

from __future__ import annotations

import json

from rules.rollerball2.engine import apply_in_place, new_match
from rules.rollerball2.errors import RollerballError
from rules.rollerball2.state import (
    MatchState,
    Settings,
    parse_action,  # the action lines' format lives with the actions (state.py); re-exported
    roster_from_json,
)

__all__ = ["parse_action", "parse_record", "replay", "to_record"]

HEADER_KEYS = ("Game", "Seed", "Settings", "Home", "Away", "HomeLineup", "AwayLineup")


def to_record(state: MatchState) -> str:
    """The record of everything applied to this match so far."""
    setup = state.setup
    lines = ["# Rollerball II game record", '[Game "rollerball2"]']
    lines.append(f"[Seed {json.dumps(setup['seed'])}]")
    lines.append(f"[Settings {json.dumps(setup['settings'], sort_keys=True)}]")
    lines.append(f"[Home {json.dumps(setup['home'], separators=(',', ':'))}]")
    lines.append(f"[Away {json.dumps(setup['away'], separators=(',', ':'))}]")
    lines.append(f"[HomeLineup {json.dumps(setup['home_lineup'], separators=(',', ':'))}]")
    lines.append(f"[AwayLineup {json.dumps(setup['away_lineup'], separators=(',', ':'))}]")
    lines.extend(state.record)
    return "\n".join(lines) + "\n"


def parse_record(text: str) -> tuple[dict, list[str]]:
    """The header (key -> JSON value) and the action lines of a record."""
    header: dict = {}
    actions: list[str] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            if not line.endswith("]") or " " not in line:
                raise RollerballError(f"Record line {number}: malformed header.")
            key, _, value = line[1:-1].partition(" ")
            if key not in HEADER_KEYS:
                raise RollerballError(f"Record line {number}: unknown header '{key}'.")
            try:
                header[key] = json.loads(value)
            except json.JSONDecodeError as error:
                raise RollerballError(f"Record line {number}: bad JSON in '{key}'.") from error
            continue
        actions.append(line)
    missing = [key for key in HEADER_KEYS if key not in header]
    if missing:
        raise RollerballError(f"Record header is missing: {', '.join(missing)}.")
    if header["Game"] != "rollerball2":
        raise RollerballError("This record is not a Rollerball II match.")
    return header, actions


def replay(text: str) -> MatchState:
    """Rebuild a match from its record (raises RollerballError naming a bad line)."""
    header, actions = parse_record(text)
    state = new_match(
        header["Seed"],
        roster_from_json(header["Home"]),
        roster_from_json(header["Away"]),
        Settings(**header["Settings"]),
        home_lineup=header["HomeLineup"],
        away_lineup=header["AwayLineup"],
    )
    for number, line in enumerate(actions, start=1):
        try:
            apply_in_place(state, parse_action(line))
        except RollerballError as error:
            raise RollerballError(f"Action {number} ('{line}'): {error}") from error
    return state
