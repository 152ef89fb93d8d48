"""Every card's effect on a ball, on hand-made boards (both editions, "Diversions";
docs/rules/rollerball.md, "The cards" and its rulings)."""

from __future__ import annotations

from rules.rollerball.movement import move_balls
from tests.support.rollerball_helpers import names, scenario, sq


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


def test_a_workman_where_two_balls_combine_is_hit_even_if_the_ball_goes_on_from_the_y():
    """Earlier edition: Splitter Up b7-c7 with its Y on b7 (a ball entering c7 crosses to b7).
    Ball 1 enters c7 as ball 2 enters b7: they combine on the Y. Player 1's workman on c7 was
    moved over all the same ("Any ball that moves over a workman sends that workman back to
    their base"; ruling 16: he is hit where he stood when the balls arrived)."""
    state = scenario(
        edition="earlier",
        balls=["d7", "b8"],
        cards=[("split-up", "b7", "c7")],
        bases=("a1", "i9"),
        workmen=("c7", "e5"),
    )
    outcome = move_balls(state)
    assert where(state) == ["b7"] and len(state.balls) == 1
    assert outcome.hits == [0]
    assert names(state.workmen) == ["a1", "e5"]
    assert sq("c7") in outcome.arrivals[-1]  # the computer's look-ahead counts the hit too


def test_balls_combining_on_the_entry_square_cross_to_the_y_as_a_lone_ball_would():
    """Earlier edition, ruling 19: two balls enter c7, the entry square of a Splitter Up b7-c7
    whose Y is b7; they combine there, and the ball goes on as a lone ball entering c7 would:
    across the card to the Y (b7), then along the Y's ring (ring 2), never on along ring 3."""
    state = scenario(edition="earlier", balls=["d7", "d7"], cards=[("split-up", "b7", "c7")])
    move_balls(state)
    assert where(state) == ["c7"] and len(state.balls) == 1
    move_balls(state)  # crossing uses a space
    assert where(state) == ["b7"]
    move_balls(state)
    assert where(state) == ["b6"]  # clockwise on ring 2, up the left side


def test_balls_combining_on_the_far_square_go_on_along_its_ring_not_back_across_the_card():
    """Earlier edition, ruling 19, the other shape: Splitter Up b7-c7 with its Y on the entry
    square c7; two balls come along ring 2 onto b7, the far square (for them a dead end), and
    combine there. The ball goes on as a lone ball would, along ring 2: the card never sends a
    ball backwards from its exit to its entry."""
    state = scenario(edition="earlier", balls=["b8", "b8"], cards=[("split-up", "c7", "b7")])
    move_balls(state)
    assert where(state) == ["b7"] and len(state.balls) == 1
    move_balls(state)
    assert where(state) == ["b6"]
