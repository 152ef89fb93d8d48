"""Computer managers: they build rule-1 teams and write orders the GM accepts."""

from __future__ import annotations

import random

import pytest

from rules.volleyball.creation import new_team_problems
from rules.volleyball.managers import (
    all_computer_orders,
    computer_orders,
    computer_team_drafts,
    new_computer_league,
)
from rules.volleyball.models import SeasonConfig
from rules.volleyball.rounds import play_round, round_fixtures, round_order_problems, team_fixtures
from rules.volleyball.season import LeagueState


@pytest.mark.parametrize(
    "points_by_age",
    [None, {"A": 100}, {"A": 10, "B": 10, "C": 10, "D": 10, "E": 10}, {"C": 150}],
)
def test_computer_teams_follow_rule_1(points_by_age: dict[str, int] | None) -> None:
    config = (
        SeasonConfig()
        if points_by_age is None
        else SeasonConfig(player_points_by_age=points_by_age)
    )
    for seed in range(5):
        drafts = computer_team_drafts(config, random.Random(seed))
        assert new_team_problems("Computer", drafts, config) == []
        assert len(drafts) >= config.min_players


def test_computer_orders_are_accepted_every_round() -> None:
    state = new_computer_league(6, seed=8)
    while not state.season_over:
        fixtures = round_fixtures(state, state.league.round_number)
        orders = all_computer_orders(state)
        for name, team_orders in orders.items():
            assert round_order_problems(state, team_orders) == []
            # a line-up for every match the team plays this round
            wanted = {f.match_number for f in team_fixtures(fixtures, name)}
            assert {m.match_number for m in team_orders.matches} == wanted
        state, report = play_round(state, orders)
        assert not any("cannot be played" in e for e in report.events)
        assert report.nmr_teams == []


def test_human_teams_get_no_computer_orders() -> None:
    state = new_computer_league(4, seed=1)
    human = state.league.teams[0]
    human.manager_id = "1234"
    orders = all_computer_orders(state)
    assert human.name not in orders and len(orders) == 3
    _after, report = play_round(state, orders)
    assert report.nmr_teams == [human.name]


def test_computer_managers_are_deterministic() -> None:
    state = new_computer_league(4, seed=3)
    before = state.to_dict()
    name = state.league.teams[1].name
    orders = computer_orders(state, name).to_dict()
    assert state.to_dict() == before, "writing orders changes nothing"
    # The same league, rebuilt from its saved form, gets the same orders.
    assert computer_orders(LeagueState.from_dict(before), name).to_dict() == orders
    # Another league (another seed) gets its own.
    other = new_computer_league(4, seed=4)
    assert computer_orders(other, other.league.teams[1].name).to_dict() != orders
