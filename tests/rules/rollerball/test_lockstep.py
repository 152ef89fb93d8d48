"""Balls move in lockstep and a ball changer's change belongs to the card itself
(docs/rules/rollerball.md "Ball movement", rulings 15-17).

Found by an independent model of both editions: a remembered change was applied after its
card had gone, and two balls arriving together were resolved one after the other in ball-number
order, so swapping the numbers changed the game."""

from __future__ import annotations

import random

import pytest

from rules.rollerball import Bank, Replace, Take, apply
from rules.rollerball.cards import SPLITTERS, TRACK_CHANGERS, kind_of
from rules.rollerball.geometry import card_pairs
from rules.rollerball.movement import move_balls
from rules.rollerball.placement import SETUP, placement_problem
from rules.rollerball.state import Ball, BoardCard, Decision
from tests.support.rollerball_helpers import conserved, names, scenario, sq

# --- a ball changer changes a ball only while the card is still in place -------------------


def test_a_ball_changer_smashed_while_a_ball_is_on_it_changes_nothing_later():
    # Later edition: X (ball 1) on b1, energised E (ball 2) on a1, an Energiser on c1-d1.
    # Turn 1: X enters c1 (meets the Energiser) and d1; E enters b1 and c1 and smashes it.
    state = scenario(balls=["b1", ("a1", {"energised": True})], cards=[("energiser", "c1", "d1")])
    first = move_balls(state)
    assert state.cards == [] and len(first.smashed) == 1
    assert names([state.balls[0].square]) == ["d1"]
    second = move_balls(state)  # X steps off to e1: the card that would change it is gone
    x = next(ball for ball in state.balls if ball.id == 1)
    assert not x.energised, second.texts
    assert not any("leaves" in text for text in second.texts)


def test_a_ball_changer_taken_by_a_scorer_from_under_a_ball_changes_nothing_later():
    state = scenario(balls=["c1"], cards=[("rubberiser", "d1", "e1")], bases=("a9", "i1"))
    move_balls(state)  # d1 meets the Rubberiser, e1 still on it
    assert names([state.balls[0].square]) == ["e1"] and state.balls[0].change == "rubberiser"
    state.discard, state.deck = state.deck, []
    state.phase, state.pending = "decide", [Decision(1, "take")]
    state, _ = apply(state, Take(sq("d1")), 1)
    state, _ = apply(state, Bank(), 1)
    assert state.cards == [] and conserved(state) == list(range(34))
    outcome = move_balls(state)
    assert state.balls[0].rubber is None, outcome.texts


def test_a_ball_changer_replaced_under_an_up_rubber_ball_changes_nothing_later():
    # The rubber ball enters d1 Down (meets the Energiser), then e1 Up; the workman on the card
    # may replace it because the ball on it shows Up Rubber (later edition).
    state = scenario(
        balls=[("c1", {"rubber": "up"})],
        cards=[("energiser", "d1", "e1")],
        workmen=("e2", "e5"),
        hands=(["replacer", "up-move"],),
    )
    move_balls(state)
    ball = state.balls[0]
    assert names([ball.square]) == ["e1"] and ball.up and ball.change == "energiser"
    state.workmen[0] = sq("d1")
    state, events = apply(state, Replace("up-move", sq("d1"), sq("d2")), 0)
    # Player 1's turn ends; Player 2's starts with the balls moving: e1 -> f1 -> g1
    assert [c.kind for c in state.cards] == ["up-move"]
    assert names([state.balls[0].square]) == ["g1"]
    assert not state.balls[0].energised, [e.text for e in events]


def test_a_reused_card_id_elsewhere_does_not_revive_a_change():
    # The card the ball met is gone (blown up under the Up ball); the same card, reshuffled
    # and drawn, is built somewhere else: it is another card on the board, not the one the
    # ball met.
    state = scenario(balls=[("c1", {"rubber": "up"})], cards=[("energiser", "d1", "e1")])
    move_balls(state)
    ball = state.balls[0]
    assert ball.change == "energiser"
    card = state.cards[0]
    state.cards = [BoardCard(card.card, card.kind, (sq("c5"), sq("c6")))]
    outcome = move_balls(state)
    assert not state.balls[0].energised, outcome.texts


def test_a_ball_changer_still_in_place_changes_the_ball_as_before():
    state = scenario(balls=["b1"], cards=[("energiser", "c1", "d1")])
    move_balls(state)
    outcome = move_balls(state)
    assert state.balls[0].energised
    assert "A ball leaves an Energiser on e1: it is now energised." in outcome.texts


