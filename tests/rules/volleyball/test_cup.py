"""The Galaxy Cup (seed rule 11): the draw, amateur teams and the knock-out."""

from __future__ import annotations

import random

from rules.volleyball import cup
from rules.volleyball.models import Fixture, FixtureResult


def test_draw_size_leaves_room_for_amateur_teams() -> None:
    assert [cup.draw_size(n) for n in (2, 3, 7, 8, 9, 16)] == [4, 4, 8, 16, 16, 32]


def test_cup_rounds_are_spread_with_the_final_in_the_last_round() -> None:
    assert cup.cup_round_schedule(4, 7) == [2, 4, 6, 7]
    assert cup.cup_round_schedule(5, 15) == [3, 6, 9, 12, 15]
    # more cup rounds than league rounds: several in one round, in order
    assert cup.cup_round_schedule(2, 1) == [1, 1]


def test_new_cup_for_eight_teams_has_eight_amateur_teams_with_legal_players() -> None:
    teams = [f"Team {c}" for c in "ABCDEFGH"]
    state = cup.new_cup([*teams[:-1], "Orion Amateurs"], 7, random.Random(4))
    assert len(state.entrants) == 16
    assert len(state.amateur_teams) == 8
    names = [t.name for t in state.amateur_teams]
    assert "Orion Amateurs" not in names  # a league team already has that name
    assert len(set(names)) == 8
    for team in state.amateur_teams:
        assert len(team.players) == 12
        assert len({p.name for p in team.players}) == 12
        assert all(5 <= p.ol <= 9 and 5 <= p.dl <= 9 for p in team.players)
    assert state.league_rounds == [2, 4, 6, 7]


def test_the_draw_is_repeatable_from_the_seed() -> None:
    teams = [f"Team {c}" for c in "ABCD"]
    first = cup.new_cup(teams, 3, random.Random(9))
    again = cup.new_cup(teams, 3, random.Random(9))
    assert first.to_dict() == again.to_dict()
    assert cup.CupState.from_dict(first.to_dict()) == first


def test_winners_advance_in_draw_order_until_there_is_a_cup_winner() -> None:
    state = cup.CupState(entrants=["A", "B", "C", "D"], league_rounds=[1, 2])
    fixtures = cup.fixtures_for_next_cup_round(state, 1, 3)
    assert [(f.home, f.away, f.match_number, f.competition) for f in fixtures] == [
        ("A", "B", 3, "cup"),
        ("C", "D", 3, "cup"),
    ]
    events: list[str] = []
    cup.record_cup_round(
        state,
        [FixtureResult(fixtures[0], 1, 3), FixtureResult(fixtures[1], 3, 2)],
        events,
    )
    assert state.entrants == ["B", "C"] and state.rounds_played == 1
    assert events == ["Galaxy Cup: B, C reach the final."]
    final = Fixture(2, 3, "B", "C", "cup")
    cup.record_cup_round(state, [FixtureResult(final, 3, 0)], events)
    assert state.winner == "B"
    assert events[-1] == "B win the Galaxy Cup!"
    assert cup.cup_rounds_in(state, 2) == []
