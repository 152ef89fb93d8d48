"""Engine defects found in play, each pinned by a test that failed first (measured again in
docs/rules/rollerball2.md, "How matches turn out")."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from rules.rollerball2.cards import ROOKIE, SKATER, STAR
from rules.rollerball2.content import load_content
from rules.rollerball2.effects import penalty
from rules.rollerball2.engine import apply, new_match, substitution_slots
from rules.rollerball2.errors import RollerballError
from rules.rollerball2.record import replay, to_record
from rules.rollerball2.resolution import Resolution
from rules.rollerball2.roster import default_lineup, generate_roster
from rules.rollerball2.state import (
    HOME,
    PHASE_EVENT,
    NextCard,
    card_from_json,
    card_to_json,
    roster_from_json,
    roster_to_json,
)
from tests.support.rollerball2_helpers import find_fac, match, roster, top_card

# --- 1. "until the next new ball" ------------------------------------------------------------


def test_a_player_out_until_the_next_new_ball_misses_the_restart_he_caused():
    """Item 1: the gasping handler rests "until the next new ball" and the ball goes dead; the
    restart that follows is the one he caused, so he misses it and comes back at the next one."""
    state = match()
    state.phase = PHASE_EVENT
    gasping = find_fac(lambda f: f.event.text.startswith("Ball handler is gasping"))
    misfire = find_fac(lambda f: f.ball_fires.text.startswith("Misfire") and f.index != gasping)
    top_card(state, misfire)
    top_card(state, gasping)
    state, _ = apply(state, NextCard())  # EVENT: Skater1 (#11) rests, the ball is dead
    assert state.home.lineup["Skater1"] is None and 11 in state.home.out
    state, events = apply(state, NextCard())  # the restart he caused: a misfire
    assert 11 in state.home.out, "he is back on the very restart his absence caused"
    assert not any(e.kind == "return" for e in events)
    state, events = apply(state, NextCard())  # the following new ball
    assert 11 not in state.home.out and state.home.lineup["Skater1"] == 11
    assert any(e.kind == "return" and "New ball" in e.text for e in events)


# --- 2. the penalty slot ---------------------------------------------------------------------


def test_penalty_slot_never_opens_to_a_substitute_while_its_player_is_still_in_the_box():
    """Item 2: a 3-minute penalty keeps Skater2 empty for six cards; when the slot may be filled
    again the Penalty Expires marker has already turned up and #12 is back in it."""
    home = roster("Home", Skater1=("EVT", "Att"))
    away = roster("Away", Skater1=("Att", "GOAL"))  # EVT vs GOAL: Home keeps the ball
    state = match(home, away)
    penalty(Resolution(state), (HOME, "Skater2"), "3min")
    state.deck = [41] * 6 + state.deck  # "Ball handler stays in control ...": a duel, retained
    for _ in range(6):
        state, _ = apply(state, NextCard())
        assert state.control == HOME and state.pending is None
        if "Skater2" in substitution_slots(state, HOME):
            assert 12 not in state.home.out, "a substitute could take the slot before #12 returns"
    assert state.home.lineup["Skater2"] == 12


# --- 3. breakaways ---------------------------------------------------------------------------


@pytest.mark.parametrize("slot", ["Skater1", "Skater3"])
def test_breakaway_action_cards_roll_the_dice(slot):
    """Item 3: a STAR on a breakaway rolls against an empty position; a card whose OFFENSE is all
    LOSE does not score (LOSE vs [Position Empty]: his team keeps the ball)."""
    [breakaway] = [
        f.index
        for f in load_content().facs
        if f.action.text.startswith("Breakaway!") and slot in f.action.text
    ]
    state = match(roster("Home", **{slot: ("LOSE", "Att", STAR)}))
    top_card(state, breakaway)
    state, events = apply(state, NextCard())
    assert state.home.score == 0
    assert any(e.kind == "roll" and "Position Empty" in e.text for e in events)


def test_breakaway_star_with_goal_results_scores_against_the_empty_position():
    [breakaway] = [
        f.index
        for f in load_content().facs
        if f.action.text.startswith("Breakaway!") and "Skater3" in f.action.text
    ]
    state = match(roster("Home", Skater3=("GOAL", "Att", STAR)))
    top_card(state, breakaway)
    state, _ = apply(state, NextCard())
    assert state.home.score == 1 and state.home.sheet[13].goals == 1


# --- 4. experience mix -----------------------------------------------------------------------


def _mix(team):
    return Counter((card.position, card.experience) for card in team.players)


