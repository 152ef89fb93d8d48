"""The engine's fast paths give exactly what the plain rule checks give: legal_actions lists
what the placement checks (placement_problem, rotate_problem, drift_problem) allow, in its
fixed order, and random_action picks what rng.choice(legal_actions(state)) picks."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.rocketball import (
    Drift,
    Pass,
    Place,
    Rotate,
    apply,
    legal_actions,
    new_game,
    random_action,
)
from rules.rocketball.placement import (
    ORTHOGONAL,
    drift_problem,
    facings_for,
    placeable_kinds,
    placement_problem,
    rotate_problem,
)
from rules.rocketball.state import DJINN, FIELD_SQUARES, PHASE_PLACE, GameState
from tests.rules.rocketball.test_properties import match_settings


def reference_legal_actions(state: GameState) -> list:
    """legal_actions written straight from the rule checks, square by square."""
    actions: list = []
    djinn = state.drawn == DJINN
    for kind in placeable_kinds(state):
        for square in FIELD_SQUARES:
            if placement_problem(state, kind, square) is None:
                actions.extend(
                    Place(square, facing, kind if djinn else None) for facing in facings_for(kind)
                )
    for square in state.chips:
        if rotate_problem(state, square) is None:
            actions += [Rotate(square, True), Rotate(square, False)]
    if state.settings.drifting_winds:
        for square in state.chips:
            for target in ORTHOGONAL[square]:
                if drift_problem(state, square, target) is None:
                    actions.append(Drift(square, target))
    return actions or [Pass()]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), variants=match_settings(), steps=st.integers(50, 400))
def test_fast_paths_match_the_rule_checks(seed, variants, steps):
    state, _ = new_game(seed, variants)
    chooser = random.Random(seed)
    checked = 0
    for _ in range(steps):
        if state.over:
            break
        actions = legal_actions(state)
        if state.phase == PHASE_PLACE:
            assert actions == reference_legal_actions(state)
            checked += 1
        probe, twin = random.Random(seed + checked), random.Random(seed + checked)
        assert random_action(state, probe) == twin.choice(actions)
        assert probe.getstate() == twin.getstate()
        state, _ = apply(state, chooser.choice(actions))


def test_random_play_with_random_action_is_the_same_game():
    for seed in range(3):
        listed, _ = new_game(seed)
        fast, _ = new_game(seed)
        rng_listed, rng_fast = random.Random(seed), random.Random(seed)
        while not listed.over:
            listed, _ = apply(listed, rng_listed.choice(legal_actions(listed)))
            fast, _ = apply(fast, random_action(fast, rng_fast))
        assert fast.over and fast.to_json() == listed.to_json()
