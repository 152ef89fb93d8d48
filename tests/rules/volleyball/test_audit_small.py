"""Ageing splits that break 3:1 are refused with the legal options, amateur
cup teams can field six in sets 4-5, a forfeited set shows no "scoring chance 0 %", and a
team name ending in s takes a bare apostrophe."""

from __future__ import annotations

import random

from rules.volleyball import ageing
from rules.volleyball.cup import amateur_team
from rules.volleyball.match import default_match_orders, play_match, validate_match_orders
from rules.volleyball.models import Player, Team
from rules.volleyball.orders import AgeingSplit
from rules.volleyball.wording import possessive


def test_an_ageing_split_breaking_three_to_one_is_refused_with_the_legal_options() -> None:
    team = Team("Reds", [Player("Anna", "A", 12, 6)])
    problems = ageing.ageing_split_problems(team, [AgeingSplit("Anna", 2)])
    assert len(problems) == 1
    assert "3:1" in problems[0]
    assert "OL loss 3 (9/3)" in problems[0] and "OL loss 4 (8/4)" in problems[0]
    assert ageing.ageing_split_problems(team, [AgeingSplit("Anna", 3)]) == []


def test_an_amateur_cup_team_fields_six_in_all_five_sets() -> None:
    amateurs = amateur_team("Orion Amateurs", random.Random(3))
    orders = default_match_orders(amateurs, opponent="Reds", home=False, match_number=3)
    assert validate_match_orders(amateurs, orders, home=False) == []
    assert all(len(s.slots) == 6 for s in orders.sets)


def test_a_forfeited_set_shows_no_scoring_chance() -> None:
    players = [Player(f"P{i}", "B", 4, 4) for i in range(6)]
    reds = Team("Reds", [Player(f"R{i}", "B", 12, 12) for i in range(12)])
    blues = Team("Blues", players)
    home = default_match_orders(reds, opponent="Blues", home=True)
    away = default_match_orders(blues, opponent="Reds", home=False)
    # Six 4/4 players tire to 0 after two sets and can't play the third.
    assert any(not s.slots for s in away.sets)
    result = play_match(reds, blues, home, away, random.Random(1))
    forfeited = [s for s in result.sets if s.away.forfeit]
    assert forfeited
    text = "\n".join(result.summary() + result.side_summary("home"))
    assert "scoring chance 0 %" not in text
    assert "won by forfeit" in text


def test_possessive_of_a_name_ending_in_s() -> None:
    assert possessive("Nova Spikers") == "Nova Spikers'"
    assert possessive("Red Rocket") == "Red Rocket's"
    team = Team("Nova Spikers", [], sponsor="Champion Cola")
    events: list[str] = []
    ageing.age_team(team, [], events)
    assert "Nova Spikers' sponsor Champion Cola ends its contract." in events
    assert not any("s's" in e for e in events)
