"""Knockout brackets (rules/tournament/elimination.py; docs/rules/tournaments.md
"Elimination"): the standard seeding, byes to the top seeds, and over random results every
bracket played to its end (single: one loss and you are out; double: two)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.tournament import (
    NOBODY,
    champion,
    double_elimination,
    resolve,
    seed_positions,
    seeded,
    single_elimination,
)


def players(count: int) -> list[str]:
    return [f"s{number}" for number in range(1, count + 1)]


def play_out(bracket, pick) -> tuple[dict[int, str], list[tuple[str, str, str]]]:
    """Every ready match decided by `pick(first, second)` until nothing is ready: the winners
    and the (winner, loser, part) of each match played."""
    winners: dict[int, str] = {}
    played = []
    while True:
        ready = [place for place in resolve(bracket, winners) if place.ready]
        if not ready:
            return winners, played
        for place in ready:
            first, second = place.players
            assert first and second
            winner = pick(first, second)
            winners[place.match.number] = winner
            played.append((winner, second if winner == first else first, place.match.part))


def test_seeds_are_placed_so_the_best_two_meet_only_in_the_final():
    assert seed_positions(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert seed_positions(4) == [1, 4, 2, 3]
    assert seeded({"low": 1200, "high": 1900, "mid": 1500}) == ["high", "mid", "low"]


def test_the_favourites_win_a_single_elimination_through_the_expected_matches():
    bracket = single_elimination(players(8))
    seed = {name: number for number, name in enumerate(players(8), start=1)}
    winners, played = play_out(bracket, lambda a, b: min(a, b, key=seed.__getitem__))
    assert champion(bracket, winners) == "s1"
    semis = {frozenset((w, loser)) for w, loser, _ in played[4:6]}
    assert semis == {frozenset(("s1", "s4")), frozenset(("s2", "s3"))}
    assert set(played[-1][:2]) == {"s1", "s2"}


def test_with_five_players_the_top_three_seeds_have_byes():
    bracket = single_elimination(players(5))
    first_round = [place for place in resolve(bracket, {}) if place.match.round == 1]
    walked = {place.winner for place in first_round if NOBODY in place.players}
    assert walked == {"s1", "s2", "s3"}
    ready = [place.players for place in first_round if place.ready]
    assert ready == [("s4", "s5")]


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 20), st.integers(0, 2**32))
def test_single_elimination_everyone_but_the_champion_loses_once(count, seed):
    rng = random.Random(seed)
    bracket = single_elimination(players(count))
    winners, played = play_out(bracket, lambda a, b: rng.choice((a, b)))
    losses = Counter(loser for _, loser, _ in played)
    winner = champion(bracket, winners)
    assert winner is not None and winner not in losses
    assert len(played) == count - 1 and set(losses.values()) == {1}


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 20), st.integers(0, 2**32))
def test_double_elimination_everyone_but_the_champion_loses_twice(count, seed):
    rng = random.Random(seed)
    bracket = double_elimination(players(count))
    winners, played = play_out(bracket, lambda a, b: rng.choice((a, b)))
    losses = Counter(loser for _, loser, _ in played)
    winner = champion(bracket, winners)
    assert winner is not None and losses[winner] <= 1
    assert all(losses[p] == 2 for p in players(count) if p != winner)
    reset = any(part == "reset" for _, _, part in played)
    assert len(played) == 2 * count - (1 if reset else 2)


def test_the_losers_champion_must_beat_the_winners_champion_twice():
    bracket = double_elimination(players(4))
    seed = {name: number for number, name in enumerate(players(4), start=1)}
    favourite = lambda a, b: min(a, b, key=seed.__getitem__)  # noqa: E731
    winners, played = play_out(bracket, favourite)
    assert champion(bracket, winners) == "s1" and played[-1][2] == "final"
    final = next(p for p in resolve(bracket, winners) if p.match.part == "final")
    upset = {k: v for k, v in winners.items() if k != final.match.number}
    losers_champion = final.players[1]
    assert losers_champion == "s2"
    upset[final.match.number] = losers_champion  # s2, from the losers' bracket, wins
    reset = next(place for place in resolve(bracket, upset) if place.match.part == "reset")
    assert reset.ready and set(reset.players) == {"s1", "s2"}
    assert champion(bracket, upset) is None


def test_a_winner_who_was_not_in_the_match_is_refused():
    bracket = single_elimination(players(4))
    with pytest.raises(ValueError, match="not s3"):
        resolve(bracket, {1: "s3"})
