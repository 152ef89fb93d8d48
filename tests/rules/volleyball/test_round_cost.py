"""The cost of a round is linear in its matches. Measured here as work
counted, not time (figures: bench/volleyball.py): the whole-league scans in a round (of the
schedule, of every team's roster) must not grow with the number of teams."""

from __future__ import annotations

import pytest

from rules.volleyball import season
from rules.volleyball.managers import all_computer_orders, new_computer_league
from rules.volleyball.models import Team
from rules.volleyball.rounds import play_round


def count_work(monkeypatch: pytest.MonkeyPatch, teams: int) -> tuple[float, int]:
    """(roster look-ups per match, whole-schedule scans) for round 1 of a `teams` league."""
    state = new_computer_league(teams, seed=3, divisions=[16] * (teams // 16) or None)
    orders = all_computer_orders(state)
    counts = {"player": 0, "scans": 0}
    original_player = Team.player
    original_index = season.index_schedule
    original_rounds = season.rounds_in_schedule

    def player(self, name):
        counts["player"] += 1
        return original_player(self, name)

    def index(schedule):
        counts["scans"] += 1
        return original_index(schedule)

    def rounds(schedule):
        counts["scans"] += 1
        return original_rounds(schedule)

    monkeypatch.setattr(Team, "player", player)
    monkeypatch.setattr(season, "index_schedule", index)
    monkeypatch.setattr(season, "rounds_in_schedule", rounds)
    _after, report = play_round(state, orders)
    monkeypatch.undo()
    return counts["player"] / len(report.matches), counts["scans"]


def test_a_rounds_whole_league_scans_do_not_grow_with_the_league(monkeypatch) -> None:
    small_lookups, small_scans = count_work(monkeypatch, 8)
    large_lookups, large_scans = count_work(monkeypatch, 32)
    assert large_scans <= small_scans + 2, (small_scans, large_scans)
    assert large_lookups <= small_lookups * 1.25, (small_lookups, large_lookups)