def test_generated_rosters_vary_their_experience_mix_and_show_their_quality():
    """Item 4: teams differ in how many STARs and ROOKIEs they have, per position, so the
    experience-dependent cards ("Skater4 if STAR", the ROOKIE branches) can fire; the quality is
    a visible property of the roster, read from the experience printed on its cards."""
    teams = [generate_roster(seed, "Houston") for seed in range(100)]
    assert len({tuple(sorted(_mix(team).items())) for team in teams}) > 10
    lineups = [(team, default_lineup(team)) for team in teams]
    # Some default lineups have a STAR in Skater4 (and some do not); some put a ROOKIE on track.
    stars_in_4 = 0
    for team, lu in lineups:
        number = lu["Skater4"]
        assert number is not None, "the default line-up fills every slot"
        stars_in_4 += team.card(number).experience == STAR
    assert 10 < stars_in_4 < 90
    assert any(
        team.card(number).experience == ROOKIE
        for team, lu in lineups
        for number in lu.values()
        if number is not None
    )
    for team in teams:
        mix = team.experience_mix()
        assert sum(mix.values()) == 25
        assert mix == {
            experience: sum(card.experience == experience for card in team.players)
            for experience in (STAR, "veteran", ROOKIE)
        }
        assert team.quality in ("contender", "average", "underdog")
    qualities = Counter(team.quality for team in teams)
    assert len(qualities) == 3
    best = max(teams, key=lambda t: t.experience_mix()[STAR] - t.experience_mix()[ROOKIE])
    worst = min(teams, key=lambda t: t.experience_mix()[STAR] - t.experience_mix()[ROOKIE])
    assert (best.quality, worst.quality) == ("contender", "underdog")
    # Still 11 skaters, 7 bikers, 7 catchers.
    for team in teams:
        assert Counter(card.position for card in team.players)[SKATER] == 11


# --- 5. validation where cards enter ---------------------------------------------------------


def _good_card_json():
    return card_to_json(generate_roster(3, "Houston").players[0])


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda c: c["defense"].__setitem__(c["defense"].index("EVT") - 1, "PASS"), "PASS"),
        (lambda c: c.__setitem__("offense", ["EVT"] * 10), "EVT"),
        (lambda c: c.__setitem__("defense", c["defense"][:9]), "10"),
        (lambda c: c.__setitem__("position", "goalie"), "position"),
        (lambda c: c.__setitem__("experience", "legend"), "experience"),
        (lambda c: c.__setitem__("offense", ["GOAL"] * 9 + ["WIN"]), "WIN"),
    ],
)
def test_a_card_from_json_is_checked_with_the_same_rules_as_the_tables(change, message):
    """Item 5: a card with PASS on DEFENSE was accepted and crashed with KeyError when rolled."""
    data = _good_card_json()
    change(data)
    with pytest.raises(RollerballError, match=message):
        card_from_json(data)


@pytest.mark.parametrize("number", [1.0, True, "1"])
def test_a_card_numbered_like_a_good_one_but_not_a_whole_number_is_refused_after_it(number):
    """Checked cards are kept and shared (every click reads both rosters again): 1.0 and True
    are equal to 1 as keys, but not a uniform number; the good card read first must not stand
    in for them."""
    data = _good_card_json()
    data["number"] = 1
    assert card_from_json(data).number == 1
    data["number"] = number
    with pytest.raises(RollerballError, match="uniform number must be 0-99"):
        card_from_json(data)


def test_a_bad_card_is_refused_every_time_it_is_read():
    data = _good_card_json()
    data["position"] = "goalie"
    for _ in range(2):
        with pytest.raises(RollerballError, match="position"):
            card_from_json(data)


def test_a_biker_card_with_bkr_is_refused():
    biker = next(c for c in generate_roster(3, "Houston").players if c.position == "biker")
    data = card_to_json(biker)
    data["offense"][data["offense"].index("EVT") - 1] = "Bkr"
    with pytest.raises(RollerballError, match="Bkr"):
        card_from_json(data)


def test_a_roster_from_json_refuses_duplicate_numbers():
    data = roster_to_json(generate_roster(3, "Houston"))
    data["players"][1]["number"] = data["players"][0]["number"]
    with pytest.raises(RollerballError, match="twice"):
        roster_from_json(data)


def test_a_record_with_a_bad_card_is_refused_when_read_not_when_rolled():
    home, away = generate_roster(3, "Houston"), generate_roster(4, "Tokyo")
    text = to_record(new_match(9, home, away), reveal=True)
    header_line = next(line for line in text.splitlines() if line.startswith("[Home "))
    data = json.loads(header_line[len("[Home ") : -1])
    column = data["players"][0]["defense"]
    column[column.index("EVT") - 1] = "PASS"
    bad = text.replace(header_line, "[Home " + json.dumps(data) + "]")
    with pytest.raises(RollerballError, match="PASS"):
        replay(bad)


# --- 6. texts and sides ----------------------------------------------------------------------


def test_biker_attack_texts_do_not_give_a_biker_skates():
    """Item 6: ATTACK (BIKER) is also read in a biker duel, where the player hit is a biker."""
    for fac in load_content().facs:
        assert "player's skate" not in fac.attack_biker.text, fac.index


def _side_places(effect, found):
    while effect is not None:
        for op in effect.ops:
            found[op.who.partition(".")[0]] += 1
        effect = effect.otherwise
    return found


def test_events_name_home_and_visitors_equally_often():
    """Item 6: the lifetime ban and suspension hit Home, the season ban, bottle and fan tackle
    Visitors; every event is now side-neutral (the team in control / the defense, or both)."""
    for fac in load_content().facs:
        found = _side_places(fac.event.effect, Counter())
        assert found["home"] == found["away"], (fac.index, fac.event.text)
