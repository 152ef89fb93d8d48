"""Dice notation for /roll: what parses, what is refused, and that every die is shown."""

import random

import pytest

from rules import dice


def test_three_d6_plus_two_shows_every_die_and_the_total():
    result = dice.roll("3d6+2", random.Random(7))
    rolled = result.terms[0].dice
    assert len(rolled) == 3 and all(1 <= d <= 6 for d in rolled)
    assert result.total == sum(rolled) + 2
    assert result.working == f"[{', '.join(map(str, rolled))}] + 2"
    assert result.describe() == f"{result.working} = {result.total}"


def test_a_lone_die_is_shown_once_not_as_a_sum_that_changes_nothing():
    result = dice.roll("1d20", random.Random(7))
    assert result.working == ""
    assert result.describe() == str(result.total)  # "17", never "[17] = 17"


def test_same_seed_same_dice():
    assert dice.roll("2d10", random.Random(42)) == dice.roll("2d10", random.Random(42))


@pytest.mark.parametrize(
    ("notation", "canonical"),
    [("d4", "1d4"), ("2D10", "2d10"), (" 3d6 + 2 ", "3d6+2"), ("1d8+1d6-1", "1d8+1d6-1")],
)
def test_ordinary_notation_is_understood(notation, canonical):
    assert dice.roll(notation, random.Random(1)).notation == canonical


def test_subtracted_dice_count_against_the_total():
    result = dice.roll("10-1d4", random.Random(3))
    assert result.total == 10 - result.terms[1].dice[0]
    assert "- [" in result.describe()


def test_every_face_of_a_d4_comes_up():
    rng = random.Random(5)
    faces = {dice.roll("d4", rng).total for _ in range(200)}
    assert faces == {1, 2, 3, 4}


@pytest.mark.parametrize(
    ("notation", "says"),
    [
        ("", "Nothing to roll"),
        ("banana", "not dice notation"),
        ("2d", "not dice notation"),
        ("d1", "2 to 1000 sides"),
        ("0d6", "between 1 and 100 dice"),
        ("60d6+60d6", "between 1 and 100 dice"),
        ("5", "no dice"),
        ("d6+" * 11 + "1", "At most 10 terms"),
        ("d6+99999", "at most 10000"),
    ],
)
def test_bad_notation_says_what_is_accepted(notation, says):
    with pytest.raises(dice.DiceError, match=says):
        dice.roll(notation, random.Random(0))
