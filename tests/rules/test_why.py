"""Why? names rules the page has, and every ruling of the page is named: each explained game's
events (`rules`: "R7" or "D7" a ruling of docs/rules/GAME.md, any other name a topic of that
page) against its rules page, over a seeded corpus of computer matches that plays every variant,
edition and mode, so a ruling no event can name, or a name the page lost, is seen. A page may
list the rulings no match event decides (the host's and a season's) under its "Why?" section:
those are left out, and must be rulings of the page."""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from cogs.rocketball.presenter import RULEBOOK as ROCKETBALL_RULES
from cogs.rollerball.cog import RULEBOOK as ROLLERBALL_RULES
from cogs.rollerball2.cog import RULEBOOK as ROLLERBALL2_RULES
from rules.face import engine_for, rules_named
from rules.rocketball.events import Step
from rules.rocketball.state import Settings
from rules.rollerball2 import default_lineup, generate_roster
from rules.rollerball2.modes import Deadline, HandOver, PlayUntil
from rules.rollerball2.state import roster_to_json
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


def rollerball2_matches() -> Iterator[tuple[int, Mapping[str, Any], str]]:
    """Every mode, the default coach deciding; a saved line-up naming a player no longer on the
    roster (the default replacement plays); and in coaches matches what the Discord side adds
    (SCRIPTS): a "Play to period end", a coach handing over, a season's deadline."""
    home, away = generate_roster(1, "Houston"), generate_roster(2, "Tokyo")
    gone = {**default_lineup(home), "Skater1": 99}  # number 99 is not on the roster
    for seed, mode in enumerate(("solo", "coaches", "simulate", "coaches", "coaches"), 1):
        options = {
            "mode": mode,
            "home": roster_to_json(home),
            "away": roster_to_json(away),
            "home_lineup": gone if seed == 1 else default_lineup(home),
            "away_lineup": default_lineup(away),
            "home_team_id": 1,
            "away_team_id": 2,
        }
        yield seed, options, "default coach"


# What a coaches match of the corpus (by its seed) plays first, as a coach or the season would.
SCRIPTS: dict[str, dict[int, tuple[tuple[int, Any], ...]]] = {
    "rollerball2": {
        2: ((0, PlayUntil("period")),),
        4: ((0, HandOver("home")),),
        5: ((0, Deadline()),),
    }
}

CORPORA = {
    "rocketball": (ROCKETBALL_RULES, rocketball_matches, 19),
    "rollerball": (ROLLERBALL_RULES, rollerball_matches, 19),
    "rollerball2": (ROLLERBALL2_RULES, rollerball2_matches, 15),
}


def named_in_corpus(game: str) -> Counter[str]:
    engine = engine_for(game)
    _, matches, _ = CORPORA[game]
    named: Counter[str] = Counter()
    for seed, options, level in matches():
        state, events = engine.new_state(seed, options)
        script = list(SCRIPTS.get(game, {}).get(seed, ()))
        rng = random.Random(seed)
        for _ in range(MOST_MOVES):
            named.update(rule for event in events for rule in rules_named(event))
            if engine.is_over(state):
                break
            if script:
                seat, action = script.pop(0)
            else:
                seat = min(engine.actors(state))
                action = engine.computer_action(state, seat, level, rng)
            state, events = engine.apply(state, seat, action)
    return named


@pytest.fixture(scope="module", params=sorted(CORPORA))
def game(request) -> str:
    return request.param


@pytest.fixture(scope="module")
def corpus(game) -> Counter[str]:
    return named_in_corpus(game)


def rulebook(game: str) -> Rulebook:
    return CORPORA[game][0]


def not_decided_by_events(game: str) -> set[str]:
    """The rulings the page's "Why?" section lists as decided by no match event."""
    return not_decided_by_events_on(rulebook(game))


def not_decided_by_events_on(book: Rulebook) -> set[str]:
    markdown = book.path.read_text(encoding="utf-8")
    why = re.search(r"^## Why\?\n(.*?)(?=^## |\Z)", markdown, flags=re.M | re.S)
    listed = re.search(r"\*\*Rulings no match event decides:\*\*([^.]*)\.", why[1]) if why else None
    return set(re.findall(r"\b[A-Z]\d+[a-z]?\b", listed[1])) if listed else set()


def test_every_ruling_on_the_page_is_named_by_an_event(game, corpus):
    rulings = set(rulebook(game).rulings)
    assert len(rulings) == CORPORA[game][2]  # the page's rulings, the first to the last
    exempt = not_decided_by_events(game)
    assert exempt <= rulings  # only the page's own rulings can be left to the host
    assert exempt & set(corpus) == set()  # and an event naming one says it is not the host's
    assert rulings - exempt - set(corpus) == set()


def test_rollerball2_leaves_only_the_host_and_season_rulings_to_no_event():
    assert not_decided_by_events("rollerball2") == {
        "D2", "D5", "D6", "D9", "D10", "D11", "D12", "D13", "D14"
    }  # fmt: skip
    assert not_decided_by_events("rocketball") == set()


