"""Player levels in a match: rule 3's positions, rule 2's tiredness and rest, rule 4's lack
of devotion, rule 2's eligibility, with worked numbers."""

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from rules.volleyball.match import (
    Fatigue,
    can_play,
    half_levels,
    match_levels,
    position_levels,
    rest,
    round_half_up,
    tire,
)
from rules.volleyball.models import AGE_TALENT, Player, Team
from rules.volleyball.orders import PlayerSlot, Position


def test_round_half_up_rounds_halves_up_not_to_even():
    assert round_half_up(Fraction("2.5")) == 3
    assert round_half_up(Fraction("1.5")) == 2
    assert round_half_up(Fraction("0.5")) == 1
    assert round_half_up(Fraction("2.4")) == 2


def test_setter_gains_20_percent_ol_and_loses_2_dl():
    # 12 * 20 % = 2.4 -> 2; 13 * 20 % = 2.6 -> 3
    assert position_levels(12, 10, Position.SETTER) == (14, 8)
    assert position_levels(13, 10, Position.SETTER) == (16, 8)


def test_attacker_gains_10_percent_ol_and_loses_1_dl():
    # 15 * 10 % = 1.5 rounds half up to 2
    assert position_levels(15, 10, Position.ATTACKER) == (17, 9)
    assert position_levels(14, 10, Position.ATTACKER) == (15, 9)


def test_allround_changes_nothing():
    assert position_levels(11, 7, Position.ALLROUND) == (11, 7)


def test_defender_gains_10_percent_dl_and_loses_1_ol():
    assert position_levels(10, 15, Position.DEFENDER) == (9, 17)


def test_blocker_gains_20_percent_dl_and_loses_2_ol():
    # 8 * 20 % = 1.6 -> 2
    assert position_levels(10, 8, Position.BLOCKER) == (8, 10)


def test_position_drop_never_goes_below_zero():
    assert position_levels(5, 1, Position.SETTER) == (6, 0)
    assert position_levels(1, 5, Position.BLOCKER) == (0, 6)
    assert position_levels(0, 0, Position.SETTER) == (0, 0)


def test_tiredness_default_takes_from_the_higher_level():
    # 12/8: four points off OL bring it to 8/8, the fifth off OL again (tie goes to OL).
    assert tire(12, 8) == (7, 8)
    assert tire(10, 10) == (7, 8)


def test_tiredness_follows_the_managers_split():
    assert tire(12, 8, tired_from_ol=0) == (12, 3)
    assert tire(12, 8, tired_from_ol=5) == (7, 8)
    assert tire(12, 8, tired_from_ol=2) == (10, 5)


def test_tiredness_stops_at_zero():
    assert tire(2, 9, tired_from_ol=5) == (0, 9)
    assert tire(2, 1) == (0, 0)


def test_rest_gives_three_points_back_to_the_level_furthest_below_original():
    # original 12/10, now 6/8: shortfalls 6 and 2 -> three points to OL.
    assert rest(6, 8, 12, 10) == (9, 8)
    # original 12/10, now 11/7: shortfalls 1 and 3 -> DL twice then... 1 vs 1, OL.
    assert rest(11, 7, 12, 10) == (12, 9)


def test_rest_never_goes_above_original():
    assert rest(11, 10, 12, 10) == (12, 10)
    assert rest(12, 10, 12, 10) == (12, 10)


def test_tiredness_over_five_sets_played_and_rested():
    """A 12/10 player plays sets 1 and 2, rests 3, plays 4, rests 5 (default split)."""
    team = Team("T", [Player("Ann", "B", 12, 10)])
    fatigue = Fatigue(team)
    slots = [PlayerSlot("Ann")]
    fatigue.after_set(slots)  # played: 12/10 -> 11/10 10/10 9/10 9/9 8/9
    assert fatigue.levels("Ann") == (8, 9)
    fatigue.after_set(slots)  # played: 8/9 -> 8/8 7/8 7/7 6/7 6/6
    assert fatigue.levels("Ann") == (6, 6)
    fatigue.after_set([])  # rested: short 6/4 -> OL, OL (5/4), OL? 4 vs 4 -> OL: 9/6
    assert fatigue.levels("Ann") == (9, 6)
    fatigue.after_set(slots)  # played: 9/6 -> 8/6 7/6 6/6 5/6 5/5
    assert fatigue.levels("Ann") == (5, 5)
    fatigue.after_set([])  # rested: short 7/5 -> OL 6/5, OL 7/5? 5 vs 5 -> OL: 8/5
    assert fatigue.levels("Ann") == (8, 5)


def test_lack_of_devotion_halves_levels_rounding_half_up():
    assert half_levels(12, 9) == (6, 5)
    assert half_levels(1, 1) == (1, 1)
    player = Player("Bob", "C", 15, 8, lack_of_devotion=True)
    assert match_levels(player) == (8, 4)
    assert match_levels(Player("Bob", "C", 15, 8)) == (15, 8)


def test_a_player_needs_both_levels_at_least_one():
    player = Player("Cas", "A", 10, 10)
    assert can_play(player, 1, 1)
    assert not can_play(player, 0, 9)
    assert not can_play(player, 9, 0)


def test_a_new_talent_at_zero_may_play_but_not_once_he_has_his_levels():
    fresh = Player("Tim", AGE_TALENT, 0, 0)
    assert can_play(fresh, 0, 0)
    grown = Player("Tim", AGE_TALENT, 2, 2, talent_matches=4)
    assert not can_play(grown, 0, 0)


@given(
    st.integers(0, 40),
    st.integers(0, 40),
    st.sampled_from(list(Position)),
    st.none() | st.integers(0, 5),
)
def test_levels_never_go_negative(ol, dl, position, split):
    assert min(position_levels(ol, dl, position)) >= 0
    assert min(tire(ol, dl, split)) >= 0
    tired = tire(ol, dl, split)
    rested = rest(*tired, ol, dl)
    assert 0 <= rested[0] <= ol and 0 <= rested[1] <= dl
