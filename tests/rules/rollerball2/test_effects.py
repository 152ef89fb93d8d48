"""Each effect type a FAC section can carry, run by the engine on a hand-made match."""

from __future__ import annotations

import pytest

from rules.rollerball2.cards import (
    ROOKIE,
    STAR,
    Condition,
    Effect,
    Flow,
    Op,
)
from rules.rollerball2.coach import step
from rules.rollerball2.effects import run_effect
from rules.rollerball2.engine import apply
from rules.rollerball2.resolution import Resolution
from rules.rollerball2.state import (
    AWAY,
    HOME,
    PHASE_ACTION,
    PHASE_FIRE,
    CatcherChoice,
    NextCard,
)
from tests.support.rollerball2_helpers import find_fac, match, roster, top_card

FIRE = Flow("fire")
RETAIN = Flow("retain")


def run(state, effect, context=None):
    resolution = Resolution(state)
    run_effect(resolution, effect, context if context is not None else {})
    return resolution.events


def plain_catch_fac(side: str, slot: str) -> int:
    return find_fac(
        lambda f: (
            f.ball_fires.effect.when is None and f.ball_fires.effect.flow.who == f"{side}.{slot}"
        )
    )


def test_three_minute_penalty_empties_the_slot_for_six_cards_then_the_marker_returns_him():
    state = match()
    run(state, Effect(ops=(Op("penalty", "defense.Skater2", "3min"),), flow=FIRE))
    assert state.away.lineup["Skater2"] is None
    assert state.away.sheet[12].penalty_minutes == 3
    called_at = state.fac_count
    events = []
    while state.fac_count < called_at + 5 or state.pending is not None:
        state, events = step(state)  # five cards played with Away a man short
        assert state.away.lineup["Skater2"] is None
    while state.fac_count < called_at + 6 or state.pending is not None:
        state, events = step(state)  # the sixth card: when its play ends the marker turns up
    assert any(e.kind == "return" and "Penalty Expires" in e.text for e in events)
    assert state.away.lineup["Skater2"] == 12


def test_match_penalty_ejects_and_charges_the_minutes_left():
    state = match()
    state.period, state.period_fac = 4, 20  # 10 cards = 5 minutes left in the match
    run(state, Effect(ops=(Op("penalty", "defense.Skater1", "match"),), flow=FIRE))
    line = state.away.sheet[11]
    assert line.exit and line.penalty_minutes == 5
    assert state.away.out[11].until == "match"


def test_injury_until_next_new_ball_returns_when_the_ball_fires_after_play_went_on():
    state = match()
    state.fac_count = 5
    run(
        state,
        Effect(ops=(Op("injury", "offense.Skater3", "new_ball", note="winded"),), flow=RETAIN),
    )
    assert state.home.lineup["Skater3"] is None and "winded" in state.home.sheet[13].injury
    state.fac_count = 8  # play went on; now the ball fires
    state.phase, state.control, state.handler = PHASE_FIRE, None, None
    state, events = apply(state, NextCard())
    assert state.home.lineup["Skater3"] == 13
    assert any(e.kind == "return" and "New ball" in e.text for e in events)


def test_injury_for_the_period_lasts_until_the_period_ends():
    state = match()
    run(state, Effect(ops=(Op("injury", "offense.Skater3", "period"),), flow=FIRE))
    state.period_fac = 29
    state, _ = apply(state, NextCard())  # the 30th card: new ball, no return yet
    while state.pending is not None:
        state, _ = apply(state, CatcherChoice(state.pending["team"], False))
    assert state.period == 2 and state.home.lineup["Skater3"] == 13


def test_injury_for_matches_carries_over_and_counts_as_a_casualty_for_the_attacker():
    state = match()
    context = {"attacker": (AWAY, "Skater1"), "victim": (HOME, "Skater1")}
    effect = Effect(
        ops=(Op("injury", "victim", "matches", matches=2, by="attacker", note="broken jaw"),),
        flow=FIRE,
    )
    run(state, effect, context)
    victim = state.home.sheet[11]
    assert victim.exit and victim.injury == "broken jaw (out for 2 matches)"
    assert state.away.sheet[11].casualties == [11]
    [absence] = state.home.new_absences
    assert (absence.number, absence.kind, absence.matches) == (11, "injury", 2)


def test_d10_matches_injury_kills_on_a_zero():
    state = match(rolls=[10])
    run(state, Effect(ops=(Op("injury", "offense.Skater1", "d10_matches"),), flow=FIRE))
    [absence] = state.home.new_absences
    assert absence.kind == "killed" and absence.matches is None
    assert state.home.out[11].reason == "killed"


