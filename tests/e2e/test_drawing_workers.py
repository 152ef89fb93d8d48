"""Turn images drawn in worker processes (RENDER_PROCESSES; docs/operations.md, "Drawing
workers"): the workers start with the first turn to draw, which is drawn in the bot's thread
meanwhile, so no click waits for one to start; a worker that dies (the kernel's out-of-memory
killer, an operator's kill) costs no card: the turn is drawn again and the workers replaced;
and they end with the bot."""

from __future__ import annotations

import asyncio
import os
import signal

import pytest

from bench.figures import Processes
from rules.rocketball.actions import Roll
from tests.e2e.stored import until
from tests.e2e.test_rocketball import current_card, latest_game_id, new_thread, play, resign

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def bot_env() -> dict[str, str]:
    return {"RENDER_PROCESSES": "1", "GAME_SEED": "20261130"}


def children(pid: int) -> list[int]:
    return Processes().children.get(pid, [])


def drawing_workers(bot) -> list[int]:
    """The bot's drawing workers: the children of its fork server (its one child process that
    has children of its own)."""
    return [worker for child in children(bot.process.pid) for worker in children(child)]


async def workers_started(bot, count: int, timeout: float = 30) -> list[int]:
    for _ in range(int(timeout / 0.05)):
        workers = drawing_workers(bot)
        if len(workers) == count:
            return workers
        await asyncio.sleep(0.05)
    raise AssertionError(f"{count} drawing worker(s) expected, found {drawing_workers(bot)}")


async def a_match_with_the_roll_to_press(discord, bot, games, name: str):
    player = discord.add_user(name)
    await discord.slash("settings me", user=player, channel=games, dice="myself")
    known = len(discord.threads(games))
    await discord.slash("rocketball play-computer", user=player, channel=games, level="easy")
    game_id = latest_game_id(bot)
    thread = await new_thread(discord, games, known)
    card = await current_card(discord, bot, thread, game_id)
    assert "Roll the d4" in card.button_labels
    return player, game_id, thread, card


async def test_no_click_waits_for_a_worker_to_start(discord, bot, games):
    # a bot that has drawn nothing has started no process
    assert drawing_workers(bot) == []
    # the first turn to draw (the match's first card) starts the worker, and is drawn in the
    # bot's thread meanwhile; the click that follows finds it up
    player, game_id, thread, card = await a_match_with_the_roll_to_press(discord, bot, games, "ivo")
    (worker,) = await workers_started(bot, 1)
    # the process is there before it has done its first job; the bot says when the pool is up,
    # and only then does a turn go to it (the one before is drawn in the bot's thread)
    await until(lambda: "drawing in 1 worker process(es)" in bot.log_text())
    after = await play(discord, bot, thread, game_id, {"N": player}, Roll(), card)
    assert "rolls d4 =" in after.text
    gif = after.attachments[0].image()
    assert gif.format == "GIF" and gif.n_frames >= 2
    assert drawing_workers(bot) == [worker]  # the same warm worker drew it
    await resign(discord, player, thread)


async def test_a_killed_worker_costs_no_card_and_is_replaced(discord, bot, games):
    player, game_id, thread, card = await a_match_with_the_roll_to_press(discord, bot, games, "uma")
    (worker,) = await workers_started(bot, 1)
    os.kill(worker, signal.SIGKILL)
    await asyncio.sleep(0.2)  # the pool notices its worker gone
    # The roll is saved, then drawn: with the worker gone the card still shows it.
    after = await play(discord, bot, thread, game_id, {"N": player}, Roll(), card)
    assert "rolls d4 =" in after.text
    assert after.attachments[0].image().format == "GIF"
    # a new warm worker stands in for the killed one
    (replacement,) = await workers_started(bot, 1)
    assert replacement != worker
    assert "drawing worker" in bot.log_text()
    assert bot.new_errors() == []
    await resign(discord, player, thread)


async def test_the_workers_end_with_a_bot_killed_outright(bot):
    """A worker waits for jobs on a queue it
    also holds the writing end of, and the fork server lives while a worker does: after a
    SIGKILL of the bot both stayed for good, one set more after every crash."""
    workers = await workers_started(bot, 1)
    (server,) = [child for child in children(bot.process.pid) if children(child)]
    bot.process.kill()
    bot.process.wait(5)
    bot.stop()  # killed on purpose: not a crash of the module's bot
    for _ in range(200):
        if all(Processes().ended(pid) for pid in (*workers, server)):
            break
        await asyncio.sleep(0.05)
    processes = Processes()
    assert [pid for pid in (*workers, server) if not processes.ended(pid)] == []
    await asyncio.to_thread(bot.start)  # for the test below


async def test_ctrl_c_stops_the_bot_and_its_workers_without_a_traceback(discord, bot, games):
    """Last in the module: it stops the module's bot. Ctrl-C in a terminal sends SIGINT to the
    whole foreground process group, the workers too: each printed a KeyboardInterrupt
    traceback under the bot's orderly stop."""
    await a_match_with_the_roll_to_press(discord, bot, games, "kai")
    workers = await workers_started(bot, 1)
    logged = len(bot.log_text())
    os.killpg(bot.process.pid, signal.SIGINT)  # the bot leads its own process group here
    assert bot.process.wait(15) == 0
    bot.stop()
    for _ in range(200):
        if all(Processes().ended(pid) for pid in workers):
            break
        await asyncio.sleep(0.05)
    assert [pid for pid in workers if not Processes().ended(pid)] == []
    after = bot.log_text()[logged:]
    assert "Ballcourt stopped" in after
    assert "Traceback" not in after and "KeyboardInterrupt" not in after
