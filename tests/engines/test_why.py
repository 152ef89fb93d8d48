"""Why? names rules the page has, and every ruling of the page is named: each explained game's
events (`rules`: "R7" a ruling of docs/rules/GAME.md, any other name a topic of that page)
against its rules page, over a seeded corpus of computer matches that plays every variant and
edition, so a ruling no event can name, or a name the page lost, is seen."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from cogs.rocketball.adapter import RULEBOOK as ROCKETBALL_RULES
from cogs.rollerball.cog import RULEBOOK as ROLLERBALL_RULES
from rules.face import engine_for
from rules.rocketball.events import Step
from rules.rocketball.state import Settings
from ui.rulebook import Rulebook

MOST_MOVES = 3000
SEEDS_EACH = 2


def rocketball_matches() -> Iterator[tuple[int, Mapping[str, Any], str]]:
    """Each variant with the others it combines with (Tug-of-War and Assault! don't mix), and
    enough matches that the rarest event of each (a ball in its own goal) happens."""
    corpus = (
        ((), 4),
        (("bumpers", "twisters", "gusts", "barricades", "moguls", "djinns", "drifting_winds"), 6),
        (("tug_of_war", "bumpers", "moguls"), 4),
        (("assault", "gusts", "djinns"), 16),
    )
    for number, (variants, matches) in enumerate(corpus):
        settings = Settings.with_variants(variants, target_score=2, tug_swap_rounds=3)
        for match in range(matches):
            yield 1000 * number + match, {"settings": settings}, "easy"


def rollerball_matches() -> Iterator[tuple[int, Mapping[str, Any], str]]:
    """Both editions at every table size, played by the random computer (fast, and its games
    run to the turn limit), SEEDS_EACH times."""
    seed = 0
    for edition in ("later", "earlier"):
        for players in range(2, 7):
            for _ in range(SEEDS_EACH):
                seed += 1
                yield seed, {"edition": edition, "players": players}, "random"


CORPORA = {
    "rocketball": (ROCKETBALL_RULES, rocketball_matches, 19),
    "rollerball": (ROLLERBALL_RULES, rollerball_matches, 19),
}


def named_in_corpus(game: str) -> Counter[str]:
    engine = engine_for(game)
    _, matches, _ = CORPORA[game]
    named: Counter[str] = Counter()
    for seed, options, level in matches():
        state, events = engine.new_state(seed, options)
        rng = random.Random(seed)
        for _ in range(MOST_MOVES):
            named.update(rule for event in events for rule in rules_of(event))
            if engine.is_over(state):
                break
            seat = min(engine.actors(state))
            action = engine.computer_action(state, seat, level, rng)
            state, events = engine.apply(state, seat, action)
    return named


def rules_of(event: Any) -> tuple[str, ...]:
    return getattr(event, "all_rules", None) or event.rules


@pytest.fixture(scope="module", params=sorted(CORPORA))
def game(request) -> str:
    return request.param


@pytest.fixture(scope="module")
def corpus(game) -> Counter[str]:
    return named_in_corpus(game)


def rulebook(game: str) -> Rulebook:
    return CORPORA[game][0]


def test_every_ruling_on_the_page_is_named_by_an_event(game, corpus):
    rulings = set(rulebook(game).rulings)
    assert len(rulings) == CORPORA[game][2]  # the page's Rulings, R1 to the last
    assert rulings - set(corpus) == set()


def test_every_rule_an_event_names_is_on_the_page(game, corpus):
    book = rulebook(game)
    topics = {topic.name for topic in book.topics}
    unknown = {rule for rule in corpus if rule not in book.rulings and rule not in topics}
    assert unknown == set()


def test_a_bounce_names_the_edge_arrows_and_a_gust_its_ruling():
    assert Step("a5", "N", "bounce", "bounces").rules == ("A turn", "R1")
    assert Step("c5", "E", "gust", "is pushed").rules == ("Variant: Gusts", "R9")
