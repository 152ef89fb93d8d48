"""Every line of the Action Matrix (seed: GAME ACTION MATRIX), walked with one-result cards."""

from __future__ import annotations

import pytest

from rules.rollerball2.cards import FLOW_TOW
from rules.rollerball2.duels import duel
from rules.rollerball2.engine import apply
from rules.rollerball2.resolution import Resolution
from rules.rollerball2.state import (
    AWAY,
    HOME,
    PHASE_ACTION,
    PHASE_ATTACK,
    PHASE_BIKER_ID,
    PHASE_EVENT,
    PHASE_FIRE,
    ChooseBiker,
    ChooseScorer,
    NextCard,
)
from tests.support.rollerball2_helpers import find_fac, match, roster, top_card


def play(home_skater1: tuple, away_skater1: tuple, empty_defender: bool = False, **extra):
    """Home Skater1 has the ball against Away Skater1; returns (state, events) after the duel."""
    home = roster("Home", Skater1=home_skater1, **extra.get("home", {}))
    away = roster("Away", Skater1=away_skater1, **extra.get("away", {}))
    state = match(home, away)
    if empty_defender:
        state.away.lineup["Skater1"] = None
    resolution = Resolution(state)
    duel(resolution)
    return state, resolution.events


def plain_offense_biker1_card() -> int:
    """A FAC whose BIKER ID section always names the offense's Biker1 (no condition)."""
    return find_fac(
        lambda f: (
            f.biker_id.effect.when is None
            and f.biker_id.effect.flow.kind == FLOW_TOW
            and f.biker_id.effect.flow.who == "offense.Biker1"
        )
    )


def test_goal_vs_goal_scores_for_the_handler():
    state, events = play(("GOAL", "Att"), ("Att", "GOAL"))
    assert state.home.score == 1 and state.away.score == 0
    assert state.home.sheet[11].goals == 1
    assert state.phase == PHASE_FIRE and state.control is None
    assert any(e.kind == "goal" and "Home Skater1" in e.text for e in events)


@pytest.mark.parametrize("defense", ["LOSE", "EVT", "Att"])
def test_goal_vs_lose_evt_att_keeps_the_ball(defense):
    state, _ = play(("GOAL", "Att"), ("Att", defense))
    assert state.home.score == 0
    assert state.phase == PHASE_ACTION and state.control == HOME and state.handler == "Skater1"


def test_goal_vs_bkr_asks_the_defense_for_a_biker_whose_result_counts_for_both():
    state, _ = play(("GOAL", "Att"), ("Att", "Bkr"), away={"Biker2": ("Att", "LOSE")})
    assert state.pending == {"kind": "defensive_biker", "team": AWAY, "biker": None}
    # Biker2 reads LOSE: LOSE vs LOSE, he strips the ball and his team breaks away.
    state, events = apply(state, ChooseBiker(AWAY, "Biker2"))
    assert state.control == AWAY
    assert any("answers the shot" in e.text for e in events)
    assert state.home.score == 0


def test_goal_vs_bkr_biker_reading_goal_lets_the_goal_stand():
    state, _ = play(("GOAL", "Att"), ("Att", "Bkr"), away={"Biker1": ("Att", "GOAL")})
    state, _ = apply(state, ChooseBiker(AWAY, "Biker1"))
    assert state.home.score == 1 and state.home.sheet[11].goals == 1


def test_goal_vs_empty_position_scores():
    state, _ = play(("GOAL", "Att"), ("Att", "Att"), empty_defender=True)
    assert state.home.score == 1


def test_bkr_vs_bkr_draws_biker_id_then_bikers_duel():
    state, _ = play(("Bkr", "Att"), ("Att", "Bkr"), home={"Biker1": ("GOAL", "Att")},
                    away={"Biker1": ("Att", "GOAL")})  # fmt: skip
    assert state.phase == PHASE_BIKER_ID and state.context["mode"] == "both"
    top_card(state, plain_offense_biker1_card())
    state, events = apply(state, NextCard())
    assert any(e.text.startswith("Biker duel") for e in events)
    # Offensive Biker1 GOAL vs opposing Biker1 GOAL: the skater scores, the biker assists.
    assert state.home.score == 1
    assert state.home.sheet[11].goals == 1 and state.home.sheet[1].assists == 1


