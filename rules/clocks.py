"""A match's clock (docs/async-play.md, "Clocks"; Board Game Arena's and OGS's model): every
player starts with a bank of time; while it is their turn their bank runs; when their turn ends
it gets the increment, up to the cap. Time inside a vacation is not charged (rules/periods.py).
Pure: moments are seconds since the epoch, given by the caller; the match host (host/clocks.py)
reads the vacations, charges the clocks when a move is saved and sets the timers.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.periods import Period, charged, extend


@dataclass
class MatchClock:
    """Each seat's bank (seconds left when its clock last stopped) and, for the seats whose
    clock runs now, since when."""

    bank: float  # what each seat starts with
    increment: float  # added when a seat's turn ends
    cap: float | None  # the most a bank holds after an increment; None: no cap
    left: dict[int, float] = field(default_factory=dict)
    since: dict[int, float] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "bank": self.bank,
            "increment": self.increment,
            "cap": self.cap,
            "left": {str(seat): value for seat, value in self.left.items()},
            "since": {str(seat): value for seat, value in self.since.items()},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MatchClock:
        return cls(
            bank=float(data["bank"]),
            increment=float(data.get("increment", 0.0)),
            cap=None if data.get("cap") is None else float(data["cap"]),
            left={int(seat): float(value) for seat, value in data.get("left", {}).items()},
            since={int(seat): float(value) for seat, value in data.get("since", {}).items()},
        )


def new_clock(
    bank_minutes: float, increment_minutes: float, cap_minutes: float | None, seats: Iterable[int]
) -> MatchClock:
    bank = bank_minutes * 60.0
    return MatchClock(
        bank=bank,
        increment=increment_minutes * 60.0,
        cap=None if cap_minutes is None else max(cap_minutes * 60.0, bank),
        left={seat: bank for seat in seats},
    )


def seated(clock: Mapping[str, Any] | None, players: int) -> dict[str, Any] | None:
    """A clock made for a table's seats, cut to the players who sat down when it started."""
    if not clock:
        return None
    made = MatchClock.from_dict(clock)
    made.left = {seat: left for seat, left in made.left.items() if seat < players}
    for seat in range(players):
        made.left.setdefault(seat, made.bank)
    return made.to_dict()


def fresh(clock: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The same clock with every bank full and nothing running (a rematch)."""
    if not clock:
        return None
    made = MatchClock.from_dict(clock)
    return MatchClock(
        made.bank, made.increment, made.cap, dict.fromkeys(made.left, made.bank)
    ).to_dict()


def remaining(clock: MatchClock, seat: int, now: float, periods: Sequence[Period] = ()) -> float:
    left = clock.left.get(seat, clock.bank)
    if seat in clock.since:
        left -= charged(clock.since[seat], now, periods)
    return left


def run_out_at(clock: MatchClock, seat: int, periods: Sequence[Period] = ()) -> float | None:
    """When the seat's running clock runs out if nobody moves (None: it does not run)."""
    if seat not in clock.since:
        return None
    return extend(clock.since[seat], max(0.0, clock.left.get(seat, clock.bank)), periods)


def on_move(
    clock: MatchClock,
    running: Iterable[int],
    now: float,
    away: Mapping[int, Sequence[Period]] | None = None,
) -> None:
    """The clocks after a saved move, when `running` are the seats whose turn it is now (people,
    not computers): a seat whose turn ended is charged its time (vacations not counted) and gets
    the increment, up to the cap; a seat whose turn began starts its clock. A seat that keeps the
    turn (several actions in a row, a simultaneous decision) keeps running. A seat that starts
    with no time left has no time left (docs/async-play.md, "Clocks": time is never given
    back, only earned by the increment)."""
    running = set(running)
    away = away or {}
    for seat in sorted(set(clock.since) - running):
        left = max(0.0, remaining(clock, seat, now, away.get(seat, ()))) + clock.increment
        if clock.cap is not None:
            left = min(left, clock.cap)
        clock.left[seat] = left
        del clock.since[seat]
    for seat in sorted(running - set(clock.since)):
        clock.since[seat] = now
