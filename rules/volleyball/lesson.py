"""Volleyball's lesson (docs/rules/volleyball.md "Learn by playing"): a manager's week in
miniature, from a prepared team: a set's orders (the six, their positions, the concept, the
risk), the set played and read from its report, a training and a transfer.

A lesson is data (data/lessons/volleyball.json), checked when it is loaded like the other
games' lessons (rules/lessons.py): every step is one choice among the options it offers; its
`answer` must be one the engine accepts, its clause (`rule`) a heading of the rules page, and
the report step's answer is what the engine's set, played from the lesson's seed, gives. Any
other option gets the step's hint, and the engine's own reason where the engine refuses it;
nothing changes. The lesson's progress is its step, and everything shown at a step is computed
again from the seed and the answers before it: a set, never a league, so never rated and never
in a league's tables.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from functools import cache
from typing import Any

from rules.lessons import DATA_DIR, LessonError, clauses
from rules.volleyball.market import listing_problems
from rules.volleyball.match import (
    HOME,
    Fatigue,
    MatchResult,
    SetResult,
    can_play,
    play_set,
)
from rules.volleyball.models import Player, Team
from rules.volleyball.orders import (
    Concept,
    MatchOrders,
    PlayerSlot,
    Position,
    SetOrder,
    TransferSale,
    set_order_problems,
)
from rules.volleyball.training import trainable_levels, training_problems

GAME = "volleyball"
KINDS = ("lineup", "positions", "concept", "risk", "play", "report", "training", "transfer")
SET_NUMBER = 1


@dataclass(frozen=True)
class Step:
    kind: str  # one of KINDS
    say: str  # what to do now, and why it matters
    hint: str  # the answer to any other option (nothing changes)
    rule: str  # the clause it teaches: a heading of docs/rules/volleyball.md
    options: dict[str, Any]  # label -> what it means for the engine (the kind says how)
    answer: str  # the label of the option the lesson waits for


@dataclass(frozen=True)
class Lesson:
    title: str
    seed: int
    team: Team
    opponent: Team
    opponent_set: SetOrder
    steps: tuple[Step, ...]
    done: str

    def set_order(self, upto: int) -> SetOrder:
        """The learner's set as the steps before `upto` have made it (answers only)."""
        order = SetOrder()
        for step in self.steps[:upto]:
            order = apply(step, step.answer, order)
        return order

    def played(self) -> SetResult:
        """The set, played from the lesson's seed with the learner's answers: always the same."""
        order = self.set_order(len(self.steps))
        return play_set(
            SET_NUMBER,
            self.team,
            self.opponent,
            order,
            self.opponent_set,
            Fatigue(self.team),
            Fatigue(self.opponent),
            random.Random(self.seed),
        )

    def result(self) -> MatchResult:
        """The played set as a match's result (the engine's: its report and its Why?)."""
        return MatchResult(
            self.team.name,
            self.opponent.name,
            MatchOrders([self.set_order(len(self.steps))]),
            MatchOrders([self.opponent_set]),
            sets=[self.played()],
        )

    def report(self) -> list[str]:
        """The played set as the team's manager reads it on the round's sheet: the score, then
        its own side (concept, risk, totals against the other side's and the scoring chance)."""
        result = self.result()
        played = result.sets[0]
        score = f"{played.home_points}-{played.away_points}"
        own = result.side_summary(HOME, player_detail=False)[1:]  # its first line: the match's
        return [f"Set {SET_NUMBER}: {self.team.name} {score} {self.opponent.name}", *own]

    def report_options(self) -> dict[str, int]:
        """The report step's choices: the learner's scoring chance, the other side's, and the
        chance before the concepts changed it (whole percent, as the report writes them)."""
        played = self.played()
        own, other = played.home, played.away
        base = round(100 * own.ol_total / max(1, own.ol_total + other.dl_total))
        found = {f"{own.chance} %": own.chance, f"{other.chance} %": other.chance}
        found.setdefault(f"{base} %", base)
        return dict(sorted(found.items(), key=lambda item: item[1]))


def apply(step: Step, label: str, order: SetOrder) -> SetOrder:
    """The set after `step`'s option `label` (the set's steps; the others leave it)."""
    value = step.options.get(label)
    if step.kind == "lineup":
        return SetOrder([PlayerSlot(name) for name in value or ()], order.concept, order.risk)
    if step.kind == "positions":
        codes = {str(name).casefold(): Position(code) for name, code in (value or {}).items()}
        slots = [
            PlayerSlot(s.player, codes.get(s.player.casefold(), Position.ALLROUND))
            for s in order.slots
        ]
        return SetOrder(slots, order.concept, order.risk)
    if step.kind == "concept":
        return SetOrder(order.slots, Concept(int(value or Concept.NEUTRAL)), None)
    if step.kind == "risk":
        return SetOrder(order.slots, order.concept, int(value or 0))
    return order


