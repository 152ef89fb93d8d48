"""Deal, secret bid, open re-bid and the placing of pieces (seed "Setup", "Placing initial
pieces"), and what each seat may see."""

from __future__ import annotations

from typing import Any

import pytest

from rules.rollerball import (
    Bid,
    Pass,
    PlaceBall,
    PlaceBase,
    PlaceCard,
    PlaceWorkman,
    RollerballBoardError,
    Settings,
    actors,
    apply,
    legal_actions,
    new_game,
    next_step,
    view_for,
)
from rules.rollerball.cards import HIDDEN, kind_of
from rules.rollerball.geometry import geometry
from rules.rollerball.record import to_record
from tests.support.rollerball_helpers import conserved, sq


def bid(state, seat, count):
    kinds = tuple(sorted(kind_of(c) for c in state.hands[seat])[:count])
    return apply(state, Bid(kinds), seat)


def test_everyone_gets_five_cards_and_all_bid_at_once():
    state, _events = new_game(3, Settings(players=4))
    assert [len(h) for h in state.hands] == [5, 5, 5, 5] and len(state.deck) == 14
    assert actors(state) == {0, 1, 2, 3} and next_step(state).kind == "bid"
    assert conserved(state) == list(range(34))


def test_a_bid_larger_than_the_hand_is_refused():
    state, _ = new_game(3, Settings(players=2))
    too_many = (*tuple(sorted(kind_of(c) for c in state.hands[0])), "up-move")
    with pytest.raises(RollerballBoardError, match="do not hold"):
        apply(state, Bid(too_many), 0)


def test_bids_stay_secret_until_all_have_bid():
    state, _ = new_game(3, Settings(players=3))
    state, events = bid(state, 0, 2)
    assert [e.text for e in events] == ["Player 1 has bid."]
    other = view_for(state, 1)
    # only that Player 1 has bid: his hand shows the five cards dealt, not the three he kept
    assert other.bids[0] == [] and other.hands[0] == [HIDDEN] * 5
    assert view_for(state, 0).hands[0] == state.hands[0]
    assert "bid" not in to_record(state, salt="c0ffee", reveal=False)
    assert actors(state) == {1, 2}
    with pytest.raises(RollerballBoardError, match="not your turn"):
        bid(state, 0, 1)
    state, _ = bid(state, 1, 1)
    state, events = bid(state, 2, 0)
    assert events[-2].text.startswith("Bids: Player 1 2, Player 2 1, Player 3 0")
    assert state.bid_winner == 0 and next_step(state).kind == "base"
    assert conserved(state) == list(range(34))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_what_others_see_during_the_secret_bid_is_the_same_whatever_the_bid(players):
    """Two tables that differ only in the size of Player 1's bid look byte-identical to every
    other seat and to a spectator until all have bid (their whole view: hands, bids, log)."""
    tables = []
    for count in (0, 3):
        state, _ = new_game(11, Settings(players=players))
        state, _ = bid(state, 0, count)
        tables.append(state)
    for watcher in [None, *range(1, players)]:
        assert view_for(tables[0], watcher).to_json() == view_for(tables[1], watcher).to_json()
    if players > 2:  # a second bid still reveals nothing of the first
        later = [bid(state, 1, 1)[0] for state in tables]
        for watcher in [None, *range(2, players)]:
            assert view_for(later[0], watcher).to_json() == view_for(later[1], watcher).to_json()
    assert view_for(tables[0], 0).to_json() != view_for(tables[1], 0).to_json()


def test_hand_sizes_are_shown_again_once_the_bids_are_revealed():
    state, _ = new_game(11, Settings(players=2))
    state, _ = bid(state, 0, 2)
    state, _ = bid(state, 1, 1)
    view = view_for(state, None)
    assert [len(hand) for hand in view.hands] == [3, 4]
    assert view.bid_totals == [2, 1]


def test_a_tie_goes_to_an_open_rebid_clockwise_from_the_dealer():
    state, _ = new_game(3, Settings(players=3))
    state.dealer = 2
    for seat, count in ((0, 1), (1, 1), (2, 0)):
        state, _ = bid(state, seat, count)
    assert state.phase == "rebid" and state.rebid.order == [0, 1]
    assert actors(state) == {0}
    assert Bid(()) not in legal_actions(state, 0) and Pass() in legal_actions(state, 0)
    state, _ = bid(state, 0, 1)  # raises to 2
    assert actors(state) == {1}
    state, events = apply(state, Pass(), 1)
    assert state.bid_winner == 0 and "wins the bid" in events[-1].text


def test_a_tied_bidder_left_alone_in_the_rebid_wins_it():
    # Ruling 4: passing drops you out; the last tied bidder still in wins, even without a
    # raise. The least bidder (seat 2, one card) wins only when the drawing players have bid
    # all their cards (seed "Setup"), which is not the case here.
    state, _ = new_game(3, Settings(players=3))
    state.dealer = 0
    for seat, count in ((0, 2), (1, 2), (2, 1)):
        state, _ = bid(state, seat, count)
    assert state.rebid.order == [1, 0] and state.hands[0] and state.hands[1]
    state, events = apply(state, Pass(), 1)
    assert state.bid_winner == 0 and next_step(state).kind == "base"
    assert "Player 1 wins the bid" in events[-1].text


