"""Game records and provably fair dice, for every turn-based game: one header format, one
commitment, one verification (docs/rules/rocketball.md "Records and fair dice",
docs/rules/rollerball.md and docs/rules/rollerball2.md "Commands and records").

A record is plain text, like a chess PGN: header lines `[Key value]` (the value is JSON: a
string in quotes, or an object), then one line per action. Lines starting with `#` are
comments. Every record has
    [Game "rocketball"]        which game (the one command line tells the games apart by it)
    [Commitment "9f2c..."]     the SHA-256 published when the match began (when it has a salt)
    [Seed "7"] [Salt "5be1..."] only once revealed: the match is over
    [Names ["Alice", "Bob"]]   the players' names by seat, as the match showed them (a replay
                               draws them as the live card did; the commitment does not cover them)
    ...the game's own headers (its settings, its teams)...
    [Result "..."]             "*" while the match is played

Provably fair dice: at the start the bot publishes `commitment(game, seed, salt)`; the seed and
the salt (128 random bits, so the seed cannot be found by trying every value) stay secret while
the match is played, since the seed predicts every roll. When it ends both are revealed, and
anyone can check that they hash to what was published before the first roll, then replay the
record to see every roll follow from the seed: `python -m rules verify FILE` (`verify` below).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from rules.errors import PlayerError

NO_SEED = (
    "This record has no seed: the match is still being played (its seed stays secret until it "
    "ends, so nobody can predict the dice), so it cannot be replayed. The record fetched after "
    "the match ends carries the seed."
)
NOT_REVEALED = "The record has no [Seed] or [Salt]: they are revealed when the match ends."
NO_COMMITMENT = "The record has no [Commitment]: there is nothing to check the seed against."
LIVE_RESULT = "*"  # the [Result] of a match still being played

_HEADER = re.compile(r"^\[(\w+)\s+(.*)\]$")


class RecordError(PlayerError):
    """A record that cannot be read or replayed: `str(error)` names the line and what is wrong."""


# --- the commitment --------------------------------------------------------------------------


def commitment(game: str, seed: int | str, salt: str) -> str:
    """The published hash of a match's secret seed (hex)."""
    return hashlib.sha256(f"ballcourt:{game}:{seed}:{salt}".encode()).hexdigest()


def verify_commitment(game: str, seed: int | str, salt: str, published: str) -> bool:
    """True when `seed` and `salt` are what was committed to as `published` (any text: a
    record is anyone's file)."""
    expected = commitment(game, seed, salt).encode()
    return hmac.compare_digest(expected, published.strip().lower().encode())


def same_commitment(found: str | None, published: str) -> bool:
    """True when a record's [Commitment] is `published` (any case and spacing: a record is
    anyone's file)."""
    return found is not None and hmac.compare_digest(
        found.strip().lower().encode(), published.strip().lower().encode()
    )


# --- writing ---------------------------------------------------------------------------------


def header(key: str, value: Any, *, compact: bool = False) -> str:
    """One header line; `compact` writes an object without spaces (long rosters)."""
    separators = (",", ":") if compact else None
    return f"[{key} {json.dumps(value, separators=separators)}]"


def write_record(
    game: str,
    *,
    seed: int | str,
    salt: str | None,
    reveal: bool,
    headers: Iterable[str],
    result: str,
    actions: Iterable[str],
    title: str | None = None,
    name: str | None = None,
    names: Sequence[str] = (),
) -> str:
    """A record's text. `game` names the game in the commitment; `name` is written in [Game]
    (default `game`). With `salt` the header carries the [Commitment]; the [Seed] (and the
    [Salt]) only when `reveal`: a live match's record must be written with reveal=False, since
    its seed would predict every future roll. `headers` are the game's own lines (see `header`),
    `title` an optional first comment line, `names` the players' names by seat ([Names])."""
    lines = [f"# {title}"] if title else []
    lines.append(header("Game", name or game))
    if salt is not None:
        lines.append(header("Commitment", commitment(game, seed, salt)))
    if reveal:
        lines.append(header("Seed", str(seed)))
        if salt is not None:
            lines.append(header("Salt", salt))
    if names:
        lines.append(header("Names", list(names)))
    lines += [*headers, header("Result", result), "", *actions]
    return "\n".join(lines) + "\n"


