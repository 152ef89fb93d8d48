"""A lesson on the real live card (rules/lessons.py; docs/rules/*.md "Learn by playing"): the
match is an ordinary match against a tutor seat, from the lesson's seed and options, whose
progress (`Match.lesson`, the script's next step) is saved with every move. The learner's move
must be the script's; any other gets the step's hint and changes nothing. The tutor plays the
script's moves instead of a computer's choice.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord

from host.adapter import GameAdapter, TurnPost
from host.match import Match
from rules.errors import PlayerError
from rules.lessons import LEARNER, TUTOR, Lesson, checked

TUTOR_NAME = "Tutor"
TUTOR_LEVEL = "tutor"  # the computer "level" of a lesson's tutor seat (never a real level)
# What the lesson's end offers: a real match against the computer at the level for a first one
# (a game without that level: its first, the one its tables seat).
NEXT_LEVEL = "medium"
NEXT_LABEL = "Play a real match"
# How the lesson of a game without a match face starts (Volleyball's, run by rounds, is a card
# of its own: cogs/volleyball/lesson.py), registered by its cog: the Learn buttons use it.
STARTERS: dict[str, Callable[[discord.Interaction], Awaitable[None]]] = {}


def real_match(
    adapter: GameAdapter, players: tuple[int, ...], names: list[str]
) -> tuple[list[int], list[str], dict[int, str], dict[str, Any]]:
    """The match the lesson's end offers (its "rematch"): the learner in their seat, the computer
    in the tutor's at the level for a first match, the options the lesson names for it:
    (players, names, computers, options)."""
    levels = tuple(adapter.engine.levels)
    level = NEXT_LEVEL if NEXT_LEVEL in levels or not levels else levels[0]
    script = lesson(adapter)
    options = dict(script.real_options) if script is not None else {}
    if len(players) == 1:  # a lesson of one seat: the real match is the learner's alone too
        return list(players), [names[LEARNER]], {}, options
    return list(players), [names[LEARNER], f"Computer ({level})"], {TUTOR: level}, options


def start() -> dict[str, Any]:
    """A new lesson's progress, saved in its match (`Match.lesson`)."""
    return {"step": 0}


def lesson(adapter: GameAdapter) -> Lesson | None:
    """The game's lesson, played through its engine (checked once, cached by rules.lessons)."""
    return checked(adapter.engine)


def _running(adapter: GameAdapter, match: Match) -> tuple[Lesson, int] | None:
    found = lesson(adapter) if match.lesson is not None else None
    if found is None or match.lesson is None:
        return None
    return found, int(match.lesson.get("step", 0))


def check_move(adapter: GameAdapter, match: Match, seat: int, action: Any) -> None:
    """The learner's move must be the script's next one: any other is answered with the step's
    hint (a PlayerError: nothing changes). Taken, it moves the lesson on a step."""
    running = _running(adapter, match)
    if running is None:
        return
    script, index = running
    step = script.step(index)
    if step is None or step.seat != seat:
        raise PlayerError("The lesson waits for the tutor's move.")
    # The actions themselves are compared: a notation may hide part of a move (a secret bid).
    if action != adapter.engine.parse_action(match.engine, seat, step.move):
        raise PlayerError(step.hint)
    _advance(match, index)


def scripted(adapter: GameAdapter, match: Match, state: Any, seat: int) -> Any | None:
    """What the bot plays for `seat` in a lesson, instead of a computer's choice or a routine
    action: the tutor's next move, or the learner's routine action (a roll they left to the bot)
    when it is the script's; None when the script's next step is not the bot's to play. The
    lesson moves on a step."""
    running = _running(adapter, match)
    if running is None:
        return None
    script, index = running
    step = script.step(index)
    if step is None or step.seat != seat:
        return None
    action = adapter.engine.parse_action(state, seat, step.move)
    if seat not in match.computers:
        routine = adapter.engine.auto_action(state, seat) if seat in match.auto else None
        if routine is None or adapter.engine.format_action(routine) != adapter.engine.format_action(
            action
        ):
            return None
    _advance(match, index)
    return action


def _advance(match: Match, index: int) -> None:
    assert match.lesson is not None
    match.lesson = {**match.lesson, "step": index + 1}


def annotate(adapter: GameAdapter, match: Match, post: TurnPost) -> None:
    """The card of a lesson: what to do now and why above the status, and at the end what the
    lesson showed and the way to a real match."""
    running = _running(adapter, match)
    if running is None:
        return
    script, index = running
    if adapter.engine.is_over(match.engine):
        post.body = f"📘 **Lesson done!** {script.done}\n{post.body}"
        post.rematch = True  # every game's lesson ends with the way to a real match
        return
    step = script.step(index)
    if step is None or step.seat != LEARNER:
        return
    number = script.number(index)
    # the rules page is the game's own command (ui/rulebook.py), beside its match commands
    rule = f"-# 📖 The rules: *{step.rule}* (`/{adapter.game} rules`)"
    post.body = f"📘 **Lesson {number}/{script.learner_steps}:** {step.say}\n{rule}\n{post.body}"
