"""Property tests: cards conserved, balls on track, at most four balls, and random
legal games end (a win or the turn limit) without an exception."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.rollerball import Settings, actors, apply, legal_actions, new_game
from rules.rollerball.geometry import geometry
from rules.rollerball.movement import MAX_BALLS
from tests.support.rollerball_helpers import conserved

games = st.tuples(
    st.integers(min_value=0, max_value=2**32),
    st.sampled_from(["later", "earlier"]),
    st.integers(min_value=2, max_value=6),
    st.booleans(),
)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_random_legal_games_keep_the_invariants_and_end(game):
    seed, edition, players, big = game
    board = 11 if big and players >= 5 else 9
    state, _ = new_game(
        seed, Settings(edition=edition, players=players, board=board, turn_limit=60)
    )
    rng = random.Random(seed)
    shape = geometry(board)
    for _ in range(20000):
        if state.over:
            break
        seat = rng.choice(sorted(actors(state)))
        state, _ = apply(state, rng.choice(legal_actions(state, seat)), seat)
        assert conserved(state) == list(range(34))
        assert len(state.balls) <= MAX_BALLS
        assert all(shape.is_track(ball.square) for ball in state.balls)
    assert state.over
    assert state.winners