# --- reading ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Record:
    """A record as read: its headers (key -> JSON value) and its action lines, each with its
    line number in the text (for messages)."""

    headers: dict[str, Any]
    actions: list[tuple[int, str]]

    @property
    def game(self) -> str:
        """The [Game] header as the games are named in code: "Rocketball" -> "rocketball"."""
        return game_key(str(self.headers.get("Game", "")))

    @property
    def seed(self) -> int | str | None:
        """The revealed seed ("7" is the integer 7; other text stays text), None if not."""
        value = self.headers.get("Seed")
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise RecordError("The record's [Seed] is unreadable.")
        if isinstance(value, str) and value.lstrip("-").isdigit():
            return int(value)
        return value

    @property
    def salt(self) -> str | None:
        value = self.headers.get("Salt")
        return None if value is None else str(value)

    @property
    def commitment(self) -> str | None:
        value = self.headers.get("Commitment")
        return None if value is None else str(value)

    @property
    def result(self) -> str | None:
        value = self.headers.get("Result")
        return None if value is None else str(value)

    @property
    def names(self) -> tuple[str, ...]:
        """The players' names by seat ([Names]); empty when the record has none or they are
        not a list of texts (a record is anyone's file: a replay then names the seats only)."""
        value = self.headers.get("Names")
        if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
            return ()
        return tuple(value)


@dataclass(frozen=True)
class Played:
    """One line of a record played (a replay's step): the seat that acted (None: the match's
    set-up, before the first line), the line's action as the record writes it, the position
    after it and what happened, as players saw it (rules/face.py Event)."""

    seat: int | None
    move: str
    state: Any
    events: Sequence[Any]


def game_key(name: str) -> str:
    """A game's name as written in a record, as code names it: lower case, letters and digits."""
    return "".join(char for char in name.lower() if char.isalnum())


def read_record(text: str, *, known: Sequence[str] | None = None) -> Record:
    """The headers and the action lines of a record. Raises RecordError naming a malformed
    header line, or a header key not in `known` (when given)."""
    headers: dict[str, Any] = {}
    actions: list[tuple[int, str]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if not line.startswith("["):
            actions.append((number, line))
            continue
        match = _HEADER.match(line)
        if match is None:
            raise RecordError(f"Record line {number}: malformed header.")
        key, value = match.groups()
        if known is not None and key not in known:
            raise RecordError(f"Record line {number}: unknown header '{key}'.")
        try:
            headers[key] = json.loads(value)
        except json.JSONDecodeError:
            raise RecordError(f"Record line {number}: bad JSON in '{key}'.") from None
    return Record(headers, actions)


# --- verifying -------------------------------------------------------------------------------


def commitment_problems(game: str, record: Record) -> list[str]:
    """What does not match between a record's revealed seed and salt and its [Commitment] (empty:
    they hash to it), without replaying a line: the check a replay's set-up needs (the set-up is
    what the seed deals), cheap whatever the record's length. RecordError for an unreadable seed."""
    seed = record.seed
    if seed is None or record.salt is None:
        return [NOT_REVEALED]
    if record.commitment is None:
        return [NO_COMMITMENT]
    if not verify_commitment(game, seed, record.salt, record.commitment):
        return [
            f"The commitment does not match: seed {seed} with the revealed salt hashes to "
            f"{commitment(game, seed, record.salt)}, the record published {record.commitment}."
        ]
    return []


def verify(
    text: str,
    game: str,
    replay: Callable[[Record], str],
    *,
    read: Callable[[str], Record] = read_record,
) -> list[str]:
    """What does not match in a finished record, one sentence each (an empty list: the record
    is fair and consistent): the revealed seed and salt against the [Commitment] published
    before the first roll, every action replayed from the seed, the [Result] against where the
    actions lead. `replay(record)` plays the record and returns the final position's result
    text, raising PlayerError naming an action that does not replay; `read` reads the text
    (a game's own reader may check its headers)."""
    try:
        record = read(text)
        problems = commitment_problems(game, record)
    except PlayerError as error:
        return [str(error)]
    if problems[:1] in ([NOT_REVEALED], [NO_COMMITMENT]):
        return problems
    try:
        result = replay(record)
    except PlayerError as error:
        return [*problems, f"The actions do not replay: {error}"]
    if record.result is not None and record.result != result:
        problems.append(
            f"The [Result] says {record.result!r} but the actions replay to {result!r}."
        )
    return problems
