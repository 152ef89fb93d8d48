"""A form's AGAINST, HOMEPLAY/OUTBOUND and MATCH NO. are checked against the
schedule, and orders that leave a match without a line-up are reported as warnings when sent."""

from __future__ import annotations

import pytest

from rules.volleyball.managers import new_computer_league
from rules.volleyball.rounds import check_round_orders, round_fixtures, round_order_problems
from rules.volleyball.season import LeagueState
from tests.rules.volleyball.test_rounds import basic_orders, starting_orders


@pytest.fixture
def league() -> LeagueState:
    return new_computer_league(4, seed=21)


def own_fixtures(state: LeagueState, name: str):
    return [f for f in round_fixtures(state, state.league.round_number) if name in (f.home, f.away)]


def test_a_line_up_naming_the_wrong_opponent_is_refused(league: LeagueState) -> None:
    name = league.league.teams[0].name
    orders = basic_orders(league, name)
    first, second = orders.matches[0], orders.matches[1]
    # The manager wrote MATCH NO. 1 on the form meant for match 2: its AGAINST is match 2's.
    first.opponent, second.opponent = second.opponent, first.opponent
    problems = round_order_problems(league, orders)
    assert any("Match 1" in p and "against" in p and second.opponent in p for p in problems), (
        problems
    )


def test_outbound_for_a_home_match_is_refused(league: LeagueState) -> None:
    name = league.league.teams[0].name
    orders = basic_orders(league, name)
    home_match = next(m for m in orders.matches if m.home)
    home_match.home = False
    problems = round_order_problems(league, orders)
    assert any(f"Match {home_match.match_number}" in p and "HOMEPLAY" in p for p in problems), (
        problems
    )


def test_orders_for_one_of_two_matches_are_accepted_with_a_warning(league: LeagueState) -> None:
    name = league.league.teams[0].name
    orders = starting_orders(league, name)
    missing = orders.matches.pop()
    check = check_round_orders(league, orders)
    assert check.problems == []
    assert len(check.warnings) == 1
    assert f"match {missing.match_number}" in check.warnings[0]
    assert missing.opponent in check.warnings[0]
    assert "NMR" in check.warnings[0]


def test_complete_orders_have_no_warning(league: LeagueState) -> None:
    name = league.league.teams[0].name
    check = check_round_orders(league, starting_orders(league, name))
    assert check.problems == [] and check.warnings == []