def test_d10_matches_injury_otherwise_misses_that_many_matches():
    state = match(rolls=[4])
    run(state, Effect(ops=(Op("injury", "offense.Skater1", "d10_matches"),), flow=FIRE))
    [absence] = state.home.new_absences
    assert absence.kind == "injury" and absence.matches == 4


def test_bans_carry_over_by_matches_season_or_lifetime():
    state = match()
    ops = (
        Op("ban", "home.Skater1", "matches", matches=2),
        Op("ban", "home.Skater2", "season"),
        Op("ban", "home.Skater3", "lifetime"),
    )
    run(state, Effect(ops=ops, flow=FIRE))
    carried = {(a.number, a.length, a.matches) for a in state.home.new_absences}
    assert carried == {(11, "matches", 2), (12, "season", None), (13, "lifetime", None)}
    assert all(state.home.sheet[n].exit for n in (11, 12, 13))


def test_forced_rest_is_not_an_injury_and_ends_with_the_period():
    state = match()
    run(state, Effect(ops=(Op("rest", "defense.Biker2", "period"),), flow=RETAIN))
    assert state.away.out[2].reason == "rest" and state.away.sheet[2].injury == ""
    assert state.away.lineup["Biker2"] is None
    state.period_fac = 29
    state, _ = apply(state, NextCard())  # the period's last card
    while state.pending is not None:
        state, _ = step(state)
    assert state.period == 2 and state.away.lineup["Biker2"] == 2 and 2 not in state.away.out


def test_goal_op_scores_with_the_assist_and_restarts():
    state = match()
    run(state, Effect(ops=(Op("goal", "offense.Skater3", assist="handler"),), flow=FIRE))
    assert state.home.sheet[13].goals == 1 and state.home.sheet[11].assists == 1
    assert state.phase == PHASE_FIRE


def test_op_on_an_empty_slot_falls_on_no_one():
    state = match()
    state.away.lineup["Skater4"] = None
    events = run(state, Effect(ops=(Op("penalty", "defense.Skater4", "3min"),), flow=RETAIN))
    assert any("falls on no one" in e.text for e in events)
    assert not state.away.out


def test_random_player_chart_uses_the_d10():
    state = match(rolls=[4])  # Player column: 4 -> Skater1
    events = run(state, Effect(ops=(Op("rest", "away.random_player", "new_ball"),), flow=RETAIN))
    assert state.away.lineup["Skater1"] is None
    assert any(e.kind == "chart" and "d10 = 4 -> Skater1" in e.text for e in events)


def test_random_skater_catcher_never_picks_a_biker_and_extra_means_the_tenth_player():
    state = match(rolls=[7])  # Skater/Catcher column: 7 -> Extra = Skater5 here
    run(state, Effect(ops=(Op("rest", "home.random_skater_catcher", "new_ball"),), flow=FIRE))
    assert state.home.lineup["Skater5"] is None


def test_least_experienced_picks_the_rookie():
    away = roster("Away", Skater4=("Att", "Att", ROOKIE))
    state = match(away=away)
    run(state, Effect(ops=(Op("rest", "defense.least_experienced", "new_ball"),), flow=FIRE))
    assert state.away.lineup["Skater4"] is None


def test_condition_on_experience_chooses_the_branch():
    home = roster("Home", Skater4=("GOAL", "Att", STAR))
    effect = Effect(
        ops=(),
        flow=Flow("control", who="offense.Skater4"),
        when=Condition("offense.Skater4", (STAR,)),
        otherwise=Effect(ops=(), flow=Flow("turnover")),
    )
    state = match(home=home, away=roster("Away", Skater4=("Att", "GOAL")))
    run(state, effect)
    assert state.home.score == 1  # the STAR took control and scored
    state = match()  # a veteran in Skater4: the defense takes the ball
    run(state, effect)
    assert state.control == AWAY and state.phase == PHASE_ACTION


def test_empty_slot_fails_a_condition():
    state = match()
    state.home.lineup["Skater4"] = None
    effect = Effect(
        ops=(),
        flow=Flow("control", who="offense.Skater4"),
        when=Condition("offense.Skater4"),
        otherwise=Effect(ops=(), flow=RETAIN),
    )
    run(state, effect)
    assert state.handler == "Skater1" and state.phase == PHASE_ACTION


def test_control_flow_with_a_named_defender_rolls_against_him():
    home = roster("Home", Skater2=("GOAL", "Att"))
    away = roster("Away", Biker2=("Att", "GOAL"), Skater2=("Att", "LOSE"))
    state = match(home, away)
    events = run(
        state,
        Effect(ops=(), flow=Flow("control", who="offense.Skater2", defender="defense.Biker2")),
    )
    assert any("Away Biker2" in e.text and e.kind == "roll" for e in events)
    assert state.home.score == 1  # GOAL vs the biker's GOAL


