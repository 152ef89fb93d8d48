"""The flow of a turn and each edition difference (later vs earlier edition, "Turns";
docs/rules/rollerball.md, "A turn")."""

from __future__ import annotations

import pytest

from rules.rollerball import (
    Bank,
    BlowUp,
    Build,
    Discard,
    Keep,
    Move,
    Pass,
    Replace,
    RollerballBoardError,
    Take,
    actors,
    apply,
    legal_actions,
    next_step,
)
from rules.rollerball.cards import kind_of
from rules.rollerball.movement import move_balls
from tests.support.rollerball_helpers import conserved, names, scenario, sq


def end_turn(state):
    """Player 1 passes his workman action: Player 2's turn starts (balls move, draws)."""
    return apply(state, Pass(), 0)


def test_later_edition_balls_move_two_spaces_earlier_one():
    for edition, expected in (("later", "e1"), ("earlier", "d1")):
        state = scenario(edition=edition, balls=["c1"])
        state, _ = end_turn(state)
        assert names(b.square for b in state.balls) == [expected]


def test_later_edition_pushes_a_ball_met_at_the_end_of_the_move_earlier_lets_them_share():
    # ball 1 is about to cross d2 -> d1; ball 2 runs along ring 1 from c1
    ball_1 = ("d2", {"cross_to": sq("d1")})
    later = scenario(balls=[ball_1, "c1"], cards=[("up-move", "d2", "d1")])
    outcome = move_balls(later)  # both end on e1: ball 1 (lower number) is pushed to f1
    assert sorted(names(b.square for b in later.balls)) == ["e1", "f1"]
    assert any("pushed" in text for text in outcome.texts)
    earlier = scenario(edition="earlier", balls=[ball_1, "c1"], cards=[("up-move", "d2", "d1")])
    move_balls(earlier)
    assert names(b.square for b in earlier.balls) == ["d1", "d1"]


def test_a_ball_over_a_base_earns_a_card_the_owner_may_bank_as_a_victory_point():
    state = scenario(balls=["g1"], bases=("a9", "i1"))
    state, events = end_turn(state)
    assert next_step(state).kind == "score" and actors(state) == {1}
    assert legal_actions(state, 1) == [Bank(), Keep()]
    state, _ = apply(state, Bank(), 1)
    assert len(state.victory[1]) == 1 and next_step(state).kind == "move"
    assert any("runs over Player 2's base" in e.text for e in events)


def test_a_kept_card_goes_to_hand_even_above_the_hand_limit():
    hand = ["up-move"] * 4
    state = scenario(balls=["g1"], bases=("a9", "i1"), hands=([], hand))
    state, _ = end_turn(state)
    state, _ = apply(state, Keep(), 1)
    assert len(state.hands[1]) == 5  # and no draw: the hand is above 4
    assert conserved(state) == list(range(34))


def test_with_the_deck_empty_the_scorer_may_take_a_card_from_the_board():
    state = scenario(balls=["g1"], bases=("a9", "i1"), cards=[("energiser", "c5", "c6")])
    state.discard, state.deck = state.deck, []
    state, _ = end_turn(state)
    assert next_step(state).kind == "take"
    assert Take(sq("c5")) in legal_actions(state, 1) and Pass() in legal_actions(state, 1)
    state, _ = apply(state, Take(sq("c5")), 1)
    assert state.cards == [] and next_step(state).kind == "score"
    state, _ = apply(state, Bank(), 1)
    assert [kind_of(c) for c in state.victory[1]] == ["energiser"]
    assert conserved(state) == list(range(34))


def test_five_victory_points_win():
    state = scenario(balls=["g1"], bases=("a9", "i1"))
    state.victory[1] = [state.deck.pop() for _ in range(4)]
    state, _ = end_turn(state)
    state, events = apply(state, Bank(), 1)
    assert state.over and state.winners == [1] and actors(state) == frozenset()
    assert "wins" in events[-1].text


def test_later_edition_a_hit_workman_goes_home_and_discards_a_card_of_his_choice():
    state = scenario(balls=["f1"], workmen=("e5", "g1"), hands=([], ["up-move", "replacer"]))
    state, _ = end_turn(state)
    assert names([state.workmen[1]]) == ["i9"]
    assert next_step(state).kind == "discard"
    state, _ = apply(state, Discard("replacer"), 1)
    assert kind_of(state.hands[1][0]) == "up-move" and len(state.hands[1]) == 2  # then drew
    assert [kind_of(c) for c in state.discard] == ["replacer"]


def test_earlier_edition_a_hit_workman_goes_home_without_discarding():
    state = scenario(edition="earlier", balls=["f1"], workmen=("e5", "g1"), hands=([], ["up-move"]))
    state, _ = end_turn(state)
    assert names([state.workmen[1]]) == ["i9"] and state.discard == []
    assert next_step(state).kind == "move"


