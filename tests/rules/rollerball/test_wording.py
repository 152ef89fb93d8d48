"""What players read from the engine: articles, plurals, nothing said twice in one turn."""

from __future__ import annotations

import random
import re

import pytest

from rules.rollerball import (
    Bank,
    Build,
    RollerballBoardError,
    Settings,
    actors,
    apply,
    legal_actions,
    new_game,
)
from rules.rollerball.events import BallsMoved
from rules.rollerball.movement import move_balls
from tests.support.rollerball_helpers import scenario, sq

WRONG_ARTICLE = re.compile(
    r"\b[Aa] (Up|Energiser|Up Move)\b|\b[Aa]n (Down|Splitter|Replacer|Rubb|Derub)"
)


def texts_of_random_games(games: int) -> list[str]:
    texts = []
    for seed in range(games):
        edition = "later" if seed % 2 else "earlier"
        state, events = new_game(seed, Settings(edition=edition, players=3, turn_limit=90))
        texts += [event.text for event in events]
        rng = random.Random(seed)
        while not state.over:
            seat = min(actors(state))
            state, events = apply(state, rng.choice(legal_actions(state, seat)), seat)
            texts += [event.text for event in events]
    return texts


def test_articles_and_plurals_read_as_english_in_every_event():
    texts = texts_of_random_games(12)
    assert any("an Up Move" in text or "an Energiser" in text for text in texts)
    for text in texts:
        assert not WRONG_ARTICLE.search(text), text
        assert "(s)" not in text, text


def test_a_refused_placement_uses_the_right_article():
    state = scenario(workmen=("d2", "e5"), hands=(["up-move", "energiser"],))
    with pytest.raises(RollerballBoardError, match="An Up Move lies across"):
        apply(state, Build("up-move", sq("d2"), sq("e2")), 0)
    with pytest.raises(RollerballBoardError, match="An Energiser lies along"):
        apply(state, Build("energiser", sq("d2"), sq("d3")), 0)


def test_banking_says_one_victory_point_or_several():
    state = scenario(balls=["g1"], bases=("a9", "i1"))
    state, _ = apply(state, legal_actions(state, 0)[0], 0)
    state, events = apply(state, Bank(), 1)
    assert "Player 2 banks the card: 1 victory point." in [e.text for e in events]


def test_two_balls_over_one_base_in_one_turn_are_said_once_with_the_count():
    # two balls pass Player 2's base on i1 in one turn: each earns a card, said once
    state = scenario(balls=["g1", "h1"], bases=("a9", "i1"))
    outcome = move_balls(state)
    assert outcome.scored == [1, 1]
    assert outcome.texts == ["Balls run over Player 2's base twice."]


def test_no_turn_repeats_a_sentence_about_a_base_or_a_workman():
    for seed in range(6):
        state, _ = new_game(seed, Settings(players=4, turn_limit=120))
        rng = random.Random(seed)
        while not state.over:
            seat = min(actors(state))
            state, events = apply(state, rng.choice(legal_actions(state, seat)), seat)
            for event in events:
                if isinstance(event, BallsMoved):
                    sentences = [s for s in event.text.split(". ") if "base" in s or "workman" in s]
                    assert len(sentences) == len(set(sentences)), event.text