def test_handler_removed_by_an_op_kills_the_ball():
    state = match()
    run(state, Effect(ops=(Op("rest", "handler", "new_ball"),), flow=RETAIN))
    assert state.phase == PHASE_FIRE and state.control is None


def test_catch_flow_gives_the_catcher_the_ball_and_asks_the_coach():
    state = match(control=None, handler=None)
    state.phase = PHASE_FIRE
    run(state, Effect(ops=(), flow=Flow("catch", who="home.Catcher2")))
    assert state.control == HOME and state.handler == "Catcher2"
    assert state.home.sheet[22].catches == 1
    assert state.pending == {"kind": "catcher_choice", "team": HOME}


def test_skater_in_a_catcher_slot_does_not_catch_the_opposing_catcher_does():
    state = match(control=None, handler=None)
    state.phase = PHASE_FIRE
    state.home.lineup["Catcher1"] = 16  # a skater filling in (seed GAME SETUP)
    run(state, Effect(ops=(), flow=Flow("catch", who="home.Catcher1")))
    assert state.control == AWAY and state.handler == "Catcher1"


def test_no_catcher_on_either_side_sends_the_ball_to_the_gutter():
    state = match(control=None, handler=None)
    state.phase = PHASE_FIRE
    state.home.lineup["Catcher2"] = None
    state.away.lineup["Catcher2"] = None
    run(state, Effect(ops=(), flow=Flow("catch", who="home.Catcher2")))
    assert state.phase == PHASE_FIRE and state.control is None and state.pending is None


def test_catcher_choice_roll_duels_at_once_and_draw_reads_a_new_action():
    home = roster("Home", Catcher1=("GOAL", "Att"))
    away = roster("Away", Catcher1=("Att", "GOAL"))
    state = match(home, away, control=None, handler=None)
    state.phase = PHASE_FIRE
    top_card(state, plain_catch_fac("home", "Catcher1"))
    fired, _ = apply(state, NextCard())
    rolled, _ = apply(fired, CatcherChoice(HOME, True))
    assert rolled.home.score == 1 and rolled.fac_count == 1
    drawn, _ = apply(fired, CatcherChoice(HOME, False))
    assert drawn.phase == PHASE_ACTION and drawn.home.score == 0


def test_tow_flow_with_the_named_biker_off_the_track_keeps_the_ball():
    state = match()
    state.context = {"mode": "single", "defense_result": "GOAL", "defender": (AWAY, "Skater1")}
    state.home.lineup["Biker2"] = None
    events = run(state, Effect(ops=(), flow=Flow("tow", who="offense.Biker2")))
    assert state.phase == PHASE_ACTION and state.control == HOME
    assert any("no biker to grab" in e.text for e in events)


def test_attack_section_is_chosen_by_the_attacker_position():
    state = match(rolls=[1, 1])
    state.phase = "attack"
    state.context = {"attacker": (AWAY, "Biker1"), "victim": (HOME, "Skater1")}
    state, events = apply(state, NextCard())
    assert any(e.kind == "card" and "ATTACK (BIKER)" in e.text for e in events)


def test_result_for_a_skater_in_a_catcher_slot_goes_to_the_opposing_catcher():
    """Seed GAME SETUP: "all FAC results that would have went to that position will
    automatically go to the opposing Catcher"."""
    state = match()
    state.home.lineup["Catcher2"] = 16  # a skater fills in
    events = run(state, Effect(ops=(), flow=Flow("control", who="offense.Catcher2")))
    assert any("is no catcher: the result goes across" in e.text for e in events)
    rolls = [e.text for e in events if e.kind == "roll"]
    assert rolls[0].startswith("Away Catcher2 #22")  # he rolls vs the skater in Home Catcher2
    assert state.control == AWAY and state.handler == "Catcher2"  # Att vs Att: attack pending


@pytest.mark.parametrize(
    ("length", "carried", "text"),
    [
        ("match", None, "out for the rest of the match"),
        ("season", ("injury", "season", None), "out for the season"),
        ("killed", ("killed", "killed", None), "killed"),
    ],
)
def test_long_injuries_exit_the_player_and_carry_over_as_the_card_says(length, carried, text):
    state = match()
    context = {"attacker": (AWAY, "Biker2"), "victim": (HOME, "Skater2")}
    run(
        state,
        Effect(ops=(Op("injury", "victim", length, by="attacker", note="hit"),), flow=FIRE),
        context,
    )
    line = state.home.sheet[12]
    assert line.exit and line.injury == f"hit ({text})"
    assert state.away.sheet[2].casualties == [12]
    found = [(a.kind, a.length, a.matches) for a in state.home.new_absences]
    assert found == ([carried] if carried else [])
