"""The running totals (rules/tournament/standings.py `record`), kept one result at a time as the
bot stores them, equal the totals counted from every game (`totals_of`), and rank the players
as the standings counted from every game do (docs/rules/tournaments.md "Tie-breaks")."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.tournament import Game, Meeting, Totals, rank, record, standings, totals_of
from tests.support.tournament_events import tournament


def folded(games_by_round, upto: int):
    """The totals and meetings after the results of rounds 1..upto, one result at a time."""
    totals: dict[str, Totals] = {}
    meetings: list[Meeting] = []
    key = 0
    for games in games_by_round[:upto]:
        for game in games:
            met = [m for m in meetings if m.opponent in game.seats]
            changed, new = record(totals, met, game, key)
            totals.update(changed)
            meetings += new
            key += 1
    return totals, meetings


def assert_same(kept: dict[str, Totals], counted: dict[str, Totals]) -> None:
    for user, expected in counted.items():
        got = kept.get(user, Totals())
        assert got.score == pytest.approx(expected.score)
        assert got.unplayed == pytest.approx(expected.unplayed)
        assert (got.games, got.rounds_played) == (expected.games, expected.rounds_played)
        assert got.opponents == pytest.approx(expected.opponents)
        assert got.weighted == pytest.approx(expected.weighted)


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 16), st.integers(1, 7))
def test_running_totals_equal_the_totals_counted_from_every_game(seed, players, rounds):
    entrants, by_round = tournament(seed, players, rounds)
    for upto in range(1, rounds + 1):
        games = [game for games in by_round[:upto] for game in games]
        kept, meetings = folded(by_round, upto)
        assert_same(kept, totals_of(entrants, games))
        # the same places and tie-breaks as the standings counted from every game
        ranked = rank(entrants, kept, upto, meetings)
        counted = standings(entrants, games, upto)
        assert [s.entrant.id for s in ranked] == [s.entrant.id for s in counted]
        for got, expected in zip(ranked, counted, strict=True):
            assert got.buchholz == pytest.approx(expected.buchholz)
            assert got.sonneborn_berger == pytest.approx(expected.sonneborn_berger)
            assert (got.score, got.head_to_head, got.games) == (
                pytest.approx(expected.score),
                expected.head_to_head and pytest.approx(expected.head_to_head),
                expected.games,
            )


def test_a_later_result_moves_the_buchholz_of_everyone_who_met_the_player():
    """p1 beat p0 in round 1 (p1's Buchholz 0: p0 had nothing); p0's win in round 2 raises
    p1's Buchholz and Sonneborn-Berger by it, without p1 playing again."""
    totals: dict[str, Totals] = {}
    meetings: list[Meeting] = []
    for key, game in enumerate(
        [Game(1, ("p0", "p1"), (0.0, 1.0)), Game(2, ("p0", "p2"), (1.0, 0.0))]
    ):
        changed, new = record(totals, [m for m in meetings if m.opponent in game.seats], game, key)
        totals.update(changed)
        meetings += new
        if key == 0:
            assert totals["p1"].opponents == 0.0
    assert totals["p1"].opponents == 1.0 and totals["p1"].weighted == 1.0
