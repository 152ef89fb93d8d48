"""Volleyball's lesson (docs/rules/volleyball.md "Learn by playing"): a manager's first round,
played on a real league (the learner's prepared team and computer teams) with the real league
card and orders editor: a set's orders (its six, their positions, its concept and risk) picked
with the editor's menus and saved, the round played when the lesson says and read from its real
report, and that report's Why?; then, for the next round, a player trained and a player put on
the transfer list with My team's menus.

A lesson is data (data/lessons/volleyball.json), checked when it is loaded like the other
games' lessons (rules/lessons.py): each step names the one real control it waits for
(`control`, one of CONTROLS, in that order), what to do and why (`say`), what any other click
gets (`hint`; nothing changes) and the clause it teaches (`rule`, a heading of the rules page);
the set's steps say what the set must be after the click (`expect`), My team's steps the pick.
`problems` checks that the expected set is one the engine takes (six of the team's players, the
positions' limits, the concept's formation and its risk range), that the engine opens a league
with the team and plays its round, and that it takes the picks as the next round's orders.
`mismatch` is what the bot asks after each click in a lesson: is this the step's control, and
is the set now what the step expects?
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Any

from rules.lessons import DATA_DIR, LessonError, clauses
from rules.volleyball.composed import RoundOutcome, new_league, run_round
from rules.volleyball.lineups import refill_sets, starting_lineup
from rules.volleyball.managers import all_computer_orders
from rules.volleyball.models import Player, SeasonConfig, Team
from rules.volleyball.orders import (
    RISK_RANGES,
    Concept,
    PlayerSlot,
    Position,
    SetOrder,
    VolleyballError,
    set_order_problems,
)
from rules.volleyball.ordertext import submit_orders
from rules.volleyball.rounds import RoundOrders, round_fixtures, team_fixtures
from rules.volleyball.season import LeagueState

GAME = "volleyball"
# The real controls a step may wait for, in the order a round goes: the card's Edit with menus,
# the editor's three menus and its Save orders, the lesson's Play the round, the card's Why?,
# then for the next round My team's menus: a player to train and a player to sell.
CONTROLS = ("edit", "players", "positions", "concept", "save", "play", "why", "train", "sell")
PICK_CONTROLS = ("train", "sell")  # My team's menus: the step expects one pick
SET_CONTROLS = ("players", "positions", "concept")  # the menus that change the set
SET_NUMBER = 1  # the lesson's set: the first set of the team's first match
# The smallest league in which a player offered with round 2's orders can be sold: four teams
# meet home and away in six rounds of one match, and rule 8 allows transfers up to round
# 6 - 3 = 3 (rules/volleyball/market.py `listing_allowed`).
TEAMS = 4
# One league match a round (rules/volleyball/season.py SeasonConfig): the lesson's round is
# that match and the Galaxy Cup's first.
MATCHES_PER_ROUND = 1


@dataclass(frozen=True)
class Step:
    control: str  # one of CONTROLS: the real control the step waits for
    say: str  # what to do now, and why it matters
    hint: str  # the answer to any other click (nothing changes)
    rule: str  # the clause it teaches: a heading of docs/rules/volleyball.md
    # the set's steps: the players, {player: position code}, [concept, risk]; My team's steps:
    # the pick ("Fenna OL": the player and the level to train; "Gijs": the player to sell)
    expect: Any = None


@dataclass(frozen=True)
class Lesson:
    title: str
    seed: int
    team: Team
    steps: tuple[Step, ...]
    done: str

    def step(self, index: int) -> Step | None:
        return self.steps[index] if 0 <= index < len(self.steps) else None

    def league(self, secret: str | None = None) -> LeagueState:
        """The lesson's league, its first season open: the team and a computer team, from the
        lesson's seed (so every learner meets the same opponent)."""
        return new_league(
            [self.team],
            total_teams=TEAMS,
            config=SeasonConfig(matches_per_round=MATCHES_PER_ROUND),
            seed=self.seed,
            secret=secret,
        )

    def expected_set(self, upto: int) -> SetOrder:
        """The set as the set's steps before `upto` expect it."""
        order = SetOrder()
        for step in self.steps[:upto]:
            order = expected(step, order)
        return order


