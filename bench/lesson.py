"""A newcomer's lesson (`/rocketball learn`, docs/rules/rocketball.md "Learn by playing"), played
through the fake Discord with the real bot as a newcomer plays it: by clicks only, the lesson's
move taken by its one-click button when the card offers it (the suggested move), else by its
square and then what to do there (a benchmark, not a test): `python bench/lesson.py`.

Prints the clicks the lesson takes, the bot's answer time per click, and the minutes a person
needs at a human pace (PACE_SECONDS a click, plus reading each step's text at READING_WPM words
a minute), against the goal of a few minutes (GOAL_MINUTES).
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.match_card import line, start_bench, stop_bench, stored
from cogs.rocketball.presenter import RocketballAdapter
from host import Match
from host.adapter import move_arg
from rules.lessons import LEARNER, lesson_of
from rules.rocketball import ENGINE
from rules.rocketball.actions import Roll

PACE_SECONDS = 4.0  # a click, once the player knows what to press
READING_WPM = 200  # reading speed of a step's text on a phone
GOAL_MINUTES = 5.0  # "a few minutes"
GOAL_CLICKS = 20


async def play(bench) -> tuple[int, list[float]]:
    discord = bench.discord
    lesson = lesson_of("rocketball")
    assert lesson is not None
    user = discord.add_user("newcomer")
    channel = bench.general
    answers: list[float] = []

    async def timed(call):
        started = time.monotonic()
        reply = await call
        answers.append(time.monotonic() - started)
        return reply

    await timed(discord.slash("rocketball learn", user=user, channel=channel))
    deadline = time.monotonic() + 30
    while not discord.threads(channel):
        if time.monotonic() > deadline:
            raise RuntimeError("the bot opened no thread")
        await asyncio.sleep(0.05)
    thread = discord.threads(channel)[-1]
    game_id = stored(bench.bot, "SELECT MAX(id) FROM games")[0]
    for step in (s for s in lesson.steps if s.seat == LEARNER):
        says = step.say[:40]
        card = await discord.wait_for_message(
            thread, lambda m, says=says: says in m.text, timeout=30, since=0
        )
        state = stored(bench.bot, "SELECT state FROM games WHERE id = ?", game_id)[0]
        match = Match.from_json(RocketballAdapter(), state)
        action = ENGINE.parse_action(match.engine, 0, step.move)
        if isinstance(action, Roll):
            await timed(discord.click(card, "Roll the d4", user=user))
            continue
        suggested = f"Suggested: {ENGINE.format_action(action)}"
        if suggested in card.button_labels:
            await timed(discord.click(card, suggested, user=user))
            continue
        if not card.selects:
            card = await timed(discord.click(card, "Other squares…", user=user))
        square = getattr(action, "square", None) or getattr(action, "from_square", "")
        menu = next(s for s in card.selects if square in [o.value for o in s.options])
        picked = await timed(discord.select(card, menu.custom_id, [square], user=user))
        wanted = move_arg(ENGINE, action)
        button = next(b for b in picked.buttons if (b.custom_id or "").endswith(f":{wanted}"))
        await timed(discord.click(picked, button.custom_id, user=user))
    status = stored(bench.bot, "SELECT status FROM games WHERE id = ?", game_id)[0]
    if status != "finished":
        raise RuntimeError(f"the lesson did not end: {status}")
    return len(answers) - 1, answers  # the /rocketball learn command is no click


def main() -> None:
    lesson = lesson_of("rocketball")
    assert lesson is not None
    bench = start_bench(name="lesson")
    try:
        clicks, answers = asyncio.run(play(bench))
    finally:
        stop_bench(bench)
    words = sum(len((s.say or "").split()) for s in lesson.steps) + len(lesson.done.split())
    minutes = (clicks * PACE_SECONDS) / 60 + words / READING_WPM + sum(answers) / 60
    print(f"Rocketball lesson, {lesson.learner_steps} steps, {words} words to read")
    print(line("clicks to the end of the lesson", clicks, GOAL_CLICKS))
    print(line("bot's answer per click, median", statistics.median(answers) * 1000, 700, " ms"))
    print(line("minutes at a human pace", minutes, GOAL_MINUTES, " min"))


if __name__ == "__main__":
    main()