def test_hand_limits_four_and_five_and_the_earlier_edition_draws_before_the_balls_move():
    for edition, limit in (("later", 4), ("earlier", 5)):
        state = scenario(edition=edition, balls=["c5"], hands=([], ["up-move"] * (limit - 1)))
        state, events = end_turn(state)
        assert len(state.hands[1]) == limit
        texts = [e.text for e in events]
        draw = next(i for i, t in enumerate(texts) if "draws" in t)
        moved = next(i for i, e in enumerate(events) if hasattr(e, "frames"))
        assert (draw < moved) == (edition == "earlier")
    full = scenario(balls=["c5"], hands=([], ["up-move"] * 4))
    full, _ = end_turn(full)
    assert len(full.hands[1]) == 4


def test_an_empty_deck_is_made_from_the_shuffled_discards():
    state = scenario(balls=["c5"])
    state.discard, state.deck = state.deck, []
    state, events = end_turn(state)
    assert any("shuffled" in e.text for e in events) and len(state.hands[1]) == 1


def test_later_edition_workman_moves_orthogonally_earlier_edition_also_diagonally():
    later = scenario(workmen=("e5", "e5"))
    later.turn_step = "move"
    reach = {a.end for a in legal_actions(later, 0)}
    assert sq("f6") in reach and sq("h8") not in reach and sq("e2") in reach
    assert sq("e1") not in reach  # four steps
    earlier = scenario(edition="earlier", workmen=("e5", "e5"))
    earlier.turn_step = "move"
    assert sq("h8") in {a.end for a in legal_actions(earlier, 0)}


def test_a_workman_may_not_enter_a_ball_unless_it_shows_up_rubber():
    state = scenario(balls=["e4"], workmen=("e5", "a1"))
    state.turn_step = "move"
    with pytest.raises(RollerballBoardError, match="never onto or through a ball"):
        apply(state, Move(sq("e5"), sq("e4")), 0)
    state.balls[0].rubber = "up"
    state, _ = apply(state, Move(sq("e5"), sq("e4")), 0)
    assert state.workmen[0] == sq("e4")


def test_build_under_the_workman_with_every_placement_restriction():
    state = scenario(workmen=("d2", "e2"), balls=["c4"], hands=(["up-move", "energiser"],))
    state, _ = apply(state, Build("up-move", sq("d1"), sq("d2")), 0)
    assert [c.kind for c in state.cards] == ["up-move"]
    bad = [
        (Build("up-move", sq("d2"), sq("e2")), "neighbouring rings"),  # one ring
        (Build("energiser", sq("d1"), sq("d2")), "along one ring"),
        (Build("up-move", sq("c1"), sq("c2")), "under your workman"),
    ]
    fresh = scenario(workmen=("d2", "e2"), balls=["c4"], hands=(["up-move", "energiser"],))
    for action, message in bad:
        with pytest.raises(RollerballBoardError, match=message):
            apply(fresh, action, 0)
    other = scenario(workmen=("d2", "d1"), hands=(["up-move"],))
    with pytest.raises(RollerballBoardError, match="another player's workman"):
        apply(other, Build("up-move", sq("d1"), sq("d2")), 0)
    on_ball = scenario(workmen=("d2", "a5"), balls=["d1"], hands=(["up-move"],))
    with pytest.raises(RollerballBoardError, match="has a ball"):
        apply(on_ball, Build("up-move", sq("d1"), sq("d2")), 0)
    on_base = scenario(workmen=("d1", "a5"), bases=("c1", "a9"), hands=(["energiser"],))
    with pytest.raises(RollerballBoardError, match="has a base"):
        apply(on_base, Build("energiser", sq("c1"), sq("d1")), 0)


def test_corners_later_edition_forbids_every_card_earlier_edition_only_ball_changers():
    # b2 is a corner of ring 2
    hand = (["up-move", "energiser"],)
    later = scenario(workmen=("b2", "e5"), hands=hand)
    with pytest.raises(RollerballBoardError, match="corner"):
        apply(later, Build("up-move", sq("b1"), sq("b2")), 0)
    earlier = scenario(edition="earlier", workmen=("b2", "e5"), hands=hand)
    built, _ = apply(earlier, Build("up-move", sq("b1"), sq("b2")), 0)
    assert len(built.cards) == 1
    with pytest.raises(RollerballBoardError, match="No ball changer may cover a corner"):
        apply(earlier, Build("energiser", sq("b2"), sq("c2")), 0)


def test_no_card_on_top_of_another():
    state = scenario(workmen=("d2", "e5"), cards=[("energiser", "c2", "d2")], hands=(["up-move"],))
    with pytest.raises(RollerballBoardError, match="already has a card"):
        apply(state, Build("up-move", sq("d1"), sq("d2")), 0)


def test_blow_up_later_edition_only():
    cards = [("down-move", "d1", "d2")]
    state = scenario(workmen=("d2", "e5"), cards=cards, hands=(["replacer"],))
    state, _ = apply(state, BlowUp("replacer"), 0)
    assert state.cards == [] and state.workmen[0] == state.bases[0]
    assert sorted(kind_of(c) for c in state.discard) == ["down-move", "replacer"]
    earlier = scenario(edition="earlier", workmen=("d2", "e5"), cards=cards, hands=(["replacer"],))
    assert not any(isinstance(a, BlowUp) for a in legal_actions(earlier, 0))
    with pytest.raises(RollerballBoardError, match="no blow-up"):
        apply(earlier, BlowUp("replacer"), 0)


