"""Every authored lesson (data/lessons/*.json) plays through its game's engine to the learner's
win, and a lesson an engine can no longer play is refused with the step and the reason."""

from __future__ import annotations

import dataclasses

import pytest

import rules.volleyball.lesson as volleyball_lesson
from rules.face import GAMES, engine_for
from rules.lessons import (
    DATA_DIR,
    LEARNER,
    LessonError,
    Step,
    checked,
    clauses,
    has_lesson,
    lesson_of,
    problems,
)

# A game without an engine face (Volleyball, run by rounds) has a lesson of its own package.
OWN_LESSONS = {"volleyball": volleyball_lesson.lesson_script}


def test_every_lesson_file_belongs_to_a_game_with_an_engine_or_a_lesson_of_its_own():
    for path in DATA_DIR.glob("*.json"):
        assert path.stem in GAMES or path.stem in OWN_LESSONS, path
        assert has_lesson(path.stem)


@pytest.mark.parametrize("game", sorted(p.stem for p in DATA_DIR.glob("*.json") if p.stem in GAMES))
def test_every_authored_lesson_plays_to_the_learners_win(game):
    lesson = checked(engine_for(game))
    assert lesson is not None
    assert lesson.learner_steps >= 5  # a rule a step, a few minutes
    for step in lesson.steps:
        if step.seat == LEARNER:
            assert step.say and step.hint and step.rule


def test_a_step_the_engine_refuses_is_named_with_its_reason():
    lesson = lesson_of("rocketball")
    assert lesson is not None
    engine = engine_for("rocketball")
    broken = list(lesson.steps)
    broken[1] = Step(
        LEARNER, "d6 S", "Place it.", "Not there.", "A turn"
    )  # the centre: never a chip
    found = problems(dataclasses.replace(lesson, steps=tuple(broken)), engine)
    assert found and found[0].startswith("step 2 ('d6 S')")


def test_a_clause_that_is_no_heading_of_the_rules_page_is_refused():
    """Every rule a lesson teaches names its clause on the game's rules page: a renamed heading
    is found before a player is sent to it."""
    lesson = lesson_of("rollerball")
    assert lesson is not None
    steps = list(lesson.steps)
    steps[1] = dataclasses.replace(steps[1], rule="Bidding")
    found = problems(dataclasses.replace(lesson, steps=tuple(steps)), engine_for("rollerball"))
    assert found == ["step 2: no heading 'Bidding' on docs/rules/rollerball.md"]


def test_the_clauses_are_the_pages_headings_and_subheadings():
    headings = clauses("rollerball")
    assert {"Set-up", "A turn", "A turn: Scoring", "The cards: The Y of a splitter"} <= headings
    assert "Rulings" in headings  # "Rulings (where the seeds leave a choice)" without its aside


def test_a_lesson_that_ends_early_is_refused():
    lesson = lesson_of("rocketball")
    assert lesson is not None
    short = dataclasses.replace(lesson, steps=lesson.steps[:5])
    assert problems(short, engine_for("rocketball")) == ["the script ends before the match does"]


def test_a_learners_step_without_its_hint_is_refused_at_load():
    from rules.lessons import from_data

    with pytest.raises(LessonError, match="step 1, a learner's step needs say, hint and rule"):
        from_data(
            "rocketball",
            {"title": "t", "seed": 1, "done": "d", "steps": [{"who": "learner", "move": "roll"}]},
        )


def test_the_volleyball_lesson_plays_to_its_end_through_the_engine():
    """Each step's answer is taken by the engine, every other option is refused by it or
    answered by the step's hint, and the report's answer is the chance the set was played at."""
    lesson = volleyball_lesson.lesson_script()
    assert len(lesson.steps) >= 5
    kinds = [step.kind for step in lesson.steps]
    for kind in (
        "lineup",
        "positions",
        "concept",
        "risk",
        "play",
        "report",
        "training",
        "transfer",
    ):
        assert kind in kinds  # the four: a set's orders, its report, training, a transfer
    refused = 0
    for index, step in enumerate(lesson.steps):
        answer = volleyball_lesson.answer_of(lesson, index)
        options = volleyball_lesson.options_of(lesson, index)
        assert answer in options and step.say and step.hint
        assert volleyball_lesson.refusal(lesson, index, answer) == ""
        refused += sum(bool(volleyball_lesson.refusal(lesson, index, o)) for o in options)
    assert refused >= 5  # the engine's own refusals a wrong try meets (rulings 2, rule 3, 6, 8)
    played = lesson.played()
    report = lesson.report()
    assert f"scoring chance {played.home.chance} %" in "\n".join(report)
    assert volleyball_lesson.answer_of(lesson, kinds.index("report")) == f"{played.home.chance} %"
    assert played.home_points > played.away_points  # the learner's set


def test_a_volleyball_lesson_whose_answer_the_engine_refuses_is_named_with_its_reason():
    lesson = volleyball_lesson.lesson_script()
    steps = list(lesson.steps)
    steps[2] = dataclasses.replace(steps[2], answer="AC")  # five setters/attackers needed
    found = volleyball_lesson.problems(dataclasses.replace(lesson, steps=tuple(steps)))
    assert found and found[0].startswith("step 3 ('AC'): Set 1 plays the Aggressive concept")
    steps[2] = dataclasses.replace(lesson.steps[2], rule="Concepts")
    found = volleyball_lesson.problems(dataclasses.replace(lesson, steps=tuple(steps)))
    assert found == ["step 3: no heading 'Concepts' on docs/rules/volleyball.md"]