def test_every_rule_an_event_names_is_on_the_page(game, corpus):
    book = rulebook(game)
    topics = {topic.name for topic in book.topics}
    unknown = {rule for rule in corpus if rule not in book.rulings and rule not in topics}
    assert unknown == set()


def test_a_bounce_names_the_edge_arrows_and_a_gust_its_ruling():
    assert Step("a5", "N", "bounce", "bounces").rules == ("A turn", "R1")
    assert Step("c5", "E", "gust", "is pushed").rules == ("Variant: Gusts", "R9")


# ---- Volleyball: a league run by rounds (no engine face), its rounds' events ----------------


def volleyball_corpus() -> Counter[str]:
    """Seeded leagues of computer teams played for four rounds, one with a managed team of six
    that sends no orders (its NMR line-up fields three sets, ruling 16); and matches of a team of
    six whose fourth set it cannot field (ruling 8) against an Offensive line-up (ruling 2)."""
    from rules.volleyball import (
        Concept,
        PlayerDraft,
        SeasonConfig,
        all_computer_orders,
        create_team,
        new_league,
        run_round,
        starting_lineup,
    )
    from rules.volleyball.match import play_match
    from rules.volleyball.orders import Position
    from rules.volleyball.why import match_events, round_events

    named: Counter[str] = Counter()
    config = SeasonConfig()
    six = create_team(
        "Sixes",
        [
            PlayerDraft(f"Six {name}", age, 8, 8)
            for name, age in zip("ABCDEF", "ABCCDE", strict=True)
        ],
        config,
        manager_id="1",
    )
    for seed in range(SEEDS_EACH):
        state = new_league([six] if seed else [], total_teams=8, seed=seed)
        for _ in range(4):
            outcome = run_round(state, all_computer_orders(state))
            named.update(rule for e in round_events(outcome.report) for rule in e.rules)
            state = outcome.state
    strong = state.league.teams[-1]
    attack = starting_lineup(strong, opponent=six.name)
    for order in attack.sets:
        order.concept, order.risk = Concept.OFFENSIVE, 9
        for slot, position in zip(order.slots, (1, 1, 2, 2), strict=False):
            slot.position = Position(position)
    for seed in range(40):
        result = play_match(six, strong, starting_lineup(six), attack, random.Random(seed))
        named.update(rule for e in match_events(result) for rule in e.rules)
        if len(result.sets) > 3:
            break
    return named


def test_every_volleyball_ruling_is_named_by_a_round_event_or_left_to_none():
    """Every ruling of docs/rules/volleyball.md's Rulings list is named by some event of the
    seeded corpus, or listed on the page's "Why?" section as decided by no match event; and
    every name an event gives is a ruling or a topic of the page."""
    book = Rulebook("volleyball")
    named = volleyball_corpus()
    rulings = set(book.rulings)
    assert len(rulings) == 19  # 1 to 16, and the line-ups' 49 to 51
    exempt = not_decided_by_events_on(book)
    assert exempt == {"R12", "R13", "R14", "R15", "R49", "R50", "R51"}
    assert exempt & set(named) == set()
    assert rulings - exempt - set(named) == set()
    topics = {topic.name for topic in book.topics}
    assert {rule for rule in named if rule not in rulings and rule not in topics} == set()


def test_a_volleyball_round_tells_anyone_only_what_a_spectator_sees():
    """What the public sees of a match is its score by set and who played (docs/rules/
    volleyball.md): a set's public event names no ruling a team's orders bring in (its concept's
    formation R2, positions R3, points R9, home advantage R10, devotion's checks R11); those are
    events of that team's own, one of the match's two teams."""
    from rules.volleyball import all_computer_orders, new_league, run_round
    from rules.volleyball.why import round_events

    own = {"R2", "R3", "R9", "R10", "R11"}
    state = new_league([], total_teams=8, seed=3)
    public: Counter[str] = Counter()
    private: Counter[str] = Counter()
    for _ in range(3):
        outcome = run_round(state, all_computer_orders(state))
        for event in round_events(outcome.report):
            if event.team:
                playing = {name for m in outcome.report.matches for name in (m.home, m.away)}
                assert event.team in playing and event.team in event.text
                private.update(event.rules)
            else:
                public.update(event.rules)
        state = outcome.state
    assert own & set(public) == set()
    assert {"R3", "R9", "R10", "R11"} <= set(private)  # the computers' own (R2: the corpus)
    assert {"R1", "R6", "R4", "R5"} <= set(public)


def test_every_volleyball_ruling_is_worded_with_what_the_bot_does():
    """A Why? words a ruling as its clause and what the bot does: a ruling whose text stops at
    the seed's quote (its page line broken before the " - ", which the rules page in Discord
    reads as a list item of its own) would say nothing of what the bot does."""
    quote_only = re.compile(r'\((?:rule|the)[^"]*"[^"]*"\)\s*')
    bare = sorted(
        rule
        for rule, (_, text) in Rulebook("volleyball").rulings.items()
        if quote_only.fullmatch(text)
    )
    assert bare == []
