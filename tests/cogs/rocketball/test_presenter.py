"""Rocketball's presenter without Discord: what its card has the drawing worker make ahead."""

from __future__ import annotations

import pytest

from cogs.rocketball.presenter import RocketballAdapter
from host import Match, Step
from render import idle
from render.rocketball import render_round
from render.rocketball import round as round_module
from rules.rocketball import ENGINE, Action, Roll, apply

ADAPTER = RocketballAdapter()


@pytest.fixture(autouse=True)
def idle_at_once(monkeypatch):
    """The worker idle at once, with nothing kept from another test."""
    monkeypatch.setattr(idle, "running", lambda: True)
    monkeypatch.setattr(idle, "later", lambda key, job: job())
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


def suggested_chip(match: Match, card) -> Action:
    label = next(b.label for b in card.buttons if b.label.startswith("Suggested: "))
    seat = ("N", "S").index(match.engine.to_move)
    return ENGINE.parse_action(match.engine, seat, label.removeprefix("Suggested: "))


def test_the_card_s_suggested_chip_has_its_round_drawn_ahead_when_the_bot_rolls_next():
    """The card's "Suggested" button is the click most players make: with the next d4 left
    to the bot, its round is drawn while the players look at the card, and the click that
    places it is answered with that round, nothing drawn (render/rocketball/round.py)."""
    match, step = card_with_a_chip_due(auto={0, 1})
    card = ADAPTER.draw_turn(match, step, game_id=1, final=True)
    assert len(round_module._rounds) == 1
    placed, _ = apply(match.engine, suggested_chip(match, card))
    after, events = apply(placed, Roll())
    names = {"N": "Ann", "S": "Ben"}
    render_round(placed, events, after, names)
    assert not round_module._rounds  # the round drawn ahead was the one taken


def test_no_round_is_drawn_ahead_of_a_chip_when_the_next_player_rolls_themselves():
    match, step = card_with_a_chip_due(auto=set())
    ADAPTER.draw_turn(match, step, game_id=1, final=True)
    assert not round_module._rounds