def round_orders(lesson: Lesson, state: LeagueState) -> RoundOrders:
    """The learner's orders as the lesson leaves them: the editor's starting line-up for each
    match of the round (rules/volleyball/lineups.py), the first match's first set the one the
    steps expect, the later sets refilled as the editor refills them."""
    number = state.league.round_number
    fixtures = team_fixtures(round_fixtures(state, number), lesson.team.name)
    matches = []
    for fixture in sorted(fixtures, key=lambda f: f.match_number):
        home = fixture.home == lesson.team.name
        matches.append(
            starting_lineup(
                lesson.team,
                opponent=fixture.away if home else fixture.home,
                home=home,
                match_number=fixture.match_number,
                home_advantage=state.league.config.home_advantage_points(number),
            )
        )
    first, wanted = matches[0].sets[0], lesson.expected_set(len(lesson.steps))
    first.slots, first.concept, first.risk = wanted.slots, wanted.concept, wanted.risk
    refill_sets(lesson.team, matches[0], SET_NUMBER)
    return RoundOrders(team=lesson.team.name, matches=matches)


def play_through(lesson: Lesson) -> RoundOutcome:
    """The lesson's round played through the engine with the learner's orders as the lesson
    leaves them (and the computer's for the others); VolleyballError if the engine refuses
    them, with every problem."""
    state = lesson.league()
    check = submit_orders(
        state, lesson.team.name, orders=round_orders(lesson, state), kinds={"matches"}
    )
    if check.problems:
        raise VolleyballError(check.problems)
    return run_round(state, {**all_computer_orders(state), lesson.team.name: check.orders})


def expected_set_after(lesson: Lesson, index: int) -> SetOrder:
    """The set once step `index` is done as the lesson expects."""
    return lesson.expected_set(index + 1)


def expected(step: Step, order: SetOrder) -> SetOrder:
    """The set after `step` (a set's step) was done as the lesson expects."""
    if step.control == "players":
        return SetOrder([PlayerSlot(str(n)) for n in step.expect], order.concept, order.risk)
    if step.control == "positions":
        codes = {str(name): Position(int(code)) for name, code in dict(step.expect).items()}
        slots = [PlayerSlot(s.player, codes.get(s.player, Position.ALLROUND)) for s in order.slots]
        return SetOrder(slots, order.concept, order.risk)
    if step.control == "concept":
        concept, risk = step.expect
        return SetOrder(order.slots, Concept(int(concept)), int(risk))
    return order


def pick_line(control: str, pick: str) -> str:
    """The order line a pick of My team's menus stands for (cogs/volleyball/components.py
    TEAM_ORDERS words the same lines): TRAIN: PLAYER LEVEL or SELL: PLAYER."""
    return f"{'TRAIN' if control == 'train' else 'SELL'}: {pick}"


def after_round(lesson: Lesson) -> tuple[LeagueState, list[str]]:
    """The lesson's league after its round, and what the engine says to the orders its My
    team steps give for the next round (each pick's line, added as the menus add them)."""
    state = play_through(lesson).state
    lines = [
        pick_line(s.control, str(s.expect)) for s in lesson.steps if s.control in PICK_CONTROLS
    ]
    check = submit_orders(state, lesson.team.name, text="\n".join(lines))
    return state, check.problems


def matches(step: Step, order: SetOrder) -> bool:
    """Whether the set, after a click on `step`'s menu, is what the step expects (only what
    that menu sets is compared: the players, their positions, or the concept and risk)."""
    if step.control == "players":
        return sorted(order.player_names) == sorted(str(n) for n in step.expect)
    if step.control == "positions":
        wanted = {str(name): int(code) for name, code in dict(step.expect).items()}
        given = {s.player: int(s.position) for s in order.slots if s.position != Position.ALLROUND}
        return given == wanted
    if step.control == "concept":
        concept, risk = step.expect
        return (int(order.concept), order.effective_risk) == (int(concept), int(risk))
    return True


