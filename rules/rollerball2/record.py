"""Game records: a match as plain text, one action a line, with its starting point in a header
(rules/records.py: the header format, the commitment and the checks every game shares).

    # Rollerball II game record
    [Game "rollerball2"]
    [Commitment "9f2c..."]          always, when the host gave a salt
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
match, card for card and die for die (docs/architecture.md: rules/records.py, records and fair dice). While a match is played its
seed is secret (it would predict every card and die): a live record carries only the
[Commitment], the hash the host published before the first card; `verify_record` checks a
finished record's revealed seed and salt against it and replays every action. Private line-ups
appear only once both are handed in (engine: SubmitLineup).
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterator, Sequence

from rules import records
from rules.records import NO_SEED
from rules.rollerball2.engine import apply_in_place, new_match
from rules.rollerball2.errors import RollerballError
from rules.rollerball2.state import (
    Event,
    MatchState,
    Settings,
    clone,
    parse_action,  # the action lines' format lives with the actions (state.py); re-exported
    roster_from_json,
)

__all__ = [
    "GAME",
    "NO_SEED",
    "parse_action",
    "parse_record",
    "plays",
    "replay",
    "result_text",
    "to_record",
    "verify_record",
]

GAME = "rollerball2"
REQUIRED_KEYS = ("Game", "Settings", "Home", "Away", "HomeLineup", "AwayLineup")
HEADER_KEYS = (*REQUIRED_KEYS, "Seed", "Salt", "Commitment", "Names", "Result")


def result_text(state: MatchState) -> str:
    """The [Result] header: "*" while the match is played, else the final score."""
    if not state.over:
        return records.LIVE_RESULT
    return (
        f"{state.home.roster.team} {state.home.score}, {state.away.roster.team} {state.away.score}"
    )


def to_record(
    state: MatchState, *, salt: str | None = None, reveal: bool, names: Sequence[str] = ()
) -> str:
    """The record of everything applied to this match so far.

    With `salt` the header always carries [Commitment "<hex>"]; [Seed] and [Salt] only when
    `reveal`. A live match's record must be written with reveal=False (rules/records.py).
    `names`: the coaches' names by seat."""
    setup = state.setup
    return records.write_record(
        GAME,
        title="Rollerball II game record",
        names=names,
        seed=setup["seed"],
        salt=salt,
        reveal=reveal,
        headers=[
            f"[Settings {json.dumps(setup['settings'], sort_keys=True)}]",
            records.header("Home", setup["home"], compact=True),
            records.header("Away", setup["away"], compact=True),
            records.header("HomeLineup", setup["home_lineup"], compact=True),
            records.header("AwayLineup", setup["away_lineup"], compact=True),
        ],
        result=result_text(state),
        actions=state.record,
    )


def _read(text: str) -> records.Record:
    """The record, its headers checked: every one known, the starting point complete."""
    try:
        record = records.read_record(text, known=HEADER_KEYS)
    except records.RecordError as error:
        raise RollerballError(str(error)) from None
    missing = [key for key in REQUIRED_KEYS if key not in record.headers]
    if missing:
        raise RollerballError(f"Record header is missing: {', '.join(missing)}.")
    if record.headers["Game"] != GAME:
        raise RollerballError("This record is not a Rollerball II match.")
    return record


def parse_record(text: str) -> tuple[dict, list[str]]:
    """The header (key -> JSON value) and the action lines of a record."""
    record = _read(text)
    return record.headers, [line for _, line in record.actions]


def _play(record: records.Record) -> MatchState:
    *_, state, _ = deque(_plays(record, copies=False), maxlen=1)[
        0
    ]  # the last line's (the set-up's, if none)
    return state


def _plays(
    record: records.Record, *, copies: bool
) -> Iterator[tuple[str, MatchState, list[Event]]]:
    """The starting point (no line, no events), then each action line with the match after it
    and its play-by-play; `copies`: each state yielded is a copy of its own (else the one
    match, played on in place)."""
    try:
        seed = record.seed
    except records.RecordError as error:
        raise RollerballError(str(error)) from None
    if seed is None:
        raise RollerballError(NO_SEED)
    header = record.headers
    try:
        settings = Settings(**header["Settings"])
    except TypeError as error:
        raise RollerballError(f"The record's [Settings] are unreadable ({error}).") from error
    try:
        state = new_match(
            seed,
            roster_from_json(header["Home"]),
            roster_from_json(header["Away"]),
            settings,
            home_lineup=header["HomeLineup"],
            away_lineup=header["AwayLineup"],
        )
    except (TypeError, ValueError, KeyError, AttributeError, OverflowError) as error:
        # A record is anyone's file: a team or line-up that is not one is said, not a crash.
        raise RollerballError(f"The record's teams or line-ups are unreadable ({error}).") from None
    yield "", clone(state) if copies else state, []
    for number, (_, line) in enumerate(record.actions, start=1):
        try:
            events = apply_in_place(state, parse_action(line))
        except RollerballError as error:
            raise RollerballError(f"Action {number} ('{line}'): {error}") from error
        yield line, clone(state) if copies else state, events


def plays(text: str) -> Iterator[tuple[str, MatchState, list[Event]]]:
    """A revealed record played line by line (a replay's steps, rules/replay.py): the starting
    point, then (line, the match after it, its play-by-play) for each action line."""
    return _plays(_read(text), copies=True)


def replay(text: str) -> MatchState:
    """Rebuild a match from its record (raises RollerballError naming a bad line; a live
    match's record, which has no seed, cannot be replayed)."""
    return _play(_read(text))


def verify_record(text: str) -> list[str]:
    """rules/records.py: check the revealed seed and salt against the [Commitment], replay
    every action and compare the [Result]. Returns what does not match, one sentence each (an
    empty list: the record is fair and consistent)."""
    return records.verify(text, GAME, lambda record: result_text(_play(record)), read=_read)
