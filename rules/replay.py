"""A finished match step by step, from its record, only once the record is verified (rules/
records.py): the revealed seed and salt hash to the commitment published before the first roll,
every line replays from that seed, and the [Result] is where the lines lead. A record that
fails any check is refused with the reason; a live match's record (no seed: it would predict
every roll) is refused as still being played. What the replay shows is then exactly what the
dice and the players did, drawn by the game's own renderer (render/replay.py; the command line
`python -m render replay FILE DIR`).

Each step is one line of the record (the set-up first): the position before it, what happened
(the events players read on the card) and the position after it.

The checks come in two parts (`opened`, then `Replay.check`): the seed against the commitment
costs a hash and proves the set-up (it is what the seed deals), so a replay's first card is
drawn after it alone; replaying every line and comparing the [Result] costs a replay of the
whole record (a long Rollerball II match: tens of turns' time, bench/replay.py) and is done
once, before any later step is shown. `verified` does both at once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from rules import records
from rules.errors import PlayerError
from rules.face import engine_named
from rules.records import RecordError

IN_PLAY = (
    "This match is still being played: its replay opens when it ends (until then its seed "
    "stays secret, since it would predict every roll)."
)
REFUSED = "This record does not check out, so it is not replayed: "


@dataclass(frozen=True)
class Position:
    """One step of a replay: the record's line `number` (0: the set-up), the seat that acted
    (None: the set-up, or a line that names no seat), the line's move, the position before,
    what happened (the engine's events, each with a `text`) and the position after."""

    number: int
    seat: int | None
    move: str
    before: Any
    events: Sequence[Any]
    after: Any

    @property
    def texts(self) -> list[str]:
        return [text for event in self.events if (text := getattr(event, "text", ""))]


class Replay:
    """A verified record's steps, with the players' names by seat ([Names]; empty: none).

    The steps are played as they are first asked for (`position`), not all at once: the
    record was replayed whole when it was verified, and a card needs only the step it shows
    (playing every step again, each position copied, cost a long match's first frame several
    times a turn: bench/replay.py). `positions` plays them all."""

    def __init__(
        self,
        game: str,
        title: str,
        names: tuple[str, ...],
        result: str,
        steps: Iterator[Position],
        length: int,
        verify: Callable[[], list[str]] = list,
    ) -> None:
        self.game, self.title, self.names, self.result = game, title, names, result
        self._steps, self._played, self._length = steps, list[Position](), length
        self._lock = threading.Lock()  # two clicks' worker threads may ask at once
        self._verify = verify
        self._problems: list[str] | None = None
        self._checking = threading.Lock()  # the record is replayed whole once, by one thread

    @property
    def checked(self) -> bool:
        """Whether every line was replayed and the [Result] compared (`check`) already."""
        return self._problems is not None

    def check(self) -> None:
        """Every line replayed from the seed and the [Result] compared, once (later calls
        answer from the first); RecordError with the reasons for a record that fails."""
        with self._checking:
            if self._problems is None:
                self._problems = self._verify()
        if self._problems:
            raise RecordError(REFUSED + " ".join(self._problems))

    def __len__(self) -> int:
        return self._length

    def position(self, index: int) -> Position:
        """Step `index` (0: the set-up); IndexError past the last."""
        if not 0 <= index < self._length:
            raise IndexError(index)
        with self._lock:
            while len(self._played) <= index:
                self._played.append(next(self._steps))
            return self._played[index]

    @property
    def positions(self) -> tuple[Position, ...]:
        return tuple(self.position(index) for index in range(self._length))


def _positions(played: Iterator[Any]) -> Iterator[Position]:
    """The steps of `played` (an engine's `plays`); a line that does not replay (some engines
    read every line before the set-up) is a RecordError with the reason, as `check` says it."""
    previous: Any = None
    number = 0
    while True:
        try:
            step = next(played)
        except StopIteration:
            return
        except PlayerError as error:
            raise RecordError(f"{REFUSED}The actions do not replay: {error}") from None
        before = step.state if previous is None else previous
        yield Position(number, step.seat, step.move, before, tuple(step.events), step.state)
        previous, number = step.state, number + 1


def opened(
    text: str, game: str | None = None, *, published: str | None = None, checked: bool = False
) -> Replay:
    """A finished record's steps after the checks that replay no line (module docstring): a
    live record is refused as still being played, and one whose seed and salt do not hash to
    its [Commitment], or whose [Commitment] is not the one `published` when the match began
    (where the caller knows it: the host does; a record's own proves nothing if it was written
    with the seed it is checked against), with the reason (RecordError). Its lines are
    replayed and its [Result] compared by `Replay.check`, which must pass before any step after
    the set-up is shown; `checked`: the caller verified this very text before (the host keeps
    which records it verified, by their hash), so nothing is replayed twice."""
    record = records.read_record(text)
    engine = engine_named(record.game, game)
    if record.result in (None, records.LIVE_RESULT) or "Seed" not in record.headers:
        raise RecordError(IN_PLAY)
    problems = []
    if published is not None and not records.same_commitment(record.commitment, published):
        problems.append(
            f"The record's [Commitment] {record.commitment} is not the one published when the "
            f"match began ({published})."
        )
    problems += records.commitment_problems(engine.name, record)
    if problems:
        raise RecordError(REFUSED + " ".join(problems))
    steps = _positions(iter(engine.plays(text)))
    length = len(record.actions) + 1  # the set-up, then one step a line
    replay = Replay(
        engine.name,
        engine.title,
        record.names,
        str(record.result),
        steps,
        length,
        list if checked else lambda: engine.verify(text),
    )
    return replay


def verified(text: str, game: str | None = None, *, published: str | None = None) -> Replay:
    """The steps of a finished record after checking it whole (module docstring): `opened`,
    then every line replayed and the [Result] compared (`Replay.check`); RecordError with the
    reason for a record that is not replayed (`game`: the record must be of this game)."""
    replay = opened(text, game, published=published)
    replay.check()
    return replay


def step_times(
    replay: Replay, saved: Sequence[tuple[float, Sequence[str]]], upto: int | None = None
) -> tuple[float | None, ...]:
    """When each step (up to step `upto`; None: the last) was played (seconds since the epoch; None: not known), from the saves
    the host made, (when, the event texts saved), in order. A save holds the texts of one or
    more steps (a player's move and the computer's reply are saved together), so each step's
    texts are found in order among the saves' and the step takes the time of the save that
    holds its last one; a text the host added (a timeout's note) is passed over. The set-up
    takes the first save's time (the match began then)."""
    upto = len(replay) - 1 if upto is None else upto
    flat = [(when, text) for when, texts in saved for text in texts if text]
    times: list[float | None] = []
    at = 0
    for position in (replay.position(index) for index in range(upto + 1)):
        when: float | None = None
        for text in position.texts:
            found = next((i for i in range(at, len(flat)) if flat[i][1] == text), None)
            if found is not None:
                when, at = flat[found][0], found + 1
        times.append(when)
    if times and times[0] is None and flat:
        times[0] = flat[0][0]
    return tuple(times)
