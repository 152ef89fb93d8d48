"""When a Rollerball II season's matchdays are due (rules/rollerball2/deadlines.py;
docs/rules/rollerball2.md, rulings D10-D12): an extension, the half-matchday rule, a pause and
the coaches' vacations, in hours from the season's start."""

from __future__ import annotations

import pytest

from rules.rollerball2.deadlines import SeasonTime, Waiting, away_periods

H = 3600.0
DAY = 24 * H


def season(current: int = 1, days: int = 6, **fields) -> SeasonTime:
    """A season of 24-hour matchdays that started at 0, as created."""
    return SeasonTime(
        hours=24,
        starts_at=0.0,
        current=current,
        set_deadlines={m: m * DAY for m in range(1, days + 1)},
        **fields,
    )


def hours(deadlines: dict[int, float]) -> dict[int, float]:
    return {matchday: moment / H for matchday, moment in deadlines.items()}


def test_a_new_season_is_due_every_matchday():
    assert hours(season().in_force()) == {1: 24, 2: 48, 3: 72, 4: 96, 5: 120, 6: 144}
    assert hours(season(current=3).in_force()) == {3: 72, 4: 96, 5: 120, 6: 144}
    assert season(current=7).over and not season(current=6).over


def test_an_extension_moves_the_later_deadlines_only_when_they_come_too_close():
    extended = SeasonTime(24, 0.0, 1, season().extended(30))
    # matchday 1 is due 30 hours later; the next ones at least 12 hours after the one before
    # it, until one is far enough from it to keep its own deadline
    assert hours(extended.in_force()) == {1: 54, 2: 66, 3: 78, 4: 96, 5: 120, 6: 144}
    assert extended.set_deadlines[2] == 2 * DAY  # moved only while it comes too close


def test_an_extension_counts_from_the_deadline_the_matchday_has():
    # matchday 1 ended at 50 h (put off), so matchday 2 was due at 62 h, not 48 h
    after = season(current=2, passed=50 * H)
    assert hours(after.in_force())[2] == 62
    assert hours(SeasonTime(24, 0.0, 2, after.extended(10), passed=50 * H).in_force())[2] == 72


def test_a_coachs_vacation_puts_off_the_matchday_while_their_fixture_waits():
    vacations = {
        1: [(10 * H, 40 * H)],  # away with the fixture not played: counts
        3: [(6 * H, 100 * H)],  # left after the fixture was played (at 5 h): counts nothing
        4: [(2 * H, 3 * H)],  # away before it was played: counts
        5: [(-50 * H, 1 * H)],  # away when the matchday's time began: from its start
    }
    fixtures = [
        Waiting((1, 2), None),
        Waiting((3, 4), 5 * H),
        Waiting((5, 6), None),
    ]
    away = away_periods(fixtures, vacations, since=0.0)
    assert away == [(0.0, 1 * H), (2 * H, 3 * H), (10 * H, 40 * H)]
    deadlines = hours(season().in_force(away))
    assert deadlines[1] == 24 + 1 + 1 + 30
    assert deadlines[2] == 56 + 12 and deadlines[3] == 80 and deadlines[4] == 96


def test_two_coaches_away_at_once_count_that_time_once():
    vacations = {1: [(2 * H, 8 * H)], 2: [(4 * H, 10 * H)]}
    away = away_periods([Waiting((1, 2), None)], vacations, since=0.0)
    assert away == [(2 * H, 10 * H)]
    assert hours(season().in_force(away))[1] == 32


def test_a_pause_gives_back_what_was_left_and_moves_the_later_deadlines():
    paused = season(days=3)
    after = SeasonTime(24, 0.0, 1, paused.resumed(10 * H, 100 * H), resumed_at=100 * H)
    # 14 of matchday 1's 24 hours were left at the pause; the others move by its 90 hours
    assert hours(after.in_force()) == {1: 114, 2: 138, 3: 162}
    # two hours before the pause were a coach's vacation: they are not counted
    resumed = paused.resumed(10 * H, 100 * H, [(2 * H, 4 * H)])
    assert resumed[1] == pytest.approx(116 * H)
    # after the resume the matchday's time counts from it: a vacation before it counts nothing
    again = SeasonTime(24, 0.0, 1, resumed, resumed_at=100 * H)
    assert again.span() == (100 * H, 116 * H)
    assert again.in_force([(20 * H, 30 * H)])[1] == pytest.approx(116 * H)


def test_a_pause_of_a_later_matchday_keeps_the_matchdays_played():
    paused = season(current=2, days=3, passed=24 * H)
    resumed = paused.resumed(30 * H, 40 * H)
    assert resumed == {1: 24 * H, 2: 58 * H, 3: 82 * H}
