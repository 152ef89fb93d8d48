"""Divisions (docs/rules/volleyball.md ruling 38): several divisions of up to 16 teams, each with
its own schedule and table; at season end the bottom N of a division and the top N of the one below
swap places (N set at creation, default 2); the Galaxy Cup draws from all divisions; the form's
DIVISION NO. is checked."""

from __future__ import annotations

from typing import Any

import pytest

from rules.volleyball.managers import (
    computer_ageing_splits,
    new_computer_league,
    play_computer_season,
)
from rules.volleyball.orderform import format_round_forms
from rules.volleyball.orders import VolleyballError
from rules.volleyball.ordertext import submit_orders
from rules.volleyball.reports import standings_lines
from rules.volleyball.rounds import round_fixtures
from rules.volleyball.season import LeagueState, end_season
from tests.rules.volleyball.test_rounds import basic_orders


@pytest.fixture(scope="module")
def two_divisions() -> LeagueState:
    return new_computer_league(10, seed=8, divisions=[6, 4])


def test_each_division_plays_its_own_round_robin(two_divisions: LeagueState) -> None:
    state = two_divisions
    division = {t.name: t.division for t in state.league.teams}
    assert sorted(division.values()) == [1] * 6 + [2] * 4
    league_fixtures = [f for f in state.league.schedule if f.competition == "league"]
    assert all(division[f.home] == division[f.away] for f in league_fixtures)
    first = [t.name for t in state.league.teams if t.division == 1]
    assert len([f for f in league_fixtures if first[0] in (f.home, f.away)]) == 2 * 5
    assert {r.team for r in state.table(1).standings()} == set(first)
    assert set(state.cup.entrants) >= set(division)


def test_a_division_of_more_than_sixteen_is_refused() -> None:
    with pytest.raises(VolleyballError, match="16"):
        new_computer_league(17, seed=1, divisions=[17])


def test_promotion_and_relegation_swap_n_teams(two_divisions: LeagueState) -> None:
    final, _reports = play_computer_season(two_divisions)
    top = [r.team for r in final.table(1).standings()]
    second = [r.team for r in final.table(2).standings()]
    opened, events = end_season(final, computer_ageing_splits(final))
    division = {t.name: t.division for t in opened.league.teams}
    assert [division[n] for n in top[-2:]] == [2, 2]
    assert [division[n] for n in second[:2]] == [1, 1]
    assert [division[n] for n in top[:-2]] == [1] * 4
    assert any(e.startswith("Promoted to division 1") for e in events)
    assert any(e.startswith("Relegated from division 1") for e in events)
    assert sorted(division.values()) == [1] * 6 + [2] * 4


def test_promotion_places_are_set_at_creation() -> None:
    state = new_computer_league(8, seed=9, divisions=[4, 4], promotion_places=1)
    assert state.league.promotion_places == 1
    final, _ = play_computer_season(state)
    bottom = final.table(1).standings()[-1].team
    opened, _events = end_season(final, computer_ageing_splits(final))
    assert opened.league.team(bottom).division == 2
    assert sum(1 for t in opened.league.teams if t.division == 1) == 4


def test_the_forms_division_number_is_checked(two_divisions: LeagueState) -> None:
    team = next(t for t in two_divisions.league.teams if t.division == 2)
    fixtures = round_fixtures(two_divisions, 1)
    text = format_round_forms(
        team, fixtures, basic_orders(two_divisions, team.name), division=team.division
    )
    assert submit_orders(two_divisions, team.name, text=text).accepted
    wrong = text.replace("DIVISION NO.: 2", "DIVISION NO.: 1")
    check = submit_orders(two_divisions, team.name, text=wrong)
    assert any("DIVISION NO." in p and "division 2" in p for p in check.problems)


def test_divisions_survive_the_json_round_trip(two_divisions: LeagueState) -> None:
    data = two_divisions.to_dict()
    assert LeagueState.from_dict(data).to_dict() == data
    old: dict[str, Any] = {**data, "schema_version": 2}
    old["league"] = dict(data["league"])
    old["league"].pop("promotion_places")
    old["league"]["teams"] = [
        {k: v for k, v in t.items() if k != "division"} for t in data["league"]["teams"]
    ]
    loaded = LeagueState.from_dict(old)
    assert {t.division for t in loaded.league.teams} == {1}
    assert loaded.league.promotion_places == 2


def test_the_public_standings_show_each_division(two_divisions: LeagueState) -> None:
    text = "\n".join(standings_lines(two_divisions))
    assert "Division 1" in text and "Division 2" in text
    second = text.split("Division 2")[1]
    assert all(t.name in second for t in two_divisions.league.teams if t.division == 2)