def refusal(lesson: Lesson, index: int, label: str) -> str:
    """Why the engine refuses step `index`'s option `label` (empty: it would take it)."""
    step = lesson.steps[index]
    if step.kind in ("lineup", "positions", "concept", "risk"):
        order = apply(step, label, lesson.set_order(index))
        found = [
            p
            for p in set_order_problems(order, SET_NUMBER)
            if step.kind != "lineup" or "risk" not in p
        ]
        if step.kind in ("lineup", "positions"):  # the concept comes later
            found = [p for p in found if "concept" not in p]
        fatigue = Fatigue(lesson.team)
        for slot in order.slots:
            player = lesson.team.player(slot.player)
            if player is not None and not can_play(player, *fatigue.levels(player.name)):
                found.append(f"{player.name} cannot play: a player needs both levels at least 1.")
        return " ".join(found)
    if step.kind == "training":
        name, ol, dl = step.options[label]
        player = lesson.team.player(name)
        if player is None:
            return f"{lesson.team.name} has no player called {name}."
        return " ".join(training_problems(trainable_levels(player), int(ol), int(dl)))
    if step.kind == "transfer":
        sales = [TransferSale(name, 0) for name in step.options[label]]
        return " ".join(listing_problems(lesson.team, sales, [], 1, 14))
    return ""


def options_of(lesson: Lesson, index: int) -> list[str]:
    """The labels step `index` offers, in order (the report's come from the played set)."""
    step = lesson.steps[index]
    if step.kind == "report":
        return list(lesson.report_options())
    return list(step.options)


def answer_of(lesson: Lesson, index: int) -> str:
    step = lesson.steps[index]
    if step.kind == "report":
        return f"{lesson.played().home.chance} %"
    return step.answer


def problems(lesson: Lesson) -> list[str]:
    """Every step's clause is a heading of the rules page, its answer one of its options and
    one the engine takes; the set's answers make a legal set the engine plays."""
    headings = clauses(GAME)
    found: list[str] = []
    for number, step in enumerate(lesson.steps, 1):
        if step.rule not in headings:
            found.append(f"step {number}: no heading {step.rule!r} on docs/rules/{GAME}.md")
        if step.kind not in KINDS:
            found.append(f"step {number}: no kind {step.kind!r} (one of {', '.join(KINDS)})")
            continue
        if step.kind != "report" and step.answer not in step.options:
            found.append(f"step {number}: its answer {step.answer!r} is none of its options")
            continue
        if step.kind != "report" and (why := refusal(lesson, number - 1, step.answer)):
            found.append(f"step {number} ({step.answer!r}): {why}")
    if not found:
        final = set_order_problems(lesson.set_order(len(lesson.steps)), SET_NUMBER)
        found += [f"the set: {problem}" for problem in final]
    return found


def _team(data: dict[str, Any]) -> Team:
    players = [
        Player(str(name), str(age), int(ol), int(dl), **dict(extra[0] if extra else {}))
        for name, age, ol, dl, *extra in data["players"]
    ]
    return Team(str(data["name"]), players)


def from_data(data: dict[str, Any]) -> Lesson:
    """The lesson from its JSON data; LessonError for a missing or mistyped field."""
    where = f"data/lessons/{GAME}.json"
    try:
        steps = tuple(
            Step(
                str(raw["kind"]),
                str(raw["say"]),
                str(raw["hint"]),
                str(raw["rule"]),
                dict(raw.get("options", {})),
                str(raw.get("answer", "")),
            )
            for raw in data["steps"]
        )
        opponent = data["opponent"]
        return Lesson(
            title=str(data["title"]),
            seed=int(data["seed"]),
            team=_team(data["team"]),
            opponent=_team(opponent),
            opponent_set=SetOrder(
                [PlayerSlot(str(name), Position(int(code))) for name, code in opponent["set"]],
                Concept(int(opponent["concept"])),
                int(opponent["risk"]),
            ),
            steps=steps,
            done=str(data["done"]),
        )
    except (KeyError, TypeError, ValueError) as error:
        raise LessonError(f"{where}: {type(error).__name__}: {error}") from error


@cache
def lesson_script() -> Lesson:
    """Volleyball's lesson, checked once: LessonError when the engine cannot play it as written."""
    path = DATA_DIR / f"{GAME}.json"
    loaded = from_data(json.loads(path.read_text(encoding="utf-8")))
    found = problems(loaded)
    if found:
        raise LessonError(f"data/lessons/{GAME}.json: {'; '.join(found)}")
    return loaded
