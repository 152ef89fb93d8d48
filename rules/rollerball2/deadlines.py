"""When a Rollerball II season's matchdays are due: the arithmetic of its deadline policies
(docs/rules/rollerball2.md, "Seasons", rulings D7 and D10-D12), without Discord or a database.

Each matchday has a *set* deadline: the season's start plus its length per matchday, moved by an
admin's extension (ruling D10) and by a pause (ruling D11). The deadline *in force* follows:
- the current matchday (the one whose deadline runs now) counts its time like a match's clock,
  with the arithmetic every league shares (rules/periods.py): from the deadline before it (the
  season's start for the first, the resume after a pause) to its set deadline; where the season
  allows it, the time inside the vacation of a coach whose fixture of it was not played when the
  vacation began (or when the matchday's time did) is not counted (ruling D12);
- every matchday is due at least half a matchday after the one before it (ruling D10): a
  deadline moved past the next one's takes it along, and the later ones keep their own once they
  are far enough apart.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from rules.periods import Period, counted_deadline, merged, time_left

HOUR = 3600.0


@dataclass(frozen=True)
class Waiting:
    """A fixture of the current matchday as its deadline sees it: its teams' coaches, and when
    it was played (None: not yet)."""

    coaches: tuple[int, ...]
    played_at: float | None


@dataclass(frozen=True)
class SeasonTime:
    """A season's deadlines as stored: its length per matchday and start, the matchday whose
    deadline runs (`current`; one past the last once the season is over), every matchday's set
    deadline, the deadline in force of the matchday before the current one (`passed`; None for
    the first), and when an admin last resumed it."""

    hours: int
    starts_at: float
    current: int
    set_deadlines: Mapping[int, float]
    passed: float | None = None
    resumed_at: float | None = None

    @property
    def over(self) -> bool:
        return self.current not in self.set_deadlines

    @property
    def spacing(self) -> float:
        """The least time between two deadlines: half a matchday (ruling D10)."""
        return self.hours * HOUR / 2

    def span(self) -> tuple[float, float]:
        """(since, until) of the current matchday's time: from the deadline before it (or the
        season's start, or its resume) to its set deadline, at least half a matchday after the
        deadline before it."""
        until = self.set_deadlines[self.current]
        if self.passed is not None:
            until = max(until, self.passed + self.spacing)
        since = self.passed if self.passed is not None else self.starts_at
        if self.resumed_at is not None:
            since = max(since, self.resumed_at)
        return min(since, until), until

    def in_force(self, away: Sequence[Period] = ()) -> dict[int, float]:
        """The deadline in force of the current matchday and every one after it: the current
        one's time with `away` (the vacations that count, `away_periods`) not counted, then each
        at its set deadline or half a matchday after the one before, whichever is later."""
        since, until = self.span()
        deadline = counted_deadline(since, until, away)
        deadlines = {self.current: deadline}
        for matchday in sorted(m for m in self.set_deadlines if m > self.current):
            deadline = max(self.set_deadlines[matchday], deadline + self.spacing)
            deadlines[matchday] = deadline
        return deadlines

    def extended(self, hours: int) -> dict[int, float]:
        """The set deadlines after an extension of the current matchday by `hours` (ruling D10):
        that many hours after the deadline it has before vacations; the later ones unchanged (the
        half-matchday rule moves those that come too close)."""
        _, until = self.span()
        return {**self.set_deadlines, self.current: until + hours * HOUR}

    def resumed(
        self, paused_at: float, now: float, away: Sequence[Period] = ()
    ) -> dict[int, float]:
        """The set deadlines after a pause from `paused_at` to `now` (ruling D11): the current
        matchday gets the time it had left when the pause began (vacations not counted), and
        every later one moves by the length of the pause."""
        since, until = self.span()
        left = time_left(min(since, paused_at), until, paused_at, away)
        pause = max(0.0, now - paused_at)
        deadlines = dict(self.set_deadlines)
        for matchday in deadlines:
            if matchday > self.current:
                deadlines[matchday] += pause
        deadlines[self.current] = now + left
        return deadlines


def away_periods(
    fixtures: Iterable[Waiting], vacations: Mapping[int, Sequence[Period]], since: float
) -> list[Period]:
    """The vacations that put off the current matchday (ruling D12): each coach's, from when it
    began or the matchday's time did (`since`), if their fixture was not played by then. Two
    coaches away at once count that time once."""
    periods = []
    for fixture in fixtures:
        for coach in set(fixture.coaches):
            for start, end in vacations.get(coach, ()):
                start = max(start, since)
                if end <= start:
                    continue
                if fixture.played_at is None or fixture.played_at > start:
                    periods.append((start, end))
    return merged(periods)
