"""When a league's rounds are played: its deadline rule, in UTC, and the arithmetic of the
deadline policies (docs/rules/volleyball.md, "Rounds and deadlines" and "Deadline policies").

A rule is either "every N hours" (counted from the moment the league started) or "every
WEEKDAY at HH:MM". Ruling 43: after a round is played, the next deadline is the rule's first
moment at least half a period (12 hours of a 24-hour rule, three and a half days of a weekly
one) after both now and the deadline just passed, so a round run early (`round run-now`) does
not shorten the next one, after downtime the round that was due is played once and the next
one gets its time instead of being played at once, and a round whose deadline was extended or
put off does not leave the next one a few hours.

A round's time is counted like a match's clock, by the arithmetic every league shares
(rules/periods.py `counted_deadline` and `time_left`): it began at `since` and lasts until its set
deadline; the managers' vacations inside it are not counted (ruling 53), and a pause keeps what
was left of it (ruling 52).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from rules.errors import echoed

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
DEFAULT_WEEKDAY = 6  # Sunday
DEFAULT_MINUTE = 18 * 60  # 18:00 UTC
WEEK = 7 * 24 * 3600
_TIME = re.compile(r"^\s*(\d{1,2})(?::(\d{2}))?\s*(?:utc)?\s*$", re.IGNORECASE)


class DeadlineError(ValueError):
    """A deadline rule that cannot be used; the message says why."""


@dataclass(frozen=True)
class DeadlineRule:
    every_hours: int | None = None
    weekday: int = DEFAULT_WEEKDAY  # 0 Monday ... 6 Sunday
    minute: int = DEFAULT_MINUTE  # minutes after midnight, UTC

    def describe(self) -> str:
        if self.every_hours is not None:
            return f"every {self.every_hours} hours"
        return (
            f"every {WEEKDAYS[self.weekday]} at {self.minute // 60:02d}:{self.minute % 60:02d} UTC"
        )

    @property
    def period(self) -> float:
        """Seconds from one deadline to the next."""
        return self.every_hours * 3600.0 if self.every_hours is not None else float(WEEK)

    def to_dict(self) -> dict:
        if self.every_hours is not None:
            return {"every_hours": self.every_hours}
        return {"weekday": self.weekday, "minute": self.minute}

    @classmethod
    def from_dict(cls, data: dict) -> DeadlineRule:
        if data.get("every_hours") is not None:
            return cls(every_hours=int(data["every_hours"]))
        return cls(weekday=int(data.get("weekday", DEFAULT_WEEKDAY)), minute=int(data["minute"]))

    def next_after(self, moment: float, anchor: float) -> float:
        """The rule's first deadline strictly after `moment` (seconds since the epoch)."""
        if self.every_hours is not None:
            period = self.every_hours * 3600
            steps = int((moment - anchor) // period) + 1 if moment >= anchor else 1
            return anchor + max(1, steps) * period
        start = datetime.fromtimestamp(moment, UTC)
        midnight = start.replace(hour=0, minute=0, second=0, microsecond=0)
        days = (self.weekday - start.weekday()) % 7
        candidate = midnight + timedelta(days=days, minutes=self.minute)
        if candidate.timestamp() <= moment:
            candidate += timedelta(days=7)
        return candidate.timestamp()


def parse_rule(
    every_hours: int | None, weekday: str | None, time_of_day: str | None
) -> DeadlineRule:
    """The rule from the command's options: `every_hours`, or a weekday and/or a time (the
    default Sunday 18:00 UTC fills in what is missing)."""
    if every_hours is not None and (weekday or time_of_day):
        raise DeadlineError(
            "Give either every_hours or a weekday and time for the deadlines, not both."
        )
    if every_hours is not None:
        if not 1 <= every_hours <= 24 * 28:
            raise DeadlineError("every_hours must be 1 to 672 (four weeks).")
        return DeadlineRule(every_hours=every_hours)
    day = DEFAULT_WEEKDAY
    if weekday:
        names = [w.casefold() for w in WEEKDAYS]
        key = weekday.strip().casefold()
        matches = [i for i, n in enumerate(names) if n.startswith(key[:3])] if key else []
        if not matches:
            raise DeadlineError(f"{echoed(weekday)} is not a day of the week.")
        day = matches[0]
    minute = DEFAULT_MINUTE
    if time_of_day:
        found = _TIME.match(time_of_day)
        hours = int(found.group(1)) if found else 99
        minutes = int(found.group(2) or 0) if found else 99
        if not found or hours > 23 or minutes > 59:
            raise DeadlineError(
                f"{echoed(time_of_day)} is not a time of day: write it like 18:00 (UTC)."
            )
        minute = hours * 60 + minutes
    return DeadlineRule(weekday=day, minute=minute)


def next_deadline(rule: DeadlineRule, anchor: float, *, now: float, after: float | None) -> float:
    """The deadline of the next round: with `after` (the deadline just passed), the rule's
    first moment at least half a period after now and after it (ruling 43); without (the
    league starts, or its rule changed), the rule's first moment after now."""
    if after is None:
        return rule.next_after(now, anchor)
    return rule.next_after(max(now, after) + rule.period / 2 - 1, anchor)


def missed_rounds_after(
    managed: dict[str, int],
    with_orders: set[str],
    before: dict[str, int],
    excused: set[int],
) -> dict[str, int]:
    """Each managed team's rounds in a row without orders once this round is played (ruling
    55): back to 0 with orders on file, one more without, the same when its manager was on
    vacation at the deadline. `managed` is team -> manager, `before` the counts so far."""
    counts = {}
    for team, user in managed.items():
        if team in with_orders:
            counts[team] = 0
        elif user in excused:
            counts[team] = before.get(team, 0)
        else:
            counts[team] = before.get(team, 0) + 1
    return counts
