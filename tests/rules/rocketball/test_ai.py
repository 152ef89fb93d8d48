"""The computer opponent: legal, reproducible, sensible in clear positions, and the strong
level beats the easy one (a small seeded sample here; bench/rocketball_engine.py measures
200 games)."""

import random
from typing import Any, cast

import pytest

from rules.rocketball import (
    LEVEL_RATINGS,
    LEVELS,
    Place,
    Roll,
    Settings,
    apply,
    choose_action,
    legal_actions,
    new_game,
    suggest_action,
)
from rules.rocketball.follow import follow, follow_rolls
from rules.rocketball.movement import BallMover
from rules.rocketball.state import FIELD_SQUARES, PHASE_PLACE, Ball, Chip


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


# --- the table-driven follow (rules/rocketball/follow.py: the ball followed without texts) ---


class _Field:
    """What BallMover reads and writes: the chips, the removed count and the dice."""

    def __init__(self, chips, rng):
        self.chips, self.removed, self.rng = dict(chips), {}, rng


def random_field(rng: random.Random) -> dict:
    kinds = ["vortex"] * 6 + ["gust", "bumper", "twister", "barricade", "mogul"]
    chips = {}
    for square in FIELD_SQUARES:
        if square != "d6" and rng.random() < 0.45:
            kind = rng.choice(kinds)
            chips[square] = Chip(kind, rng.choice("NESW") if kind in ("vortex", "gust") else None)
    return chips


def test_follow_moves_the_ball_exactly_as_the_engine_does():
    """Every chip kind, edges, goals and mogul jumps, on 3,000 random fields: the same square,
    facing and goal as BallMover, and the same draws from the dice."""
    layout = random.Random(5)
    for case in range(3000):
        chips = random_field(layout)
        square = layout.choice(FIELD_SQUARES)
        facing = layout.choice("NESW")
        roll = layout.randint(1, 4)
        ball = Ball(square, facing)
        field = _Field(chips, random.Random(case))
        mover = BallMover(cast(Any, field), ball, roll)  # a stand-in for the GameState
        while not mover.finished:
            mover.advance()
        dice = random.Random(case)
        goal, end, end_facing, crossed = follow(chips, square, facing, roll, dice)
        assert (goal, end, end_facing) == (mover.goal, ball.square, ball.facing), case
        assert dice.random() == field.rng.random(), case  # the same number of draws
        assert set(crossed) == {step.square for step in mover.steps}, case


def test_one_walk_gives_all_four_rolls_where_no_chip_rolls_a_die():
    layout = random.Random(6)
    for _ in range(2000):
        chips = {
            square: Chip(layout.choice(["vortex", "vortex", "gust"]), layout.choice("NESW"))
            for square in FIELD_SQUARES
            if square != "d6" and layout.random() < 0.5
        }
        square, facing = layout.choice(FIELD_SQUARES), layout.choice("NESW")
        ends, _ = follow_rolls(chips, square, facing)
        assert ends == [
            follow(chips, square, facing, roll, random.Random(0))[:3] for roll in (1, 2, 3, 4)
        ]


def test_every_level_has_a_rating_and_stronger_levels_rate_higher():
    assert list(LEVEL_RATINGS) == list(LEVELS)
    ratings = [LEVEL_RATINGS[level] for level in LEVELS]
    assert ratings == sorted(ratings) and len(set(ratings)) == len(ratings)


def test_master_blocks_a_ball_heading_into_its_own_goal(position, dice):
    state = position(ball=("d9", "S"), holder="S", phase=PHASE_PLACE)
    action = choose_action(state, "master", random.Random(1))
    after, _ = apply(state, action)
    for roll in (1, 2, 3, 4):
        after.rng = dice(roll)
        moved, _ = apply(after, legal_actions(after)[0])
        assert moved.score["N"] == 0, f"North scores on a roll of {roll} after {action}"


# --- a ball caught in a loop (easy frees it; no level lets a game stall) ------------------


