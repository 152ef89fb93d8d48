"""Every card's effect on a ball, on hand-made boards (both editions, "Diversions";
docs/rules/rollerball.md, "The cards" and its rulings)."""

from __future__ import annotations

from rules.rollerball.movement import move_balls
from tests.rollerball_board.helpers import names, scenario


def where(state) -> list[str]:
    return sorted(names(ball.square for ball in state.balls))


def test_up_move_takes_a_ball_out_one_ring_and_crossing_uses_a_space():
    state = scenario(balls=["c2"], cards=[("up-move", "d2", "d1")])
    move_balls(state)  # c2 -> d2 (diverted), d2 -> d1 (crossing is a space)
    assert where(state) == ["d1"]
    move_balls(state)  # then clockwise on ring 1
    assert where(state) == ["f1"]


def test_down_move_takes_a_ball_in_one_ring():
    state = scenario(balls=["c1"], cards=[("down-move", "d1", "d2")])
    move_balls(state)
    assert where(state) == ["d2"]
    move_balls(state)
    assert where(state) == ["f2"]


def test_a_ball_meeting_a_track_changer_from_the_wrong_side_hops_over_it():
    state = scenario(balls=["c1"], cards=[("up-move", "d2", "d1")])
    outcome = move_balls(state)
    assert where(state) == ["e1"]
    assert any("wrong side" in text for text in outcome.texts)


def test_a_splitter_with_its_y_on_the_entry_square_splits_the_ball():
    state = scenario(balls=["c2"], cards=[("split-up", "d2", "d1")])
    outcome = move_balls(state)
    # one ball goes on along ring 2, its twin crosses to ring 1
    assert where(state) == ["d1", "e2"]
    assert any("splits" in text for text in outcome.texts)


def test_splitter_down_splits_inwards():
    state = scenario(balls=["c1"], cards=[("split-down", "d1", "d2")])
    move_balls(state)
    assert where(state) == ["d2", "e1"]


def test_with_four_balls_a_splitter_is_only_a_move_card():
    balls = ["c2", "a5", "e9", "i5"]
    state = scenario(balls=balls, cards=[("split-up", "d2", "d1")])
    move_balls(state)
    assert len(state.balls) == 4
    assert "d1" in where(state) and "e2" not in where(state)


def test_two_balls_hitting_the_y_together_combine_into_one():
    # Y on the exit square d1: ball 1 crosses from d2, ball 2 comes along ring 1; both reach d1
    # on the second space.
    state = scenario(balls=["c2", "b1"], cards=[("split-up", "d1", "d2")])
    outcome = move_balls(state)
    assert where(state) == ["d1"]
    assert [ball.id for ball in state.balls] == [1]
    assert any("combine" in text for text in outcome.texts)
    move_balls(state)
    assert where(state) == ["f1"]  # the combined ball carries on along the Y's ring


def test_a_lone_ball_through_a_combining_splitter_treats_it_as_a_move_card():
    state = scenario(balls=["c2"], cards=[("split-up", "d1", "d2")])
    move_balls(state)
    assert where(state) == ["d1"] and len(state.balls) == 1


def test_energiser_energises_from_the_next_square_and_smashes_the_next_diversion():
    state = scenario(balls=["b1"], cards=[("energiser", "c1", "d1"), ("down-move", "f1", "f2")])
    move_balls(state)  # on the energiser: not yet energised
    assert where(state) == ["d1"] and not state.balls[0].energised
    outcome = move_balls(state)  # e1: energised; f1: smashes the Down Move
    ball = state.balls[0]
    assert where(state) == ["f1"] and not ball.energised
    assert [c.kind for c in state.cards] == ["energiser"]
    assert len(outcome.smashed) == 1
    move_balls(state)
    assert where(state) == ["h1"]  # not diverted: the card is gone


def test_an_energised_ball_smashes_even_another_energiser():
    state = scenario(balls=[("b1", {"energised": True})], cards=[("energiser", "c1", "d1")])
    outcome = move_balls(state)
    assert state.cards == [] and len(outcome.smashed) == 1
    assert not state.balls[0].energised


def test_rubberiser_makes_the_ball_up_on_the_first_square_after_and_up_ignores_cards():
    state = scenario(balls=["b1"], cards=[("rubberiser", "c1", "d1"), ("down-move", "e1", "e2")])
    move_balls(state)
    assert where(state) == ["d1"] and state.balls[0].rubber is None
    move_balls(state)  # e1 Up Rubber: the Down Move is ignored; f1 Down
    assert where(state) == ["f1"] and state.balls[0].rubber == "down"


def test_an_up_rubber_ball_does_not_hit_a_workman_or_score_but_a_down_one_does():
    state = scenario(balls=[("d1", {"rubber": "down"})], bases=("a9", "f1"), workmen=("e1", "e5"))
    outcome = move_balls(state)  # e1 up: workman safe; f1 down: Player 2's base scores
    assert outcome.hits == [] and outcome.scored == [1]


def test_derubberiser_takes_the_rubber_off():
    state = scenario(balls=[("b1", {"rubber": "down"})], cards=[("derubberiser", "c1", "d1")])
    move_balls(state)  # c1 up (ignores), d1 down (affected)
    move_balls(state)  # e1: derubberised
    assert state.balls[0].rubber is None


def test_an_energised_rubber_ball_destroys_the_derubberiser_before_it_is_used():
    state = scenario(
        balls=[("b1", {"rubber": "up", "energised": True})], cards=[("derubberiser", "c1", "d1")]
    )
    move_balls(state)  # c1 down: smashes the derubberiser
    assert state.cards == []
    move_balls(state)
    assert state.balls[0].rubber is not None and not state.balls[0].energised


def test_a_track_changer_entry_square_diverts_even_if_the_ball_stops_there():
    state = scenario(edition="earlier", balls=["c2"], cards=[("up-move", "d2", "d1")])
    move_balls(state)  # one square a turn
    assert where(state) == ["d2"]
    move_balls(state)
    assert where(state) == ["d1"]


def test_a_ball_diverted_by_a_card_that_is_smashed_goes_straight_on():
    # ball 1 enters d2 and is diverted; on the same space energised ball 2 smashes the card at d1
    state = scenario(
        edition="earlier",
        balls=["c2", ("c1", {"energised": True})],
        cards=[("up-move", "d2", "d1")],
    )
    move_balls(state)
    assert state.cards == []
    move_balls(state)
    assert where(state) == ["e1", "e2"]
