"""Game records: a match as plain text, one action a line, with its starting point in a header.

    # Rollerball II game record
    [Game "rollerball2"]
    [Commitment "9f2c..."]          always, when the host gave a salt (notes/fairness.md)
    [Seed "7"]                      only once revealed (the match is over)
    [Salt "5be1..."]                only once revealed
    [Settings {"overtime": true, "private_lineups": false}]
    [Home {...roster as JSON...}]
    [Away {...}]
    [HomeLineup {"Biker1": 50, ...}]
    [AwayLineup {...}]
    [Result "Houston 5, Tokyo 3"]   "*" while the match is played
    next
    catcher away roll
    sub home Skater2 31
    biker home Biker3
    scorer away Skater1

Header values are JSON. Replaying the actions from the header's starting point gives the same
match, card for card and die for die (DESIGN.md: "A game record"). While a match is played its
seed is secret (it would predict every card and die): a live record carries only the
[Commitment], the hash the host published before the first card; `verify_record` checks a
finished record's revealed seed and salt against it and replays every action. Private line-ups
appear only once both are handed in (engine: SubmitLineup).
"""

from __future__ import annotations

import json

from rules.fairness import commitment, verify_commitment
from rules.rollerball2.engine import apply_in_place, new_match
from rules.rollerball2.errors import RollerballError
from rules.rollerball2.state import (
    MatchState,
    Settings,
    parse_action,  # the action lines' format lives with the actions (state.py); re-exported
    roster_from_json,
)

__all__ = [
    "GAME",
    "NO_SEED",
    "parse_action",
    "parse_record",
    "replay",
    "result_text",
    "to_record",
    "verify_record",
]

GAME = "rollerball2"
REQUIRED_KEYS = ("Game", "Settings", "Home", "Away", "HomeLineup", "AwayLineup")
HEADER_KEYS = (*REQUIRED_KEYS, "Seed", "Salt", "Commitment", "Result")
NO_SEED = (
    "This record has no seed: the match is still being played (its seed stays secret until it "
    "ends, so nobody can predict the cards and dice), so it cannot be replayed. The record "
    "fetched after the match ends carries the seed."
)


def result_text(state: MatchState) -> str:
    """The [Result] header: "*" while the match is played, else the final score."""
    if not state.over:
        return "*"
    return (
        f"{state.home.roster.team} {state.home.score}, {state.away.roster.team} {state.away.score}"
    )


def to_record(state: MatchState, *, reveal: bool = True, salt: str | None = None) -> str:
    """The record of everything applied to this match so far.

    notes/fairness.md: with `salt` the header always carries [Commitment "<hex>"]; [Seed] and
    [Salt] only when `reveal`. A live match's record must be written with reveal=False."""
    setup = state.setup
    lines = ["# Rollerball II game record", f'[Game "{GAME}"]']
    if salt is not None:
        lines.append(f"[Commitment {json.dumps(commitment(GAME, setup['seed'], salt))}]")
    if reveal:
        lines.append(f"[Seed {json.dumps(str(setup['seed']))}]")
        if salt is not None:
            lines.append(f"[Salt {json.dumps(salt)}]")
    lines.append(f"[Settings {json.dumps(setup['settings'], sort_keys=True)}]")
    lines.append(f"[Home {json.dumps(setup['home'], separators=(',', ':'))}]")
    lines.append(f"[Away {json.dumps(setup['away'], separators=(',', ':'))}]")
    lines.append(f"[HomeLineup {json.dumps(setup['home_lineup'], separators=(',', ':'))}]")
    lines.append(f"[AwayLineup {json.dumps(setup['away_lineup'], separators=(',', ':'))}]")
    lines.append(f"[Result {json.dumps(result_text(state))}]")
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
    missing = [key for key in REQUIRED_KEYS if key not in header]
    if missing:
        raise RollerballError(f"Record header is missing: {', '.join(missing)}.")
    if header["Game"] != GAME:
        raise RollerballError("This record is not a Rollerball II match.")
    return header, actions


def _seed(value: object) -> int | str:
    """A seed as written: "7" (or the older bare 7) is the integer 7; other text stays text."""
    if isinstance(value, str) and value.lstrip("-").isdigit():
        return int(value)
    if isinstance(value, int | str) and not isinstance(value, bool):
        return value
    raise RollerballError("The record's [Seed] is unreadable.")


def _play(header: dict, actions: list[str]) -> MatchState:
    if "Seed" not in header:
        raise RollerballError(NO_SEED)
    try:
        settings = Settings(**header["Settings"])
    except TypeError as error:
        raise RollerballError(f"The record's [Settings] are unreadable ({error}).") from error
    state = new_match(
        _seed(header["Seed"]),
        roster_from_json(header["Home"]),
        roster_from_json(header["Away"]),
        settings,
        home_lineup=header["HomeLineup"],
        away_lineup=header["AwayLineup"],
    )
    for number, line in enumerate(actions, start=1):
        try:
            apply_in_place(state, parse_action(line))
        except RollerballError as error:
            raise RollerballError(f"Action {number} ('{line}'): {error}") from error
    return state


def replay(text: str) -> MatchState:
    """Rebuild a match from its record (raises RollerballError naming a bad line; a live
    match's record, which has no seed, cannot be replayed)."""
    header, actions = parse_record(text)
    return _play(header, actions)


def verify_record(text: str) -> list[str]:
    """notes/fairness.md: check the revealed seed and salt against the [Commitment], replay
    every action and compare the [Result]. Returns what does not match, one sentence each (an
    empty list: the record is fair and consistent)."""
    try:
        header, actions = parse_record(text)
    except RollerballError as error:
        return [str(error)]
    if "Seed" not in header or "Salt" not in header:
        return ["The record has no [Seed] or [Salt]: they are revealed when the match ends."]
    if "Commitment" not in header:
        return ["The record has no [Commitment]: there is nothing to check the seed against."]
    problems = []
    try:
        seed = _seed(header["Seed"])
    except RollerballError as error:
        return [str(error)]
    salt, published = str(header["Salt"]), str(header["Commitment"])
    if not verify_commitment(GAME, seed, salt, published):
        problems.append(
            f"The commitment does not match: seed {seed} with the revealed salt hashes to "
            f"{commitment(GAME, seed, salt)}, the record published {published}."
        )
    try:
        state = _play(header, actions)
    except RollerballError as error:
        return [*problems, f"The actions do not replay: {error}"]
    if "Result" in header and header["Result"] != result_text(state):
        problems.append(
            f"The [Result] says {header['Result']!r} but the actions replay to "
            f"{result_text(state)!r}."
        )
    return problems