def free_squares(state, steps=3):
    """Squares the ball can reach within `steps` rolls with the chips as they are."""
    seen = {(state.balls[0].square, state.balls[0].facing)}
    frontier = set(seen)
    for _ in range(steps):
        frontier = {
            (square, facing)
            for here, heading in frontier
            for goal, square, facing in follow_rolls(state.chips, here, heading)[0]
        } - seen
        seen |= frontier
    return {square for square, _ in seen}


@pytest.mark.parametrize("variants", [(), ("bumpers", "gusts")])
@pytest.mark.parametrize("holder", ["N", "S"])
@pytest.mark.parametrize("ball", [("d9", "S"), ("d10", "N")])
def test_easy_frees_a_ball_bouncing_between_two_chips(position, holder, ball, variants):
    # Seen in play: a chip on d9 facing South and one on d10 facing North sent the ball back
    # and forth for 85 rolls at 0-0. Whichever goal easy defends, it frees the ball (also in
    # a match with chance chips, none of them on the loop).
    chips = {"d9": ("vortex", "S"), "d10": ("vortex", "N")}
    settings = Settings.with_variants(list(variants)) if variants else None
    state = position(ball=ball, chips=chips, holder=holder, phase=PHASE_PLACE, settings=settings)
    assert free_squares(state) == {"d9", "d10"}
    for seed in range(12):
        action = choose_action(state, "easy", random.Random(seed))
        after, _ = apply(state, action)
        assert free_squares(after) - {"d9", "d10"}, f"{action} keeps the ball caught"


def test_games_between_computers_end_within_a_bound():
    """Easy against easy used to take a median of 297 actions and up to 1,575 (200 seeded
    games); bench/rocketball_lengths.py measures every pairing. Here: seeded games of easy
    against easy and against medium all end well inside 1,000 actions."""
    lengths = []
    for seed in range(16):
        levels = {"N": "easy", "S": "easy" if seed % 2 else "medium"}
        state, _ = new_game(seed)
        rng = random.Random(seed * 7 + 1)
        actions = 0
        while not state.over and actions < 1000:
            state, _ = apply(state, choose_action(state, levels[state.to_move], rng))
            actions += 1
        assert state.over, f"seed {seed} ({levels}) not over after 1,000 actions"
        lengths.append(actions)
    assert sorted(lengths)[len(lengths) // 2] < 300


def newcomer_decisions(seed: int, suggest) -> tuple[int, str | None]:
    """A first-to-2 match against medium, North pressing only the suggestion (`suggest`, seeded
    as the card seeds it): North's decisions (the roll is made for them) and the winner."""
    state, _ = new_game(seed)
    rng = random.Random(seed)
    decisions = 0
    while not state.over and decisions < 2000:
        if state.phase == "roll":
            action = Roll()
        elif state.to_move == "N":
            decisions += 1
            action = suggest(state, random.Random(state.seed + len(state.history)))
        else:
            action = choose_action(state, "medium", rng)
        state, _ = apply(state, action)
    return decisions, state.winner


def test_the_suggestion_plays_to_win_and_ends_a_first_match_sooner():
    """docs/rules/rocketball.md "The suggested move": pressing only the suggestion against
    medium, a newcomer's matches take at most half the decisions that suggesting medium's own
    choice took, and the newcomer wins more of them (12 seeded matches)."""
    medium = [
        newcomer_decisions(seed, lambda s, r: choose_action(s, "medium", r)) for seed in range(12)
    ]
    attack = [newcomer_decisions(seed, suggest_action) for seed in range(12)]
    assert sorted(d for d, _ in attack)[6] * 2 <= sorted(d for d, _ in medium)[6]
    assert sum(w == "N" for _, w in attack) > sum(w == "N" for _, w in medium)


def test_the_suggestion_turns_the_ball_towards_the_goal_it_attacks():
    """North attacks the South goal: with the ball on d10 facing North and nothing near it,
    the suggested chip turns it South, where the next roll of 4 scores."""
    state, _ = new_game(3)
    state.chips = {}
    state.balls = [Ball("d10", "N")]
    state.phase, state.to_move, state.drawn = PHASE_PLACE, "N", "vortex"
    action = suggest_action(state, random.Random(1))
    assert isinstance(action, Place) and action.facing == "S", action
    assert action.square in ("d9", "d8"), action
