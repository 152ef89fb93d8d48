"""When rounds are played: "every N hours" from the start, or a weekday and time in UTC; the
next deadline after a round is the rule's first moment after now and the deadline passed."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from cogs.volleyball.deadlines import DeadlineError, DeadlineRule, next_deadline, parse_rule


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
