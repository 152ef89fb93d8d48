"""Why? names rules the page has, and every ruling of the page is named: the engine's events
(rules/rocketball/events.py) against docs/rules/rocketball.md's Rulings table and topics, over a
seeded corpus of computer matches that plays every variant."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from cogs.rocketball.adapter import RULEBOOK
from rules.rocketball import ENGINE
from rules.rocketball.state import Settings

# Each variant with the others it combines with (Tug-of-War and Assault! don't mix), and how
# many matches: enough that the rarest event of each (a ball in its own goal) happens.
CORPUS = (
    ((), 4),
    (("bumpers", "twisters", "gusts", "barricades", "moguls", "djinns", "drifting_winds"), 6),
    (("tug_of_war", "bumpers", "moguls"), 4),
    (("assault", "gusts", "djinns"), 16),
)
MOST_MOVES = 400


def named_in_corpus() -> Counter[str]:
    named: Counter[str] = Counter()
    for number, (variants, matches) in enumerate(CORPUS):
        for match in range(matches):
            seed = 1000 * number + match
            settings = Settings.with_variants(variants, target_score=2, tug_swap_rounds=3)
            state, events = ENGINE.new_state(seed, {"settings": settings})
            rng = random.Random(seed)
            for _ in range(MOST_MOVES):
                named.update(rule for event in events for rule in event.all_rules)
                if ENGINE.is_over(state):
                    break
                (seat,) = ENGINE.actors(state)
                action = ENGINE.computer_action(state, seat, "easy", rng)
                state, events = ENGINE.apply(state, seat, action)
            named.update(rule for event in events for rule in event.all_rules)
    return named


@pytest.fixture(scope="module")
def corpus() -> Counter[str]:
    return named_in_corpus()


def test_every_ruling_on_the_page_is_named_by_an_event(corpus):
    rulings = set(RULEBOOK.rulings)
    assert len(rulings) == 19  # the page's Rulings table, R1 to R19
    assert rulings - set(corpus) == set()


def test_every_rule_an_event_names_is_on_the_page(corpus):
    topics = {topic.name for topic in RULEBOOK.topics}
    unknown = {rule for rule in corpus if rule not in RULEBOOK.rulings and rule not in topics}
    assert unknown == set()


def test_a_bounce_names_the_edge_arrows_and_a_gust_its_ruling():
    from rules.rocketball.events import Step

    assert Step("a5", "N", "bounce", "bounces").rules == ("A turn", "R1")
    assert Step("c5", "E", "gust", "is pushed").rules == ("Variant: Gusts", "R9")
