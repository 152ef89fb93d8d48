"""Lessons: a short guided match from a prepared position, in which each rule is met at the
moment it first matters (docs/rules/*.md "Learn by playing").

A lesson is data (data/lessons/GAME.json), checked when it is loaded: its seed and options make
the position, and its script is every move of the match in order, the learner's (seat 0) and
the tutor's (seat 1; a lesson of one seat, `"seats": 1`, has no tutor: the learner decides
everything, as in a game's solo mode), each in the engine's own notation. A learner's step also says what to do
and why (`say`), what a different move gets (`hint`) and the clause of the game's rules page it
teaches (`rule`: a heading of docs/rules/GAME.md, "Section" or "Section: Subsection").
`problems` plays the whole script through the game's engine and looks each clause up on the
page, so a lesson whose moves an engine change made illegal, that no longer ends in the
learner's win, or whose clause was renamed, is refused before any player meets it.

The dice of a lesson are set (its seed is in the file, so its rolls are the same for everyone):
a lesson is never rated, and its record says so by its seed.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from rules.face import GAMES, Engine

DATA_DIR = Path(__file__).resolve().parents[1] / "data" / "lessons"
RULES_DIR = Path(__file__).resolve().parents[1] / "docs" / "rules"
LEARNER, TUTOR = 0, 1


class LessonError(ValueError):
    """An authored lesson that cannot be played as written: the file, the step and why."""


@dataclass(frozen=True)
class Step:
    seat: int  # LEARNER or TUTOR
    move: str  # the one move this step takes, in the engine's notation
    say: str = ""  # a learner's step: what to do now, and why it matters
    hint: str = ""  # a learner's step: the answer to any other move (nothing changes)
    rule: str = ""  # a learner's step: the clause it teaches, a heading of docs/rules/GAME.md


@dataclass(frozen=True)
class Lesson:
    game: str
    title: str
    seed: int
    options: dict[str, Any]
    steps: tuple[Step, ...]
    done: str  # said when the learner has won the lesson's match (or, alone, finished it)
    seats: int = 2  # 2: the learner and the tutor; 1: the learner alone
    # the options of the real match the lesson's end offers (the game's defaults otherwise)
    real_options: dict[str, Any] = field(default_factory=dict)

    @property
    def learner_steps(self) -> int:
        return sum(step.seat == LEARNER for step in self.steps)

    def step(self, index: int) -> Step | None:
        """The script's step `index` (None: the script is over)."""
        return self.steps[index] if 0 <= index < len(self.steps) else None

    def number(self, index: int) -> int:
        """A learner's step as the card counts it: 1 for the first of theirs."""
        return sum(step.seat == LEARNER for step in self.steps[: index + 1])


def from_data(game: str, data: dict[str, Any]) -> Lesson:
    """A lesson from its JSON data; LessonError for a missing or mistyped field."""
    where = f"data/lessons/{game}.json"
    try:
        steps = []
        for number, raw in enumerate(data["steps"], 1):
            seat = {"learner": LEARNER, "tutor": TUTOR}[raw["who"]]
            step = Step(
                seat,
                str(raw["move"]),
                str(raw.get("say", "")),
                str(raw.get("hint", "")),
                str(raw.get("rule", "")),
            )
            if seat == LEARNER and not (step.say and step.hint and step.rule):
                raise LessonError(
                    f"{where}: step {number}, a learner's step needs say, hint and rule"
                )
            steps.append(step)
        return Lesson(
            game=game,
            title=str(data["title"]),
            seed=int(data["seed"]),
            options=dict(data.get("options", {})),
            steps=tuple(steps),
            done=str(data["done"]),
            real_options=dict(data.get("real_options", {})),
            seats=int(data.get("seats", 2)),
        )
    except (KeyError, TypeError, ValueError) as error:
        if isinstance(error, LessonError):
            raise
        raise LessonError(f"{where}: {type(error).__name__}: {error}") from error


def problems(lesson: Lesson, engine: Engine[Any, Any]) -> list[str]:
    """Play the script through `engine`: each step's seat must be the one acting and its move
    legal there, and the last move must end the match with the learner's win (alone: with the
    match over); each learner's step's clause must be a heading of the game's rules page."""
    headings = clauses(lesson.game)
    for number, step in enumerate(lesson.steps, 1):
        if step.seat >= lesson.seats:
            return [f"step {number}: a lesson of one seat has no tutor"]
        if step.seat == LEARNER and step.rule not in headings:
            return [f"step {number}: no heading {step.rule!r} on docs/rules/{lesson.game}.md"]
    state, _ = engine.new_state(lesson.seed, lesson.options)
    for number, step in enumerate(lesson.steps, 1):
        if engine.is_over(state):
            return [f"step {number}: the match is over before it"]
        if step.seat not in engine.actors(state):
            return [f"step {number}: it is not the {_who(step)}'s turn"]
        try:
            action = engine.parse_action(state, step.seat, step.move)
            state, _ = engine.apply(state, step.seat, action)
        except Exception as error:  # the engine's refusal, as its player would read it
            return [f"step {number} ({step.move!r}): {error}"]
    if not engine.is_over(state):
        return ["the script ends before the match does"]
    if lesson.seats > 1 and engine.outcome(state)[LEARNER] != "win":
        return ["the learner does not win the lesson's match"]
    return []


def clauses(game: str) -> frozenset[str]:
    """The headings of docs/rules/GAME.md a lesson's step may name: each section ("A turn", its
    trailing "(...)" left out) and each subsection under it ("A turn: Scoring")."""
    path = RULES_DIR / f"{game}.md"
    if not path.exists():
        return frozenset()
    found: set[str] = set()
    section = ""
    for line in path.read_text(encoding="utf-8").splitlines():
        level, _, title = line.partition(" ")
        title = re.sub(r"\s*\(.*\)$", "", title.strip())
        if level == "##":
            section = title
            found.add(title)
        elif level == "###" and section:
            found.add(f"{section}: {title}")
    return frozenset(found)


def _who(step: Step) -> str:
    return "learner" if step.seat == LEARNER else "tutor"


def has_lesson(game: str) -> bool:
    """Whether `game` has a lesson: this module's, or (a game without an engine face, run by
    rounds, as Volleyball) its own package's, e.g. rules/volleyball/lesson.py."""
    return (DATA_DIR / f"{game}.json").exists()


@cache
def lesson_of(game: str) -> Lesson | None:
    """The game's lesson as authored (not yet played through an engine: `checked` does that),
    None for a game without one, or whose lesson is its own package's (`has_lesson`)."""
    path = DATA_DIR / f"{game}.json"
    if game not in GAMES or not path.exists():
        return None
    return from_data(game, json.loads(path.read_text(encoding="utf-8")))


def checked(engine: Engine[Any, Any]) -> Lesson | None:
    """The lesson of `engine`'s game, played through it once; LessonError if it cannot be."""
    lesson = lesson_of(engine.name)
    if lesson is not None:
        found = problems(lesson, engine)
        if found:
            raise LessonError(f"data/lessons/{engine.name}.json: {'; '.join(found)}")
    return lesson
