"""Every authored lesson (data/lessons/*.json) plays through its game's engine to the learner's
win, and a lesson an engine can no longer play is refused with the step and the reason."""

from __future__ import annotations

import dataclasses

import pytest

from rules.face import GAMES, engine_for
from rules.lessons import (
    DATA_DIR,
    LEARNER,
    LessonError,
    Step,
    checked,
    clauses,
    lesson_of,
    problems,
)


def test_every_lesson_file_belongs_to_a_game_with_an_engine():
    for path in DATA_DIR.glob("*.json"):
        assert path.stem in GAMES, path


@pytest.mark.parametrize("game", sorted(path.stem for path in DATA_DIR.glob("*.json")))
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
