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


def test_the_volleyball_lesson_plays_its_round_to_the_end_through_the_engine():
    """The lesson waits for the real controls in a round's order (the card's Edit with menus,
    the editor's three menus and Save orders, Play the round, Why?, then My team's training
    and transfer-list menus for the next round); the right click at each step passes, any other
    control, set or pick gets the step's hint; the orders it leaves are accepted by the engine,
    its round is played to the end, the learner's set as taught, and the next round's training
    and sale are taken."""
    lesson = volleyball_lesson.lesson_script()
    controls = [step.control for step in lesson.steps]
    assert controls == list(volleyball_lesson.CONTROLS)  # a round's orders, its play, its Why?
    for index, step in enumerate(lesson.steps):
        assert step.say and step.hint and step.rule
        after = volleyball_lesson.expected_set_after(lesson, index)
        assert volleyball_lesson.mismatch(lesson, index, step.control, after) == ""
        others = [c for c in volleyball_lesson.CONTROLS if c != step.control]
        assert all(volleyball_lesson.mismatch(lesson, index, c) == step.hint for c in others)
        if step.control in volleyball_lesson.SET_CONTROLS:  # the menu, but not the set taught
            before = lesson.expected_set(index)
            assert volleyball_lesson.mismatch(lesson, index, step.control, before) == step.hint
        if step.control in volleyball_lesson.PICK_CONTROLS:  # My team's menu, another pick
            assert volleyball_lesson.mismatch(lesson, index, step.control, pick=step.expect) == ""
            other = volleyball_lesson.mismatch(lesson, index, step.control, pick="Anna DL")
            assert other == step.hint
    assert volleyball_lesson.mismatch(lesson, len(lesson.steps), "why").startswith("The lesson")
    outcome = volleyball_lesson.play_through(lesson)
    sheet = "\n".join(outcome.sheets[lesson.team.name])
    assert "Set 1: OC risk 9" in sheet and "scoring chance" in sheet
    assert outcome.state.league.round_number == 2  # the round was played
    # the next round's training and sale, as the lesson's My team steps pick them, are
    # orders the engine takes (rule 6's training points earned, rule 8's transfers still open)
    state, refused = volleyball_lesson.after_round(lesson)
    assert refused == [] and state.total_rounds - 3 >= state.league.round_number + 1


def test_a_volleyball_lesson_the_engine_cannot_play_is_named_with_its_reason():
    lesson = volleyball_lesson.lesson_script()
    steps = list(lesson.steps)
    positions = next(i for i, s in enumerate(steps) if s.control == "positions")
    three = {"Kasper Hammer": 1, "Anna": 1, "Bram": 1, "Cees": 2}
    steps[positions] = dataclasses.replace(steps[positions], expect=three)
    found = volleyball_lesson.problems(dataclasses.replace(lesson, steps=tuple(steps)))
    assert found == ["the set: Set 1 has 3 setters; at most two setters may play in a set."]
    steps = list(lesson.steps)
    steps[positions] = dataclasses.replace(steps[positions], rule="Positions")
    found = volleyball_lesson.problems(dataclasses.replace(lesson, steps=tuple(steps)))
    assert found == [f"step {positions + 1}: no heading 'Positions' on docs/rules/volleyball.md"]
    swapped = (lesson.steps[1], lesson.steps[0], *lesson.steps[2:])
    found = volleyball_lesson.problems(dataclasses.replace(lesson, steps=swapped))
    assert found == ["step 2: 'edit' comes after what it needs"]
    steps = list(lesson.steps)
    players = next(i for i, s in enumerate(steps) if s.control == "players")
    steps[players] = dataclasses.replace(steps[players], expect=["Kasper Hammer", "Anna", "Zed"])
    found = volleyball_lesson.problems(dataclasses.replace(lesson, steps=tuple(steps)))
    assert found[0] == f"step {players + 1}: Lesson Lions has no Zed"
    steps = list(lesson.steps)
    train = next(i for i, s in enumerate(steps) if s.control == "train")
    steps[train] = dataclasses.replace(steps[train], expect="Fenna DL")
    found = volleyball_lesson.problems(dataclasses.replace(lesson, steps=tuple(steps)))
    assert found == [
        "the next round's orders: Fenna would have 4/13: the ratio between OL and DL may not "
        "become higher than 3:1."
    ]
