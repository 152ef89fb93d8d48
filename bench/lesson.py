"""A newcomer's lessons (`/GAME learn`, docs/rules/*.md "Learn by playing"), each played through
the fake Discord with the real bot as a newcomer plays it: by clicks only (a benchmark, not a
test): `python bench/lesson.py [--games rocketball rollerball rollerball2]`.

- Rocketball: the lesson's move by its one-click button when the card offers it (the suggested
  move), else by its square and then what to do there.
- Rollerball: the card's menus and buttons, and the **My hand** panel for what needs the hand
  (tests/e2e/rollerball_clicks.py, the clicks the e2e tests make).
- Rollerball II: the card's buttons and the Substitute menus.
- Volleyball: the lesson league's real card and orders editor (rules/volleyball/lesson.py: a
  set's orders with the editor's menus, Save orders, the round played, its Why?, then My
  team's training and transfer-list menus), the click
  each step waits for (tests/e2e/volleyball_lesson_clicks.py).

Prints, per lesson, the clicks it takes, the bot's answer time per click, and the minutes a
person needs at a human pace (PACE_SECONDS a click, plus reading each step's text at
READING_WPM words a minute), against the goal of a few minutes (GOAL_MINUTES).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path
from typing import Any, cast

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.match_card import line, start_bench, stop_bench, stored
from cogs.rocketball.presenter import RocketballAdapter
from fakediscord.driver import DiscordDriver
from host import Match
from host.adapter import move_arg
from rules.lessons import LEARNER, lesson_of
from rules.rocketball import ENGINE
from rules.rocketball.actions import Roll
from rules.rollerball import ENGINE as ROLLERBALL
from rules.rollerball import Play
from rules.volleyball import Lesson as VolleyballLesson
from rules.volleyball import lesson_script
from tests.e2e.cards import current_card
from tests.e2e.rollerball_clicks import ClickingTable, stored_match
from tests.e2e.volleyball_lesson_clicks import right_click

PACE_SECONDS = 4.0  # a click, once the player knows what to press
READING_WPM = 200  # reading speed of a step's text on a phone
GOAL_MINUTES = 5.0  # "a few minutes"
GOAL_CLICKS = {"rocketball": 20, "rollerball": 30, "rollerball2": 20, "volleyball": 15}
GAMES = tuple(GOAL_CLICKS)
COMMANDS = {"rollerball2": "rollerball2 match learn"}  # else "GAME learn"


class Timed:
    """The fake Discord's driver, each click and pick timed (the bot's answer to it)."""

    def __init__(self, discord: Any) -> None:
        self.discord = discord
        self.answers: list[float] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.discord, name)

    async def _timed(self, call):
        started = time.monotonic()
        reply = await call
        self.answers.append(time.monotonic() - started)
        return reply

    async def click(self, *args, **kwargs):
        return await self._timed(self.discord.click(*args, **kwargs))

    async def select(self, *args, **kwargs):
        return await self._timed(self.discord.select(*args, **kwargs))


async def start(bench, game: str) -> tuple[Any, Any, int]:
    """The newcomer, the lesson's thread and its match, started by its command (no click)."""
    discord = bench.discord
    user = discord.add_user(f"newcomer-{game}")
    channel = bench.general
    known = len(discord.threads(channel))
    await discord.slash(COMMANDS.get(game, f"{game} learn"), user=user, channel=channel)
    deadline = time.monotonic() + 30
    while len(discord.threads(channel)) <= known:
        if time.monotonic() > deadline:
            raise RuntimeError("the bot opened no thread")
        await asyncio.sleep(0.05)
    game_id = stored(bench.bot, "SELECT MAX(id) FROM games")[0]
    return user, discord.threads(channel)[-1], game_id


def state_of(bench, game_id: int, adapter: Any) -> Match:
    return Match.from_json(
        adapter, stored(bench.bot, "SELECT state FROM games WHERE id = ?", game_id)[0]
    )


async def play_rocketball(bench, discord: Timed) -> None:
    lesson = lesson_of("rocketball")
    assert lesson is not None
    user, thread, game_id = await start(bench, "rocketball")
    for step in (s for s in lesson.steps if s.seat == LEARNER):
        card = await current_card(discord, bench.bot, thread, game_id, timeout=30)
        action = ENGINE.parse_action(
            state_of(bench, game_id, RocketballAdapter()).engine, 0, step.move
        )
        if isinstance(action, Roll):
            await discord.click(card, "Roll the d4", user=user)
            continue
        suggested = f"Suggested: {ENGINE.format_action(action)}"
        if suggested in card.button_labels:
            await discord.click(card, suggested, user=user)
            continue
        if not card.selects:
            card = await discord.click(card, "Other squares…", user=user)
        square = getattr(action, "square", None) or getattr(action, "from_square", "")
        menu = next(s for s in card.selects if square in [o.value for o in s.options])
        picked = await discord.select(card, menu.custom_id, [square], user=user)
        wanted = move_arg(ENGINE, action)
        button = next(b for b in picked.buttons if (b.custom_id or "").endswith(f":{wanted}"))
        await discord.click(picked, button.custom_id, user=user)
    await finished(bench, game_id)