def test_blow_up_not_with_another_workman_or_a_ball_on_the_card_unless_up_rubber():
    cards = [("down-move", "d1", "d2")]
    crowded = scenario(workmen=("d2", "d1"), cards=cards, hands=(["replacer"],))
    with pytest.raises(RollerballBoardError, match="workman"):
        apply(crowded, BlowUp("replacer"), 0)
    ball = scenario(workmen=("d2", "e5"), cards=cards, balls=["d1"], hands=(["replacer"],))
    with pytest.raises(RollerballBoardError, match="ball"):
        apply(ball, BlowUp("replacer"), 0)
    ball.balls[0].rubber = "up"
    assert BlowUp("replacer") in legal_actions(ball, 0)


def test_replacer_swaps_the_card_under_the_workman():
    state = scenario(
        workmen=("d2", "e5"), cards=[("down-move", "d1", "d2")], hands=(["replacer", "up-move"],)
    )
    state, _ = apply(state, Replace("up-move", sq("d1"), sq("d2")), 0)
    assert [c.kind for c in state.cards] == ["up-move"]
    assert sorted(kind_of(c) for c in state.discard) == ["down-move", "replacer"]
    assert state.hands[0] == [] and conserved(state) == list(range(34))


def test_replacer_ball_exception_is_later_edition_only():
    for edition, allowed in (("later", True), ("earlier", False)):
        state = scenario(
            edition=edition,
            workmen=("d2", "e5"),
            cards=[("down-move", "d1", "d2")],
            balls=[("d1", {"rubber": "up"})],
            hands=(["replacer", "up-move"],),
        )
        replace = Replace("up-move", sq("d2"), sq("d3"))
        assert (replace in legal_actions(state, 0)) is allowed


def test_a_replacer_is_never_built_on_the_board():
    state = scenario(workmen=("d2", "e5"), hands=(["replacer"],))
    with pytest.raises(RollerballBoardError, match="never put on the board"):
        apply(state, Build("replacer", sq("d1"), sq("d2")), 0)


def test_acting_out_of_turn_is_refused_and_nothing_changes():
    state = scenario(balls=["c1"])
    before = state.to_json()
    with pytest.raises(RollerballBoardError, match="not your turn"):
        apply(state, Pass(), 1)
    assert state.to_json() == before


def test_apply_never_changes_its_input():
    state = scenario(balls=["g1"], bases=("a9", "i1"))
    before = state.to_json()
    apply(state, Pass(), 0)
    assert state.to_json() == before


def test_a_win_with_more_earned_cards_waiting_loses_no_card():
    # found by the property test: the second earned card vanished when the first one won
    state = scenario(balls=["g1", "h1"], bases=("a9", "i1"))
    state.victory[1] = [state.deck.pop() for _ in range(4)]
    state, _ = end_turn(state)
    assert [d.kind for d in state.pending] == ["score", "score"]
    state, _ = apply(state, Bank(), 1)
    assert state.over and state.pending == []
    assert conserved(state) == list(range(34))


def test_a_move_longer_than_three_squares_is_refused_with_what_is_allowed():
    state = scenario(workmen=("e5", "a1"))
    state.turn_step = "move"
    with pytest.raises(RollerballBoardError, match="up to 3 squares orthogonally"):
        apply(state, Move(sq("e5"), sq("e1")), 0)


def test_the_next_step_in_words():
    from rules.rollerball import describe_next_step

    state = scenario()
    assert describe_next_step(state, {0: "Ann"}) == (
        "Ann: use your workman (build, blow up, replace) or pass."
    )
    state.turn_step = "move"
    assert describe_next_step(state).startswith("Player 1: move your workman")


def test_a_workman_hit_more_times_than_he_has_cards_is_not_asked_for_a_card_he_lacks():
    # found by the benchmark: a third discard was asked of an empty hand (no legal action).
    # His base is i1, where he stands. Space 1: the ball from h1 hits him there; space 2: the
    # ball from g1 hits him there again; then the two balls from f1, both on h1, push: the
    # lower-numbered one is pushed into i1 and hits him a third time (ruling 13).
    state = scenario(
        balls=["h1", "g1", "f1", "f1"],
        workmen=("e5", "i1"),
        bases=("a9", "i1"),
        hands=([], ["up-move", "replacer"]),
    )
    state, _ = end_turn(state)
    assert [d.kind for d in state.pending].count("discard") == 3
    while not (state.phase == "turn" and state.turn_step == "move"):
        seat = min(actors(state))
        actions = legal_actions(state, seat)
        assert actions, f"no legal action in {next_step(state)}"
        state, _ = apply(state, actions[0], seat)
    assert not [c for c in state.hands[1] if kind_of(c) in ("up-move", "replacer")]
    assert conserved(state) == list(range(34))
