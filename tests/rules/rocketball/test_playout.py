"""The playout path gives exactly what `apply` gives (docs/rules/rocketball.md, "Engine speed").

Differential: the same seeded games played through `apply` + `random_action` and through
`playout` (in place, no copies, no texts) must end in the same state, history aside. Thousands
of games: every game's first actions, and whole games to their end (goals, resets, the result).
Speed figures are in bench/rocketball_engine.py, not here.
"""

from __future__ import annotations

import random

import pytest

from rules.rocketball import Settings, apply, legal_actions, new_game, random_action
from rules.rocketball.playout import apply_trusted, fast_path, playout


def without_history(state) -> dict:
    data = state.to_dict()
    data.pop("history")
    return data


def through_apply(seed: int, settings: Settings, limit: int):
    state, _ = new_game(seed, settings)
    rng = random.Random(seed)
    played = 0
    while not state.over and played < limit:
        state, _ = apply(state, random_action(state, rng))
        played += 1
    return state, played


def through_playout(seed: int, settings: Settings, limit: int | None):
    state, _ = new_game(seed, settings)
    played = playout(state, random.Random(seed), max_actions=limit)
    return state, played


def test_two_thousand_seeded_game_openings_match_apply():
    settings = [Settings(), Settings(tug_of_war=True, tug_swap_rounds=2), Settings(target_score=1)]
    for seed in range(2000):
        chosen = settings[seed % len(settings)]
        expected, played = through_apply(seed, chosen, 40)
        got, count = through_playout(seed, chosen, 40)
        assert count == played and without_history(got) == without_history(expected), seed


def test_whole_games_match_apply_through_goals_resets_and_the_result():
    finished = 0
    for seed in range(24):
        settings = Settings(target_score=1 + seed % 2)
        expected, played = through_apply(seed, settings, 100_000)
        got, count = through_playout(seed, settings, None)
        assert expected.over and got.over
        assert count == played and without_history(got) == without_history(expected), seed
        finished += expected.score["N"] + expected.score["S"]
    assert finished >= 30  # goals, resets and results were all compared


@pytest.mark.parametrize(
    "variants",
    [
        ["bumpers", "twisters", "gusts", "moguls", "drifting_winds"],
        ["assault", "barricades", "djinns"],
    ],
)
def test_variant_games_take_the_engine_path_in_place_with_the_same_result(variants):
    settings = Settings.with_variants(variants)
    state, _ = new_game(1, settings)
    assert not fast_path(state)
    for seed in range(40):
        expected, played = through_apply(seed, settings, 150)
        got, count = through_playout(seed, settings, 150)
        assert count == played and without_history(got) == without_history(expected), seed


def test_apply_trusted_changes_the_state_in_place_without_history_or_copy():
    state, _ = new_game(3)
    rng = random.Random(3)
    for _ in range(200):
        if state.over:
            break
        action = rng.choice(legal_actions(state))
        expected, _ = apply(state, action)
        assert apply_trusted(state, action) is None  # the state itself is the result
        assert len(state.history) == 0
        assert without_history(state) == without_history(expected)
