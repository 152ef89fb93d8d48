"""Field geometry: square names, goals and the edge arrows (docs/rules/rocketball.md, Setup)."""

import pytest

from rules.rocketball import state as field


def test_square_names_round_trip_over_the_whole_field():
    assert len(field.FIELD_SQUARES) == 77
    for square in field.FIELD_SQUARES:
        assert field.square_name(*field.square_coords(square)) == square
    assert field.square_coords("a1") == (0, 1)
    assert field.square_coords("g11") == (6, 11)
    assert field.CENTRE == "d6"


@pytest.mark.parametrize("bad", ["h4", "a0", "a12", "d13", "c", "4c", ""])
def test_not_squares_are_refused(bad):
    with pytest.raises(ValueError):
        field.square_coords(bad)


def test_goals_are_three_squares_beyond_columns_c_to_e():
    assert field.goal_of("d0") == "N" and field.goal_of("e12") == "S"
    assert field.off_field_step("c1", "N") == "c0"
    assert field.off_field_step("e11", "S") == "e12"
    assert field.off_field_step("b1", "N") is None  # outside the goal mouth: a wall
    assert field.off_field_step("c1", "W") is None


def test_west_and_east_arrows_alternate_north_and_south():
    west = [field.edge_arrow(f"a{row}", "W") for row in range(1, 12)]
    east = [field.edge_arrow(f"g{row}", "E") for row in range(1, 12)]
    assert west == ["N", "S"] * 5 + ["N"]
    assert east == ["S", "N"] * 5 + ["S"]


def test_end_arrows_point_along_the_end_towards_the_goal_mouth():
    assert [field.edge_arrow(f"{col}1", "N") for col in "abcdefg"] == [
        "E",
        "E",
        None,
        None,
        None,
        "W",
        "W",
    ]
    assert [field.edge_arrow(f"{col}11", "S") for col in "abcdefg"] == [
        "E",
        "E",
        None,
        None,
        None,
        "W",
        "W",
    ]
    # A corner square has one arrow per edge.
    assert field.edge_arrows("a1") == {"N": "E", "W": "N"}
    assert field.edge_arrow("d6", "N") is None


def test_arrow_pattern_is_symmetric_under_a_half_turn():
    for square, edge, arrow in field.EDGE_ARROWS:
        col, row = field.square_coords(square)
        turned = field.square_name(6 - col, 12 - row)
        assert field.edge_arrow(turned, field.opposite(edge)) == field.opposite(arrow)
    assert len(field.EDGE_ARROWS) == 11 + 11 + 4 + 4
