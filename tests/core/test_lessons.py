"""Every authored lesson (data/lessons/*.json) plays through its game's engine to the learner's
win, and a lesson an engine can no longer play is refused with the step and the reason."""

from __future__ import annotations

import dataclasses

import pytest

from rules.face import GAMES, engine_for
from rules.lessons import DATA_DIR, LEARNER, LessonError, Step, checked, lesson_of, problems


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
            assert step.say and step.hint


def test_a_step_the_engine_refuses_is_named_with_its_reason():
    lesson = lesson_of("rocketball")
    assert lesson is not None
    engine = engine_for("rocketball")
    broken = list(lesson.steps)
    broken[1] = Step(LEARNER, "d6 S", "Place it.", "Not there.")  # the centre: never a chip
    found = problems(dataclasses.replace(lesson, steps=tuple(broken)), engine)
    assert found and found[0].startswith("step 2 ('d6 S')")


def test_a_lesson_that_ends_early_is_refused():
    lesson = lesson_of("rocketball")
    assert lesson is not None
    short = dataclasses.replace(lesson, steps=lesson.steps[:5])
    assert problems(short, engine_for("rocketball")) == ["the script ends before the match does"]


def test_a_learners_step_without_its_hint_is_refused_at_load():
    from rules.lessons import from_data

    with pytest.raises(LessonError, match="step 1, a learner's step needs say and hint"):
        from_data(
            "rocketball",
            {"title": "t", "seed": 1, "done": "d", "steps": [{"who": "learner", "move": "roll"}]},
        )
