"""Rule 5's scoring chance with worked numbers: the base formula, every concept pair of the
seed's table (and every pair it does not list), rounding and clamping; and the team totals
that feed it (rule 4's points added to the formation's end levels)."""

from fractions import Fraction

import pytest

from rules.volleyball.match import (
    CONCEPT_TABLE,
    Fatigue,
    base_chance,
    build_side,
    concept_adjustment,
    scoring_chance,
)
from rules.volleyball.models import Player, Team
from rules.volleyball.orders import Concept, LevelPoints, PlayerSlot, Position, SetOrder

AC, OC, NC, DC, WC = (
    Concept.AGGRESSIVE,
    Concept.OFFENSIVE,
    Concept.NEUTRAL,
    Concept.DEFENSIVE,
    Concept.WALL,
)


def test_base_chance_is_own_ol_over_own_ol_plus_other_dl():
    assert base_chance(60, 40) == 60
    assert base_chance(50, 70) == Fraction(500, 12)  # 41.67 %
    assert scoring_chance(50, 70, NC, NC, 5, 5) == 42


def test_base_chance_with_nothing_on_either_side_is_even():
    assert base_chance(0, 0) == 50


# Base 60 % (OL 60 against DL 40); (own, own risk, other, other risk, expected chance).
SEED_TABLE_CASES = [
    (AC, 10, OC, 8, 65),  # ARF 9, +4.5 -> 64.5 rounds up to 65
    (AC, 10, NC, 4, 67),  # ARF 7, +7
    (AC, 12, DC, 4, 56),  # ARF 8, -4
    (AC, 9, WC, 1, 55),  # ARF 5, -5
    (OC, 8, NC, 6, 64),  # ARF 7, +3.5 -> 63.5 -> 64
    (OC, 6, DC, 3, 62),  # ARF 4.5, +2.25 -> 62.25 -> 62
    (OC, 9, WC, 2, 57),  # ARF 5.5, -2.75 -> 57.25 -> 57
    (NC, 5, DC, 5, 63),  # ARF 5, +2.5 -> 62.5 -> 63
    (WC, 3, NC, 9, 54),  # ARF 6, -6
    (WC, 0, DC, 6, 59),  # ARF 3, -1.5 -> 58.5 -> 59
]


@pytest.mark.parametrize(("own", "own_risk", "other", "other_risk", "expected"), SEED_TABLE_CASES)
def test_each_concept_pair_of_the_seed_table(own, own_risk, other, other_risk, expected):
    assert scoring_chance(60, 40, own, other, own_risk, other_risk) == expected
    # Only the team named in the seed's line changes: the other side's chance is untouched.
    assert scoring_chance(60, 40, other, own, other_risk, own_risk) == 60


def test_the_table_has_exactly_the_ten_pairs_of_the_seed():
    assert set(CONCEPT_TABLE) == {(own, other) for own, _, other, _, _ in SEED_TABLE_CASES}


@pytest.mark.parametrize("own", list(Concept))
@pytest.mark.parametrize("other", list(Concept))
def test_pairs_not_in_the_table_and_equal_concepts_change_nothing(own, other):
    if (own, other) in CONCEPT_TABLE:
        assert concept_adjustment(own, other, 6, 6) != 0
    else:
        assert concept_adjustment(own, other, 6, 6) == 0
        assert scoring_chance(60, 40, own, other, 6, 6) == 60


def test_chance_is_clamped_to_1_and_99_percent():
    assert scoring_chance(100, 0, AC, NC, 12, 9) == 99
    assert scoring_chance(1, 99, WC, NC, 0, 9) == 1
    assert scoring_chance(0, 50, NC, NC, 3, 3) == 1


def test_team_totals_are_end_levels_plus_all_points():
    team = Team(
        "Red",
        [
            Player("A", "B", 12, 10),
            Player("B", "B", 10, 10),
            Player("C", "B", 10, 8),
            Player("D", "B", 10, 15),
            Player("E", "B", 10, 10),
            Player("F", "B", 10, 10),
        ],
    )
    order = SetOrder(
        slots=[
            PlayerSlot("A", Position.SETTER),  # 14/8
            PlayerSlot("B", Position.ATTACKER),  # 11/9
            PlayerSlot("C", Position.BLOCKER),  # 8/10 (8 * 20 % = 1.6 -> 2)
            PlayerSlot("D", Position.DEFENDER),  # 9/17 (15 * 10 % = 1.5 -> 2)
            PlayerSlot("E", Position.ALLROUND),  # 10/10
            PlayerSlot("F", Position.ALLROUND),  # 10/10
        ],
        home_advantage=LevelPoints(6, 0),
        devotion=LevelPoints(2, 3),
        special=LevelPoints(0, 5),
    )
    side = build_side(team, order, Fatigue(team))
    assert side.ol_total == 14 + 11 + 8 + 9 + 10 + 10 + 6 + 2
    assert side.dl_total == 8 + 9 + 10 + 17 + 10 + 10 + 3 + 5
    assert [(line.end_ol, line.end_dl) for line in side.lines][:4] == [
        (14, 8),
        (11, 9),
        (8, 10),
        (9, 17),
    ]