# --- arrivals on one space are resolved together ---------------------------------------------


def swapped(state):
    """The same position with the balls' numbers reversed."""
    other = state.clone()
    count = len(other.balls)
    other.balls = sorted(
        (Ball(count + 1 - b.id, b.square, b.energised, b.rubber, b.cross_to) for b in other.balls),
        key=lambda b: b.id,
    )
    return other


def result(state, turns: int = 1):
    """What a player sees of the balls after `turns` moves: where they are and in what state,
    the cards left, the bases passed and the workmen hit (the numbers aside)."""
    scored, hits = [], []
    for _ in range(turns):
        outcome = move_balls(state)
        scored += outcome.scored
        hits += outcome.hits
    balls = sorted((b.square, b.state_name(), b.cross_to or -1) for b in state.balls)
    cards = sorted((c.kind, c.squares) for c in state.cards)
    return balls, cards, sorted(scored), sorted(hits), list(state.workmen)


def test_an_energised_and_a_normal_ball_reaching_a_splitter_together_whatever_their_numbers():
    # Earlier edition: two balls share b1 and both enter the Splitter Down's Y square c1.
    outcomes = []
    for energised in (1, 2):
        balls = [("b1", {"energised": n == energised}) for n in (1, 2)]
        state = scenario(edition="earlier", balls=balls, cards=[("split-down", "c1", "c2")])
        outcomes.append(result(state, turns=2))
    assert outcomes[0] == outcomes[1]
    balls, cards, *_ = outcomes[0]
    # the energised ball smashes the splitter as both arrive: nothing splits, both go on
    assert cards == [] and len(balls) == 2
    assert [(square, how) for square, how, _ in balls] == [(sq("d1"), "normal")] * 2


def test_a_workman_sent_home_is_not_hit_at_home_by_a_ball_arriving_on_the_same_space():
    # ball on f1 hits the workman on g1 (home to i3) while another ball enters i3 on that space
    for order in (["f1", "i2"], ["i2", "f1"]):
        state = scenario(balls=order, workmen=("e5", "g1"), bases=("a9", "i3"))
        outcome = move_balls(state)
        assert outcome.hits == [1], order


def test_two_splits_that_would_pass_the_four_ball_limit_together_split_neither():
    # three balls; two of them enter a splitting Y on the same space: both cannot split
    def position():
        return scenario(
            edition="earlier",
            balls=["c1", "c9", "a5"],
            cards=[("split-down", "d1", "d2"), ("split-down", "b9", "b8")],
        )

    first, second = result(position()), result(swapped(position()))
    assert first == second
    assert len(first[0]) == 3


@pytest.mark.parametrize("edition", ["earlier", "later"])
def test_swapping_ball_numbers_never_changes_what_happens(edition):
    """On random boards with two to four balls, reversing the balls' numbers gives the same
    balls, cards, scores and hits over four turns. The one place a number decides is ruling 2
    (two balls reaching a square on the same space: the lower number is pushed), so later
    edition positions where a push happens are left out."""
    rng = random.Random(20)
    kinds = ["up-move", "down-move", "split-up", "split-down"]
    kinds += ["energiser", "rubberiser", "derubberiser"]
    compared = 0
    for _ in range(300):
        state = scenario(edition=edition, players=3, bases=("a1", "e1", "i9"))
        state.workmen = [sq("c1"), sq("g3"), sq("b2")]
        deck = list(state.deck)
        for _ in range(8):
            kind = rng.choice(kinds)
            a, b = rng.choice(card_pairs(9, kind in TRACK_CHANGERS))
            spare = [c for c in deck if kind_of(c) == kind]
            if spare and placement_problem(state, 0, kind, a, b, SETUP) is None:
                deck.remove(spare[0])
                y = a if kind in SPLITTERS else None
                low, high = sorted((a, b))
                state.cards.append(BoardCard(spare[0], kind, (low, high), y))
        squares = [sq(name) for name in ("b1", "c1", "d2", "c2", "b2", "c3")]
        count = rng.randint(2, 4)
        for number in range(1, count + 1):
            rubber = rng.choice([None, None, "up", "down"])
            energised = rng.random() < 0.4
            state.balls.append(Ball(number, rng.choice(squares), energised, rubber))
        state.next_ball = count + 1
        trial = state.clone()
        texts = [text for _ in range(4) for text in move_balls(trial).texts]
        if any("pushed" in text for text in texts):
            continue
        compared += 1
        assert result(state.clone(), turns=4) == result(swapped(state), turns=4)
    assert compared >= 150
