"""Properties that hold for every seeded match, checked after every single action."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.rollerball2.cards import BIKER
from rules.rollerball2.coach import choose_action
from rules.rollerball2.content import BIKER_SLOTS
from rules.rollerball2.engine import apply_in_place, legal_actions, new_match
from rules.rollerball2.roster import generate_roster
from rules.rollerball2.state import AWAY, HOME, PHASE_OVER, MatchState, Settings


def check_invariants(state: MatchState) -> None:
    for side in (HOME, AWAY):
        team = state.team(side)
        on_track = [n for n in team.lineup.values() if n is not None]
        assert len(on_track) == len(set(on_track)), "a player in two slots"
        # Nobody injured, resting, banned, dead or in the box plays.
        assert not set(on_track) & set(team.out), "an unavailable player is on the track"
        for slot, number in team.lineup.items():
            if number is not None:
                assert (team.card(number).position == BIKER) == (slot in BIKER_SLOTS)
        for slot, until in team.locked.items():
            if until > state.fac_count:
                assert team.lineup[slot] is None, "a short-handed slot was filled"
        assert all(team.sheet[number].on_track for number in on_track)
        for out in team.out.values():
            if out.until == "fac":
                # A Penalty Expires marker never stays buried: it is due at most now.
                assert out.fac >= state.fac_count, "penalty outlived its marker"
        # The scoresheet adds up to the score, period by period in total.
        assert sum(line.goals for line in team.sheet.values()) == team.score
        assert sum(line.assists for line in team.sheet.values()) <= team.score
    if state.control is not None or state.handler is not None:
        # Whoever has the ball is on the track, and never a biker.
        assert state.control is not None and state.handler is not None
        handler = state.team(state.control).lineup.get(state.handler)
        assert handler is not None, "the ball handler is not on the track"
        assert state.handler not in BIKER_SLOTS
    limit = 150 if state.settings.overtime else 120
    assert state.fac_count <= limit


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(seed=st.integers(min_value=0, max_value=10**9), overtime=st.booleans())
def test_every_match_ends_in_time_with_its_invariants_intact(seed, overtime):
    home = generate_roster(seed, "Houston")
    away = generate_roster(seed + 1, "Tokyo")
    state = new_match(seed, home, away, Settings(overtime=overtime))
    for _ in range(5000):
        if state.phase == PHASE_OVER:
            break
        action = choose_action(state)
        assert action in legal_actions(state)
        apply_in_place(state, action)
        check_invariants(state)
    assert state.phase == PHASE_OVER
    # Four periods of 30 cards, plus at most one sudden-death period of 30.
    if state.period == 5:
        assert overtime and 120 < state.fac_count <= 150
    else:
        assert state.fac_count == 120
    # Every penalty has expired once the match is over.
    for side in (HOME, AWAY):
        assert not [o for o in state.team(side).out.values() if o.reason == "penalty"]


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=10**9), chooser=st.randoms(use_true_random=False))
def test_any_legal_coach_choices_keep_the_invariants(seed, chooser):
    """Coaches who substitute, roll, draw and pick at random (among legal actions) still get a
    match that ends in time with every invariant intact."""
    state = new_match(seed, generate_roster(seed, "Houston"), generate_roster(seed, "Tokyo"))
    for _ in range(5000):
        if state.phase == PHASE_OVER:
            break
        options = legal_actions(state)
        action = chooser.choice(options) if chooser.random() < 0.3 else choose_action(state)
        apply_in_place(state, action)
        check_invariants(state)
    assert state.phase == PHASE_OVER
    assert state.fac_count >= 120
