"""The computer players: legal, blind to what their seat may not see, and sensible (it scores,
keeps its workman safe, blocks other bases); games of computers only finish."""

from __future__ import annotations

import random

from rules.rollerball import (
    Bank,
    BlowUp,
    Build,
    Move,
    PlaceBall,
    PlaceCard,
    Replace,
    Settings,
    Take,
    actors,
    ai,
    apply,
    choose_action,
    legal_actions,
    new_game,
    view_for,
)
from rules.rollerball.geometry import geometry
from rules.rollerball.movement import move_balls
from tests.support.rollerball_helpers import names, scenario, sq


def test_the_computer_picks_the_same_move_whatever_it_cannot_see():
    state, _ = new_game(9, Settings(players=3))
    other = state.clone()
    # swap the hidden parts: another player's hand and the deck order
    other.hands[1], other.deck = (
        other.deck[: len(other.hands[1])],
        other.hands[1] + other.deck[len(other.hands[1]) :],
    )
    other.deck.reverse()
    other.seed = 12345
    assert view_for(state, 0) == view_for(other, 0)
    for level in ("sensible", "random"):
        first = choose_action(view_for(state, 0), random.Random(1), level)
        second = choose_action(view_for(other, 0), random.Random(1), level)
        assert first == second and first in legal_actions(state, 0)


def test_the_sensible_computer_moves_its_workman_out_of_the_balls_way():
    state = scenario(balls=["c1"], workmen=("e1", "e7"))
    state.turn_step = "move"
    action = choose_action(view_for(state, 0), random.Random(2))
    assert isinstance(action, Move)
    assert names([action.end])[0] not in ("d1", "e1", "f1", "g1")


def test_the_sensible_computer_blocks_a_ball_heading_for_another_base():
    state = scenario(
        balls=["b1"], bases=("a9", "i1"), workmen=("g3", "c7"), hands=(["down-move", "down-move"],)
    )
    state.turn_step = "move"
    rng = random.Random(3)
    for _ in range(2):  # its move, then its action
        action = choose_action(view_for(state, 0), rng)
        state, _ = apply(state, action, 0)
    assert state.cards, "it built a card"
    board = state.clone()
    board.workmen = [None, None]
    scored = []
    for _ in range(6):
        scored += move_balls(board).scored
    assert 1 not in scored


def test_the_sensible_computer_places_the_ball_to_run_over_its_own_base():
    state, _ = new_game(4, Settings(players=2))
    rng = random.Random(4)
    while not isinstance(legal_actions(state, min(actors(state)))[0], PlaceBall):
        seat = min(actors(state))
        state, _ = apply(state, choose_action(view_for(state, seat), rng), seat)
    seat = min(actors(state))
    state, _ = apply(state, choose_action(view_for(state, seat), rng), seat)
    board = state.clone()
    board.workmen = [None, None]
    scored = []
    for _ in range(3):
        scored += move_balls(board).scored
    assert seat in scored


def test_the_sensible_computer_banks_an_earned_card():
    state = scenario(balls=["g1"], bases=("a9", "i1"))
    state, _ = apply(state, legal_actions(state, 0)[0], 0)  # pass: Player 2's turn, ball scores
    assert choose_action(view_for(state, 1), random.Random(5)) == Bank()


def test_games_of_computers_only_always_finish():
    for seed, edition in ((1, "later"), (2, "earlier")):
        state, _ = new_game(seed, Settings(edition=edition, players=3, turn_limit=150))
        rng = random.Random(seed)
        while not state.over:
            seat = min(actors(state))
            state, _ = apply(state, choose_action(view_for(state, seat), rng), seat)
        assert state.winners


def test_with_the_deck_empty_the_sensible_computer_takes_a_card_to_bank():
    state = scenario(balls=["g1"], bases=("a9", "i1"), cards=[("energiser", "c5", "c6")])
    state.discard, state.deck = state.deck, []
    state, _ = apply(state, legal_actions(state, 0)[0], 0)
    action = choose_action(view_for(state, 1), random.Random(6))
    assert action == Take(sq("c5"))


# --- the forecast gives the look-ahead's own numbers, only faster ----------------------------


def reference_path(view):
    """Squares the balls stand on or enter over the horizon, and the next square of each."""
    sim = ai._sim_state(view)
    squares = {b.square for b in sim.balls}
    for _ in range(ai.horizon(view)):
        for frame in move_balls(sim).frames:
            squares.update(f.square for f in frame)
    board = geometry(view.settings.board)
    return squares | {board.next_on_ring(s) for s in squares}


def reference_first_visits(view):
    sim = ai._sim_state(view)
    sim.workmen = [None] * len(sim.workmen)
    visits = {}
    for turn in range(ai.horizon(view)):
        for frame in move_balls(sim).frames[1:]:
            for ball in frame:
                if not ball.state.startswith("up"):
                    visits.setdefault(ball.square, turn)
    return visits


def test_the_forecast_values_every_candidate_exactly_as_a_full_look_ahead_does():
    """The computer values a card by playing the coming turns again only from the first turn a
    ball meets it (ai.Forecast); over seeded games of both editions and 2-6 players every
    candidate's value is the same number as ai.value on the board after the action."""
    checked = 0
    for game in range(4):
        edition = ("later", "earlier")[game % 2]
        state, _ = new_game(500 + game, Settings(edition=edition, players=2 + game))
        rng = random.Random(game)
        while not state.over and state.turn_number < 30:
            seat = min(actors(state))
            view = view_for(state, seat)
            actions = legal_actions(view, seat)
            if view.balls and view.phase in ("turn", "cards", "decide"):
                forecast = ai.Forecast(view, seat)
                assert forecast.path == reference_path(view)
                assert forecast.first_visits == reference_first_visits(view)
                assert forecast.value(view.workmen[seat]) == ai.value(view, seat)
                for action in actions:
                    if isinstance(action, (PlaceCard, Build, Replace, BlowUp, Take)):
                        expected = ai.value(ai._after(view, seat, action), seat)
                        assert forecast.value_after(view, action) == expected, action
                        checked += 1
            action = rng.choice(actions) if rng.random() < 0.5 else choose_action(view, rng)
            state, _ = apply(state, action, seat)
    assert checked > 200