@pytest.mark.parametrize("defense", ["GOAL", "LOSE", "EVT", "Att"])
def test_bkr_vs_other_tows_with_the_biker_result_against_the_defender_roll(defense):
    state, _ = play(("Bkr", "Att"), ("Att", defense), home={"Biker1": ("GOAL", "Att")})
    assert state.phase == PHASE_BIKER_ID
    assert state.context["mode"] == "single" and state.context["defense_result"] == defense
    top_card(state, plain_offense_biker1_card())
    state, _ = apply(state, NextCard())
    if defense == "GOAL":  # biker GOAL vs GOAL: goal by the skater, assist to the biker
        assert state.home.score == 1 and state.home.sheet[1].assists == 1
    else:  # GOAL vs LOSE/EVT/Att: the team keeps the ball
        assert state.home.score == 0 and state.phase == PHASE_ACTION


def test_bkr_vs_empty_scores_and_the_coach_picks_the_assisting_biker():
    state, _ = play(("Bkr", "Att"), ("Att", "Att"), empty_defender=True)
    assert state.pending["kind"] == "assist_biker" and state.pending["team"] == HOME
    state, _ = apply(state, ChooseBiker(HOME, "Biker3"))
    assert state.home.score == 1 and state.home.sheet[3].assists == 1


def test_att_vs_att_goes_to_the_attack_section_with_the_defender_as_attacker():
    state, _ = play(("Att", "Att"), ("Att", "Att"))
    assert state.phase == PHASE_ATTACK
    assert state.context["attacker"] == (AWAY, "Skater1")
    assert state.context["victim"] == (HOME, "Skater1")


@pytest.mark.parametrize("defense", ["GOAL", "LOSE", "EVT", "Bkr"])
def test_att_vs_other_knocks_the_ball_loose_to_the_defense(defense):
    state, _ = play(("Att", "Att"), ("Att", defense))
    assert state.control == AWAY and state.handler == "Skater1" and state.phase == PHASE_ACTION


def test_att_vs_empty_keeps_the_ball():
    state, _ = play(("Att", "Att"), ("Att", "Att"), empty_defender=True)
    assert state.control == HOME and state.phase == PHASE_ACTION


def test_lose_vs_lose_defender_steals_and_breaks_away_at_once():
    # The stealer's card reads GOAL; the defense "automatically matches": GOAL vs GOAL.
    state, events = play(("LOSE", "Att"), ("GOAL", "LOSE"))
    assert state.away.score == 1 and state.away.sheet[11].goals == 1
    assert any(e.text.startswith("Breakaway") for e in events)


@pytest.mark.parametrize("defense", ["GOAL", "Att", "EVT", "Bkr"])
def test_lose_vs_other_turns_the_ball_over(defense):
    state, _ = play(("LOSE", "Att"), ("Att", defense))
    assert state.control == AWAY and state.phase == PHASE_ACTION


def test_lose_vs_empty_keeps_the_ball():
    state, _ = play(("LOSE", "Att"), ("Att", "Att"), empty_defender=True)
    assert state.control == HOME and state.phase == PHASE_ACTION


@pytest.mark.parametrize("defense", ["Att", "LOSE", "EVT", "Bkr"])
def test_pass_vs_att_lose_evt_bkr_picks_a_new_action(defense):
    state, _ = play(("PASS", "Att"), ("Att", defense))
    assert state.control == HOME and state.phase == PHASE_ACTION and state.pending is None


@pytest.mark.parametrize("empty", [False, True])
def test_pass_vs_goal_or_empty_is_a_goal_for_any_skater_with_the_passer_assisting(empty):
    state, _ = play(("PASS", "Att"), ("Att", "GOAL"), empty_defender=empty)
    assert state.pending["kind"] == "pass_scorer" and state.pending["passer"] == 11
    state, _ = apply(state, ChooseScorer(HOME, "Skater3"))
    assert state.home.score == 1
    assert state.home.sheet[13].goals == 1 and state.home.sheet[11].assists == 1


def test_evt_vs_evt_goes_to_the_event_section():
    state, _ = play(("EVT", "Att"), ("Att", "EVT"))
    assert state.phase == PHASE_EVENT


@pytest.mark.parametrize("defense", ["GOAL", "Att", "LOSE", "Bkr"])
def test_evt_vs_other_keeps_the_ball(defense):
    state, _ = play(("EVT", "Att"), ("Att", defense))
    assert state.control == HOME and state.phase == PHASE_ACTION


def test_evt_vs_empty_scores():
    state, _ = play(("EVT", "Att"), ("Att", "Att"), empty_defender=True)
    assert state.home.score == 1