async def play_rollerball(bench, discord: Timed) -> None:
    lesson = lesson_of("rollerball")
    assert lesson is not None
    user, thread, game_id = await start(bench, "rollerball")
    # Timed passes everything but its clicks and picks through to the driver it wraps
    table = ClickingTable(cast(DiscordDriver, discord), bench.bot, thread, game_id, {0: user})
    for step in (s for s in lesson.steps if s.seat == LEARNER):
        match = stored_match(bench.bot, game_id)[2]
        play = ROLLERBALL.parse_action(match.engine, 0, step.move)
        assert isinstance(play, Play)
        await table.play(0, play)
    await finished(bench, game_id)


RB2_LABELS = {"next": "Next card", "until": "Play to next event", "simulate": "Simulate the rest"}


async def play_rollerball2(bench, discord: Timed) -> None:
    lesson = lesson_of("rollerball2")
    assert lesson is not None
    user, thread, game_id = await start(bench, "rollerball2")
    for step in lesson.steps:
        card = await current_card(discord, bench.bot, thread, game_id, timeout=30)
        if step.move.startswith("sub "):
            _, _, slot, number = step.move.split()
            menu = await discord.click(card, "Substitute…", user=user)
            players = await discord.select(menu, "Step 1: the slot", [slot], user=user)
            await discord.select(players, "Step 2: the player", [number], user=user)
            await current_card(discord, bench.bot, thread, game_id, timeout=30)
        elif step.move.startswith("catcher"):
            await discord.click(card, "Roll on his card", user=user)
        else:
            await discord.click(card, RB2_LABELS[step.move], user=user)
    await finished(bench, game_id)


async def play_volleyball(bench, discord: Timed) -> None:
    """The lesson league's card, posted in the channel by the command, and the orders editor it
    opens, clicked through to the lesson's end."""
    lesson = lesson_script()
    user = discord.add_user("newcomer-volleyball")
    await discord.slash("volleyball learn", user=user, channel=bench.general)
    whose = f"<@{user.id}>'s lesson"

    async def card_showing(text: str, since: Any = 0) -> Any:
        return await discord.wait_for_message(
            bench.general, lambda m: text in m.content and whose in m.content, since=since
        )

    editor, since = None, 0
    for index, step in enumerate(lesson.steps):
        card = await card_showing(f"Volleyball lesson {index + 1}/{len(lesson.steps)}", since)
        answer = await right_click(discord, step, card, editor, user)
        editor = answer if step.control == "edit" else editor
        if step.control == "play":  # the card is posted again below the round's results
            since = await discord.wait_for_message(
                bench.general, lambda m: "Lesson Lions" in m.content and whose not in m.content
            )
    await card_showing("Lesson done!")


def reading(game: str) -> tuple[int, int]:
    """A lesson's steps (the learner's) and the words its card asks them to read."""
    script = lesson_script() if game == "volleyball" else lesson_of(game)
    assert script is not None
    words = sum(len(s.say.split()) for s in script.steps) + len(script.done.split())
    own = isinstance(script, VolleyballLesson)  # every step of it is the learner's
    return len(script.steps) if own else script.learner_steps, words


async def finished(bench, game_id: int) -> None:
    deadline = time.monotonic() + 60
    while stored(bench.bot, "SELECT status FROM games WHERE id = ?", game_id)[0] != "finished":
        if time.monotonic() > deadline:
            raise RuntimeError(f"the lesson of match {game_id} did not end")
        await asyncio.sleep(0.05)


PLAYERS = {
    "rocketball": play_rocketball,
    "rollerball": play_rollerball,
    "rollerball2": play_rollerball2,
    "volleyball": play_volleyball,
}


async def run(bench, games: list[str]) -> dict[str, list[float]]:
    found = {}
    for game in games:
        timed = Timed(bench.discord)
        await PLAYERS[game](bench, timed)
        found[game] = timed.answers
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description="A newcomer's lessons, played by clicks")
    parser.add_argument("--games", nargs="+", choices=GAMES, default=list(GAMES))
    games = parser.parse_args().games
    bench = start_bench(name="lesson")
    try:
        figures = asyncio.run(run(bench, games))
    finally:
        stop_bench(bench)
    for game in games:
        steps, words = reading(game)
        answers = figures[game]
        minutes = (len(answers) * PACE_SECONDS) / 60 + words / READING_WPM + sum(answers) / 60
        print(f"{game} lesson, {steps} steps, {words} words to read")
        print(line("  clicks to the end of the lesson", len(answers), GOAL_CLICKS[game]))
        print(
            line("  bot's answer per click, median", statistics.median(answers) * 1000, 700, " ms")
        )
        print(line("  minutes at a human pace", minutes, GOAL_MINUTES, " min"))


if __name__ == "__main__":
    main()
