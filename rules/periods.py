"""Time with some periods not counted: the arithmetic of a match's clock and of a league's
deadline when players are on vacation (docs/async-play.md "Vacation"; Volleyball's rulings 52
and 53, Rollerball II's D10-D12). Pure: moments are seconds since the epoch, given by the
caller; nothing here reads a clock.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

Period = tuple[float, float]  # (start, end), seconds since the epoch

__all__ = [
    "Period",
    "charged",
    "counted_deadline",
    "extend",
    "merged",
    "overlap",
    "time_left",
]


def merged(periods: Iterable[Period]) -> list[Period]:
    """The same moments as periods that do not overlap, in order (several people's vacations
    may overlap; a moment inside two is one moment)."""
    out: list[Period] = []
    for a, b in sorted(periods):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def overlap(periods: Sequence[Period], start: float, end: float) -> float:
    """How much of [start, end] lies inside the periods (a moment inside two counts once)."""
    return sum(max(0.0, min(end, b) - max(start, a)) for a, b in merged(periods))


def extend(start: float, length: float, periods: Sequence[Period]) -> float:
    """The moment `length` seconds outside the periods have passed since `start`: when a timer
    set at `start` for `length` fires if the time inside the periods (vacations) is not
    counted."""
    moment, need = start, max(0.0, length)
    for a, b in sorted(periods):
        if b <= moment:
            continue
        a = max(a, moment)
        if a - moment >= need:
            break
        need -= a - moment
        moment = b
    return moment + need


def charged(since: float, now: float, periods: Sequence[Period] = ()) -> float:
    """The time a clock that started at `since` has run by `now`, vacations not counted."""
    return max(0.0, now - since - overlap(periods, since, now))


def counted_deadline(since: float, set_deadline: float, periods: Sequence[Period]) -> float:
    """A league's deadline with the time inside `periods` (its players' vacations) not counted:
    the moment its time, from `since` to `set_deadline`, has passed outside them (Volleyball's
    ruling 53, Rollerball II's ruling D11)."""
    return extend(since, max(0.0, set_deadline - since), periods)


def time_left(
    since: float, set_deadline: float, moment: float, periods: Sequence[Period] = ()
) -> float:
    """What a league's deadline has left at `moment` (a pause): its time, from `since` to
    `set_deadline`, less the time counted since it began, vacations not counted (Volleyball's
    ruling 52, Rollerball II's ruling D10)."""
    return max(0.0, set_deadline - since - charged(since, moment, periods))
