"""Rollerball game records: a header, then one line per action: `P2 move c3 d3`
(rules/records.py: the header format, the commitment and the checks every game shares).

Header: [Game], [Commitment] (when the host gave a salt), [Seed] and [Salt] only once revealed
(the host's provably fair dice), [Edition], [Players], [Board], [Target], [TurnLimit], [Result]
("*" while the game is played). While the secret bid is open the record leaves the bids out.

A resignation (docs/rules/rollerball.md, ruling D1) is a line of its own, `P2 resign`, where it
happened: the resigned seat's later lines are the computer's moves for it, and a game that the
resignation ended ends on that line (one seat left in it, or the record's last line: no person
was left), the most victory points of the seats still in it winning."""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from rules import records
from rules.rollerball.actions import parse_command
from rules.rollerball.engine import apply, new_game
from rules.rollerball.errors import RollerballBoardError
from rules.rollerball.events import Event
from rules.rollerball.movement import seat_name
from rules.rollerball.state import GameState, Settings
from rules.rollerball.table import ended_event, resignation_winners, resigned_event

GAME = "rollerball"
LINE = re.compile(r"^P(\d+) (.+)$")


RESIGN = "resign"


def result_text(state: GameState, winners: Sequence[int] | None = None) -> str:
    """The [Result] header: "*" while the game is played, else who won ("Player 2"); `winners`:
    the seats a resignation left winning (ruling D1), when one ended the game."""
    if winners is not None:
        return ", ".join(seat_name(s) for s in winners)
    if not state.over:
        return records.LIVE_RESULT
    return ", ".join(seat_name(s) for s in state.winners)


def with_resignations(
    log: Sequence[tuple[int, str]], resignations: Sequence[tuple[int, int]]
) -> list[tuple[int, str]]:
    """The board's log with each resignation, (seat, the log's length when it resigned),
    written as a line where it happened."""
    lines: list[tuple[int, str]] = []
    pending = sorted(resignations, key=lambda resignation: resignation[1])
    for index, entry in enumerate([*log, None]):
        while pending and pending[0][1] <= index:
            lines.append((pending.pop(0)[0], RESIGN))
        if entry is not None:
            lines.append(entry)
    return lines


def public_log(
    state: GameState, resignations: Sequence[tuple[int, int]] = ()
) -> list[tuple[int, str]]:
    """The action lines anyone may read now, the resignations among them: no bids while the
    secret bid is open."""
    lines = with_resignations(state.log, resignations)
    if state.phase == "bid":
        return [(seat, text) for seat, text in lines if not text.startswith("bid")]
    return lines


def to_record(
    state: GameState,
    *,
    salt: str | None = None,
    reveal: bool,
    names: Sequence[str] = (),
    resignations: Sequence[tuple[int, int]] = (),
    winners: Sequence[int] | None = None,
) -> str:
    """The record. With `salt` it carries the [Commitment]; the seed and the salt only when
    `reveal` (the game is over: a live game's seed would predict every shuffle). `names`: the
    players' names by seat; `resignations`, (seat, the log's length then), and the `winners` a
    resignation left, from the hosted table (table.py)."""
    s = state.settings
    if state.seed is None:
        raise RollerballBoardError("A seat's view has no seed: the record is the game's own.")
    return records.write_record(
        GAME,
        seed=state.seed,
        salt=salt,
        reveal=reveal,
        names=names,
        headers=[
            records.header("Edition", s.edition),
            records.header("Players", str(s.players)),
            records.header("Board", str(s.board)),
            records.header("Target", str(s.target_vp)),
            records.header("TurnLimit", str(s.turn_limit)),
        ],
        result=result_text(state, winners),
        actions=[f"P{seat + 1} {text}" for seat, text in public_log(state, resignations)],
    )


