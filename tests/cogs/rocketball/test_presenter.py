"""Rocketball's presenter without Discord: what its card has the drawing worker make ahead."""

from __future__ import annotations

import pytest

from cogs.rocketball.presenter import BEST_MOVES, RocketballAdapter
from host import Match, Step
from host.adapter import PLAY
from render.rocketball import render_round
from render.rocketball import round as round_module
from render.rocketball.from_state import board_view
from rules.rocketball import ENGINE, Action, Roll, apply
from tests.support.work_ahead import idle_at_once

ADAPTER = RocketballAdapter()
NAMES = {"N": "Ann", "S": "Ben"}


@pytest.fixture(autouse=True)
def worker_idle_at_once(monkeypatch):
    """The worker idle at once, with nothing kept from another test."""
    idle_at_once(monkeypatch)
    round_module._kept.clear()
    round_module._rounds.clear()
    yield
    round_module._kept.clear()
    round_module._rounds.clear()


def card_with_a_chip_due(auto: set[int]) -> tuple[Match, Step]:
    state, _ = ENGINE.new_state(7, {})
    before = state
    state, events = apply(state, Roll())
    assert state.phase == "place"
    match = Match(state, ["Ann", "Ben"], "salt", "commitment", auto=auto)
    return match, Step(before, events, state)


def one_click_chips(match: Match, card) -> list[Action]:
    """The chips the card's buttons place in one click, read back as the host reads a click."""
    seat = ("N", "S").index(match.engine.to_move)
    return [
        ENGINE.parse_action(match.engine, seat, button.arg.replace("_", " "))
        for button in card.buttons
        if button.action == PLAY
    ]


def taken_as_drawn_ahead(match: Match, chip: Action) -> None:
    """The click placing `chip` (the bot rolling next) finds its round drawn, and takes it."""
    placed, _ = apply(match.engine, chip)
    after, events = apply(placed, Roll())
    key = round_module._round_key(board_view(placed, NAMES), events, board_view(after, NAMES))
    assert key in round_module._rounds
    render_round(placed, events, after, NAMES)
    assert key not in round_module._rounds  # taken by the click


def test_the_card_s_suggested_chip_has_its_round_drawn_ahead_when_the_bot_rolls_next():
    """The card's "Suggested" button is the click most players make: with the next d4 left
    to the bot, its round is drawn while the players look at the card, and the click that
    places it is answered with that round, nothing drawn (render/rocketball/round.py)."""
    match, step = card_with_a_chip_due(auto={0, 1})
    card = ADAPTER.draw_turn(match, step, game_id=1, final=True)
    label = next(b.label for b in card.buttons if b.label.startswith("Suggested: "))
    suggested = one_click_chips(match, card)[0]
    assert label == f"Suggested: {ENGINE.format_action(suggested)}"
    taken_as_drawn_ahead(match, suggested)


def test_every_chip_the_card_places_in_one_click_has_its_round_drawn_ahead():
    """Besides the suggestion, the card offers the next best chips as buttons of their own:
    each is one click, so each round is drawn ahead, and the click on the second is answered
    with nothing drawn too. A chip placed through the square menus takes two clicks more."""
    match, step = card_with_a_chip_due(auto={0, 1})
    card = ADAPTER.draw_turn(match, step, game_id=1, final=True)
    chips = one_click_chips(match, card)
    assert len(chips) == len(round_module._rounds) == BEST_MOVES
    taken_as_drawn_ahead(match, chips[1])


def test_no_round_is_drawn_ahead_of_a_chip_when_the_next_player_rolls_themselves():
    match, step = card_with_a_chip_due(auto=set())
    ADAPTER.draw_turn(match, step, game_id=1, final=True)
    assert not round_module._rounds