def test_a_raise_must_be_beaten_or_the_raiser_wins():
    state, _ = new_game(3, Settings(players=2))
    state.dealer = 1
    state, _ = bid(state, 0, 1)
    state, _ = bid(state, 1, 1)
    state, _ = bid(state, 0, 1)  # raises to 2
    state, _ = bid(state, 1, 2)  # raises to 3
    state, _ = apply(state, Pass(), 0)
    assert state.bid_winner == 1 and state.bid_totals == [2, 3]


def test_when_the_drawing_players_bid_all_their_cards_the_least_bidder_wins_at_once():
    state, _ = new_game(3, Settings(players=3))
    state.dealer = 0
    for seat, count in ((0, 5), (1, 5), (2, 1)):
        state, events = bid(state, seat, count)
    assert state.rebid is None and state.bid_winner == 2 and next_step(state).kind == "base"
    assert any("bid all their cards" in e.text and "least bidder" in e.text for e in events)


def test_least_bidder_ties_go_to_the_seat_closest_clockwise_to_the_dealer():
    state, _ = new_game(3, Settings(players=4))
    state.dealer = 3
    for seat, count in ((0, 5), (1, 2), (2, 5), (3, 2)):
        state, _ = bid(state, seat, count)
    assert state.bid_winner == 1  # seats 1 and 3 bid least; clockwise from the dealer: 0, 1, ...
    state, _ = new_game(3, Settings(players=2))
    state.dealer = 1
    state, _ = bid(state, 0, 5)
    state, _ = bid(state, 1, 5)
    assert state.bid_winner == 0  # seat 0 is on the dealer's left


def placed_to_bases(edition: str, players: int = 2):
    state, _ = new_game(5, Settings(edition=edition, players=players))
    for seat in range(players):
        state, _ = bid(state, seat, 1 if seat == 0 else 0)
    return state


def test_later_edition_bases_only_on_corners_and_never_the_inner_ring():
    state = placed_to_bases("later")
    board = geometry(9)
    squares = {a.square for a in legal_actions(state, 0)}
    assert all(board.is_corner(s) and board.ring(s) < 4 for s in squares) and len(squares) == 12
    with pytest.raises(RollerballBoardError, match="corner"):
        apply(state, PlaceBase(sq("e1")), 0)
    with pytest.raises(RollerballBoardError, match="corner"):
        apply(state, PlaceBase(sq("d4")), 0)  # corner of the inner ring


def test_earlier_edition_bases_anywhere_but_the_inner_two_rings():
    state = placed_to_bases("earlier")
    board = geometry(9)
    squares = {a.square for a in legal_actions(state, 0)}
    assert sq("e1") in squares and sq("c3") not in squares
    assert {board.ring(s) for s in squares} == {1, 2}


def test_placing_runs_clockwise_from_the_winner_then_the_card_round_until_all_pass():
    state = placed_to_bases("later", players=3)
    assert state.bid_winner == 0
    for seat, name in ((0, "a1"), (1, "i1"), (2, "i9")):
        assert actors(state) == {seat}
        state, _ = apply(state, PlaceBase(sq(name)), seat)
    for seat, name in ((0, "e5"), (1, "e6"), (2, "e7")):
        state, _ = apply(state, PlaceWorkman(sq(name)), seat)
    assert next_step(state).kind == "ball" and actors(state) == {0}
    with pytest.raises(RollerballBoardError, match="ball goes"):
        apply(state, PlaceBall(sq("a1")), 0)  # a base
    state, _ = apply(state, PlaceBall(sq("c1")), 0)
    assert next_step(state).kind == "card"
    placements = [a for a in legal_actions(state, 0) if isinstance(a, PlaceCard)]
    board = geometry(9)
    for action in placements:
        assert not board.is_corner(action.first) and not board.is_corner(action.second)
        assert sq("c1") not in (action.first, action.second)
    with pytest.raises(RollerballBoardError):
        apply(state, PlaceCard("energiser", sq("e5"), sq("e6")), 0)
    for seat in (0, 1, 2):
        state, _ = apply(state, Pass(), seat)
    assert next_step(state).kind == "move" and actors(state) == {0}


def test_a_spectator_sees_no_hand_no_deck_and_no_seed():
    state, _ = new_game(12345, Settings(players=3))
    view = view_for(state, None)
    assert view.seed is None and view.rng_counter == 0
    assert all(set(hand) == {HIDDEN} for hand in view.hands)
    assert set(view.deck) == {HIDDEN} and "12345" not in view.to_json()
    own = view_for(state, 1)
    assert own.hands[1] == state.hands[1] and set(own.hands[0]) == {HIDDEN}
    with pytest.raises(RollerballBoardError, match="view"):
        apply(own, Bid(()), 1)


def test_settings_refuse_what_the_game_does_not_offer():
    refused: list[dict[str, Any]] = [
        {"players": 7},
        {"players": 1},
        {"players": 4, "board": 11},
        {"edition": "x"},
    ]
    for bad in refused:
        with pytest.raises(RollerballBoardError):
            Settings(**bad)
    assert Settings(players=5, board=11).board == 11


def test_the_turn_limit_is_twice_as_long_in_the_earlier_edition():
    assert Settings().turn_limit == 400 and Settings(edition="earlier").turn_limit == 800
    assert Settings(turn_limit=50).turn_limit == 50
