"""The cog-facing calls (rules.volleyball.composed): a league with computer teams in the free
seats, the order preview against the neutral opponent, and a round split per audience."""

from __future__ import annotations

import pytest

from rules.volleyball.composed import (
    NEUTRAL_DL,
    division_sizes,
    new_league,
    preview_match,
    run_round,
)
from rules.volleyball.creation import PlayerDraft, create_team
from rules.volleyball.managers import all_computer_orders
from rules.volleyball.match import default_match_orders
from rules.volleyball.models import SeasonConfig
from rules.volleyball.orders import Concept, LevelPoints, Position, SpyOrder, VolleyballError


def my_team(name: str = "Harbour Hawks", manager: str = "42"):
    levels = [("A", 10, 10), ("B", 12, 12), ("C", 8, 8), ("C", 8, 8), ("D", 12, 12), ("E", 10, 10)]
    drafts = [
        PlayerDraft(f"Player {'ABCDEF'[i]}", age, ol, dl) for i, (age, ol, dl) in enumerate(levels)
    ]
    return create_team(name, drafts, SeasonConfig(), manager_id=manager)


def test_division_sizes_keep_every_division_at_sixteen_or_fewer() -> None:
    assert division_sizes(12) == [12]
    assert division_sizes(20) == [10, 10]
    assert division_sizes(33) == [11, 11, 11]
    assert division_sizes(8) == [8]
    # `/volleyball league create divisions:3` asks for a number of divisions
    assert division_sizes(20, count=3) == [7, 7, 6]


def test_free_seats_are_filled_with_computer_teams() -> None:
    state = new_league([my_team()], total_teams=4, seed=3)
    teams = state.league.teams
    assert len(teams) == 4
    assert teams[0].name == "Harbour Hawks" and teams[0].manager_id == "42"
    assert all(t.manager_id is None for t in teams[1:])
    assert len({t.name for t in teams}) == 4
    with pytest.raises(VolleyballError, match="divisions hold"):
        new_league([my_team()], total_teams=4, divisions=[3, 2])


def test_the_preview_shows_totals_and_the_chance_against_the_neutral_opponent() -> None:
    team = my_team()
    orders = default_match_orders(team, opponent="X", home=True)
    orders.sets[0].special = LevelPoints(6, 0)
    previews = preview_match(team, orders)
    first = previews[0]
    # Six Allround players at their own levels: OL 60 + 6 SP; NC v NC changes nothing.
    assert (first.ol_total, first.dl_total) == (66, 60)
    assert first.chance == round(100 * 66 / (66 + NEUTRAL_DL))
    # Tired in set 2 (rule 2: five points lost per set played).
    assert previews[1].ol_total + previews[1].dl_total < 60 + 60
    orders.sets[0].concept, orders.sets[0].risk = Concept.AGGRESSIVE, 12
    for slot in orders.sets[0].slots[:5]:
        slot.position = Position.ATTACKER
    # AC against NC adds the average risk (12 + 6) / 2 = 9 points.
    aggressive = preview_match(team, orders)[0]
    base = 100 * aggressive.ol_total / (aggressive.ol_total + NEUTRAL_DL)
    assert aggressive.chance == int(base + 9 + 0.5)


def test_a_round_outcome_goes_to_each_audience() -> None:
    state = new_league([my_team()], total_teams=4, seed=3)
    orders = all_computer_orders(state)
    spy, target = state.league.teams[1].name, state.league.teams[2].name
    number = orders[target].matches[-1].match_number
    orders[spy].spies = [SpyOrder(target, number)]
    outcome = run_round(state, orders)
    assert outcome.report.nmr_teams == ["Harbour Hawks"]
    assert set(outcome.sheets) == {t.name for t in state.league.teams}
    assert list(outcome.spy_reports) == [spy]
    assert outcome.spy_reports[spy][0].startswith(f"Spy report on {target}")
    assert outcome.public[0].startswith("**Volleyball: season 1, round 1 results**")
    assert "Spy report" not in "\n".join(outcome.public)