@dataclass(frozen=True)
class Record:
    headers: dict[str, Any]
    moves: list[tuple[int, str]]

    @property
    def settings(self) -> Settings:
        h = self.headers
        try:
            return Settings(
                edition=h.get("Edition", "later"),
                players=int(h.get("Players", 4)),
                board=int(h.get("Board", 9)),
                target_vp=int(h.get("Target", 5)),
                turn_limit=int(h.get("TurnLimit", 0)),
            )
        except (TypeError, ValueError, OverflowError) as error:
            # OverflowError: a number JSON reads as infinity (1e999) is no whole number either
            raise RollerballBoardError(f"the record's settings are unreadable ({error})") from None


def _from_record(record: records.Record) -> Record:
    moves: list[tuple[int, str]] = []
    for number, line in record.actions:
        match = LINE.match(line)
        if match is None:
            raise RollerballBoardError(f"line {number}: cannot read “{line[:40]}”")
        moves.append((int(match[1]) - 1, match[2]))
    return Record(record.headers, moves)


def _read(text: str) -> records.Record:
    try:
        return records.read_record(text)
    except records.RecordError as error:
        raise RollerballBoardError(str(error)) from None


def parse_record(text: str) -> Record:
    """The headers and the (seat, command) lines; RollerballBoardError names a line it cannot
    read."""
    return _from_record(_read(text))


def _play(record: records.Record) -> GameState:
    return _final(record)[0]


def _final(record: records.Record) -> tuple[GameState, tuple[int, ...] | None]:
    """The last line's board (the set-up's, if none) and the winners a resignation left."""
    winners: list[tuple[int, ...] | None] = [None]
    *_, state, _ = deque(_plays(record, winners), maxlen=1)[0]
    return state, winners[0]


def _plays(
    record: records.Record, ended: list[tuple[int, ...] | None] | None = None
) -> Iterator[tuple[int | None, str, GameState, list[Event]]]:
    """The deal (no seat, no command), then each line played: (seat, command, the state after
    it, its events). A resignation that ends the game (module docstring) puts its winners in
    `ended`."""
    try:
        seed = record.seed
    except records.RecordError as error:
        raise RollerballBoardError(str(error)) from None
    if seed is None:
        raise RollerballBoardError(records.NO_SEED)
    if not isinstance(seed, int):
        raise RollerballBoardError("the record's [Seed] is not a number")
    parsed = _from_record(record)
    settings = parsed.settings
    state, events = new_game(seed, settings)
    yield None, "", state, events
    resigned: list[int] = []
    winners: tuple[int, ...] | None = None
    for index, (seat, command) in enumerate(parsed.moves, 1):
        if winners is not None:
            raise RollerballBoardError(
                f"move {index} (P{seat + 1} {command}): the game ended by resignation before it"
            )
        if command == RESIGN:
            if not 0 <= seat < settings.players or seat in resigned or state.over:
                raise RollerballBoardError(
                    f"move {index} (P{seat + 1} resign): that seat cannot resign now"
                )
            resigned.append(seat)
            events = [resigned_event(seat)]
            if len(resigned) >= settings.players - 1 or index == len(parsed.moves):
                winners = resignation_winners(state, resigned)
                events.append(ended_event(winners))
                if ended is not None:
                    ended[0] = winners
            yield seat, command, state, events
            continue
        try:
            workman = state.workmen[seat] if 0 <= seat < settings.players else None
            state, events = apply(state, parse_command(command, settings.board, workman), seat)
        except (RollerballBoardError, IndexError) as error:
            raise RollerballBoardError(f"move {index} (P{seat + 1} {command}): {error}") from None
        yield seat, command, state, events


def plays(text: str) -> Iterator[tuple[int | None, str, GameState, list[Event]]]:
    """A revealed record played line by line (a replay's steps, rules/replay.py): the deal,
    then (seat, command, the board after it, its events) for each line."""
    return _plays(_read(text))


def replay(text: str) -> GameState:
    """Replay a revealed record to its final state (raises RollerballBoardError naming the line;
    a live game's record, which has no seed, cannot be replayed)."""
    return _play(_read(text))


def verify_record(text: str) -> list[str]:
    """What does not match in a revealed record (empty list: OK): the commitment against the
    seed and salt, every action's legality on replay, the stated result (rules/records.py)."""
    return records.verify(text, GAME, lambda record: result_text(*_final(record)))