def mismatch(
    lesson: Lesson,
    index: int,
    control: str,
    order: SetOrder | None = None,
    pick: str | None = None,
) -> str:
    """What a click on `control` (with the set as it would be after it, for a set's menu, or
    the pick of one of My team's menus) gets at step `index`: empty when it is the step's, else
    the step's hint (nothing changes)."""
    step = lesson.step(index)
    if step is None:
        return "The lesson is done: its buttons below lead to a real league."
    if control != step.control or (order is not None and not matches(step, order)):
        return step.hint
    if pick is not None and pick.casefold() != str(step.expect).casefold():
        return step.hint
    return ""


def problems(lesson: Lesson) -> list[str]:
    """Every step's control is one of CONTROLS, in their order, its clause a heading of the
    rules page; the set the steps expect is one the engine takes; the engine opens the league
    and plays its round with the orders the lesson leaves (`play_through`)."""
    headings = clauses(GAME)
    found: list[str] = []
    order = -1
    for number, step in enumerate(lesson.steps, 1):
        if step.rule not in headings:
            found.append(f"step {number}: no heading {step.rule!r} on docs/rules/{GAME}.md")
        if step.control not in CONTROLS:
            found.append(f"step {number}: no control {step.control!r} ({', '.join(CONTROLS)})")
            continue
        if CONTROLS.index(step.control) <= order:
            found.append(f"step {number}: {step.control!r} comes after what it needs")
        order = CONTROLS.index(step.control)
        if step.control in (*SET_CONTROLS, *PICK_CONTROLS) and step.expect is None:
            found.append(f"step {number}: a menu's step says what it expects")
    if found:
        return found
    for number, step in enumerate(lesson.steps, 1):
        if step.control == "players":
            missing = [n for n in step.expect if lesson.team.player(str(n)) is None]
            if missing:
                found.append(f"step {number}: {lesson.team.name} has no {', '.join(missing)}")
    final = lesson.expected_set(len(lesson.steps))
    found += [f"the set: {problem}" for problem in set_order_problems(final, SET_NUMBER)]
    if final.concept in RISK_RANGES and not any(s.control == "concept" for s in lesson.steps):
        found.append("the set: no step gives its concept")
    if found:
        return found
    try:
        _, refused = after_round(lesson)
    except VolleyballError as error:
        return [f"the round: {error}"]
    found += [f"the next round's orders: {problem}" for problem in refused]
    return found


def _team(data: dict[str, Any]) -> Team:
    players = [
        Player(str(name), str(age), int(ol), int(dl), **dict(extra[0] if extra else {}))
        for name, age, ol, dl, *extra in data["players"]
    ]
    return Team(str(data["name"]), players)


def from_data(data: dict[str, Any]) -> Lesson:
    """The lesson from its JSON data; LessonError for a missing or mistyped field."""
    try:
        steps = tuple(
            Step(
                str(raw["control"]),
                str(raw["say"]),
                str(raw["hint"]),
                str(raw["rule"]),
                raw.get("expect"),
            )
            for raw in data["steps"]
        )
        return Lesson(
            title=str(data["title"]),
            seed=int(data["seed"]),
            team=_team(data["team"]),
            steps=steps,
            done=str(data["done"]),
        )
    except (KeyError, TypeError, ValueError) as error:
        raise LessonError(f"data/lessons/{GAME}.json: {type(error).__name__}: {error}") from error


@cache
def lesson_script() -> Lesson:
    """Volleyball's lesson, checked once: LessonError when the engine cannot play it as written."""
    path = DATA_DIR / f"{GAME}.json"
    loaded = from_data(json.loads(path.read_text(encoding="utf-8")))
    found = problems(loaded)
    if found:
        raise LessonError(f"data/lessons/{GAME}.json: {'; '.join(found)}")
    return loaded
