"""When rounds are played: "every N hours" from the start, or a weekday and time in UTC; the
next deadline after a round is the rule's first moment at least half a period after now and the
deadline passed (ruling 43); the missed rounds in a row that hand a team to the computer (ruling
55). A round's time with vacations not counted and what a pause leaves of it are every league's
arithmetic (tests/host/test_clocks.py)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from rules.volleyball.deadlines import (
    DeadlineError,
    DeadlineRule,
    missed_rounds_after,
    next_deadline,
    parse_rule,
)


def at(text: str) -> float:
    return datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp()


def test_every_n_hours_counts_from_the_start():
    rule = DeadlineRule(every_hours=24)
    start = at("2026-11-23 10:00")
    assert rule.next_after(start, start) == at("2026-11-24 10:00")
    assert rule.next_after(at("2026-11-24 09:59"), start) == at("2026-11-24 10:00")
    assert rule.next_after(at("2026-11-24 10:00"), start) == at("2026-11-25 10:00")


def test_weekly_deadlines_fall_on_the_day_and_time_in_utc():
    rule = parse_rule(None, "Sunday", "18:00")
    assert rule.describe() == "every Sunday at 18:00 UTC"
    # 2026-11-23 is a Monday
    assert rule.next_after(at("2026-11-23 12:00"), 0) == at("2026-11-29 18:00")
    assert rule.next_after(at("2026-11-29 17:59"), 0) == at("2026-11-29 18:00")
    assert rule.next_after(at("2026-11-29 18:00"), 0) == at("2026-12-06 18:00")
    assert parse_rule(None, None, None) == DeadlineRule()  # Sunday 18:00 by default
    assert parse_rule(None, "wed", "7").describe() == "every Wednesday at 07:00 UTC"


def test_a_round_run_early_or_late_keeps_the_rhythm():
    rule = DeadlineRule(every_hours=24)
    start = at("2026-11-23 10:00")
    due = at("2026-11-24 10:00")
    # run-now an hour early: the next round is still due a day after the skipped deadline
    assert next_deadline(rule, start, now=due - 3600, after=due) == at("2026-11-25 10:00")
    # the bot was down for a day and a half: the overdue round is played, and the next one
    # gets its time instead of being played at once
    late = at("2026-11-25 22:00")
    assert next_deadline(rule, start, now=late, after=due) == at("2026-11-26 10:00")


@pytest.mark.parametrize(
    ("hours", "day", "time", "message"),
    [
        (24, "Sunday", None, "not both"),
        (None, "Someday", None, "not a day"),
        (None, None, "25:00", "not a time"),
        (None, None, "six", "not a time"),
        (0, None, None, "1 to 672"),
    ],
)
def test_rules_that_cannot_be_used_are_refused(hours, day, time, message):
    with pytest.raises(DeadlineError, match=message):
        parse_rule(hours, day, time)


def test_a_rule_round_trips_through_json():
    for rule in (DeadlineRule(every_hours=6), DeadlineRule(weekday=2, minute=7 * 60 + 30)):
        assert DeadlineRule.from_dict(rule.to_dict()) == rule


def test_a_round_whose_deadline_moved_leaves_the_next_one_at_least_half_a_period():
    daily = DeadlineRule(every_hours=24)
    start = at("2026-11-23 10:00")
    # extended by 20 hours: played the next day at 06:00; the next round is not 4 hours long
    assert next_deadline(
        daily, start, now=at("2026-11-25 06:00"), after=at("2026-11-25 06:00")
    ) == (at("2026-11-26 10:00"))
    # extended by 10 hours: the rhythm holds (14 hours is more than half a day)
    assert next_deadline(
        daily, start, now=at("2026-11-24 20:00"), after=at("2026-11-24 20:00")
    ) == (at("2026-11-25 10:00"))
    weekly = parse_rule(None, "Sunday", "18:00")
    # a Sunday round extended to Friday: not two days to the next Sunday, but nine
    friday = at("2026-12-04 18:00")
    assert next_deadline(weekly, 0, now=friday, after=friday) == at("2026-12-13 18:00")
    # a Sunday round played on time: the next Sunday
    sunday = at("2026-11-29 18:00")
    assert next_deadline(weekly, 0, now=sunday, after=sunday) == at("2026-12-06 18:00")


def test_missed_rounds_count_in_a_row_and_a_vacation_excuses_one():
    managed = {"Red Rockets": 1, "Blue Whales": 2, "Green Geckos": 3, "Dune Divers": 4}
    before = {"Red Rockets": 2, "Blue Whales": 2, "Green Geckos": 0, "Dune Divers": 1}
    after = missed_rounds_after(managed, {"Red Rockets"}, before, excused={4})
    assert after == {"Red Rockets": 0, "Blue Whales": 3, "Green Geckos": 1, "Dune Divers": 1}
