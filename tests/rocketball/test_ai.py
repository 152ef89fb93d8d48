"""The computer opponent: legal, reproducible, sensible in clear positions, and the strong
level beats the easy one (a small seeded sample here; bench/rocketball_engine.py measures
200 games)."""

import random

import pytest

from rules.rocketball import LEVELS, Place, Settings, apply, choose_action, legal_actions, new_game
from rules.rocketball.state import PHASE_PLACE


def play(seed, levels, settings=None, limit=3000):
    state, _ = new_game(seed, settings)
    rng = random.Random(seed * 7 + 1)
    while not state.over and state.rounds < limit:
        state, _ = apply(state, choose_action(state, levels[state.to_move], rng))
    return state


@pytest.mark.parametrize("level", LEVELS)
def test_the_computer_only_chooses_legal_actions_and_is_reproducible(level):
    settings = Settings.with_variants(["bumpers", "gusts", "moguls", "djinns", "drifting_winds"])
    state, _ = new_game(8, settings)
    rng_a, rng_b = random.Random(3), random.Random(3)
    for _ in range(80):
        if state.over:
            break
        action = choose_action(state, level, rng_a)
        assert action in legal_actions(state)
        assert choose_action(state, level, rng_b) == action
        state, _ = apply(state, action)


def test_the_computer_plays_assault_matches_to_the_end():
    state = play(2, {"N": "strong", "S": "easy"}, Settings(assault=True), limit=400)
    assert state.over or state.rounds >= 400


def test_strong_blocks_a_ball_heading_into_its_own_goal(position, dice):
    # South to place; the ball on d9 faces South: unblocked, North's next roll of 3 or 4 scores.
    state = position(ball=("d9", "S"), holder="S", phase=PHASE_PLACE)
    action = choose_action(state, "strong", random.Random(1))
    assert isinstance(action, Place)
    after, _ = apply(state, action)
    for roll in (1, 2, 3, 4):
        after.rng = dice(roll)
        moved, _ = apply(after, legal_actions(after)[0])
        assert moved.score["N"] == 0, f"North scores on a roll of {roll} after {action}"


def test_strong_steers_the_ball_towards_the_goal_it_attacks(position):
    # South attacks the North goal. The ball on d4 faces East, away from it.
    state = position(ball=("d4", "E"), holder="S", phase=PHASE_PLACE)
    action = choose_action(state, "strong", random.Random(1))
    assert isinstance(action, Place) and action.facing == "N"
    assert action.square in ("e4", "f4", "g4")


def test_strong_beats_easy_in_a_seeded_sample():
    wins = 0
    games = 40
    for seed in range(games):
        strong = "N" if seed % 2 == 0 else "S"
        weak = "S" if strong == "N" else "N"
        wins += play(seed, {strong: "strong", weak: "easy"}).winner == strong
    print(f"strong beat easy in {wins}/{games} games")
    assert wins >= 0.7 * games
