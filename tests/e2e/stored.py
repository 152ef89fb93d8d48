"""Reading what the bot under test stored, and waiting for what it does on its own (a timer
firing, a change after a command was answered), for the e2e tests that make time pass by moving
stored moments back. On PostgreSQL its `sqlite3` reads the bot's database there
(tests/e2e/postgres/conftest.py)."""

from __future__ import annotations

import asyncio
import sqlite3


def sql(bot, query: str, *parameters) -> list[tuple]:
    with sqlite3.connect(bot.database_path) as conn:
        return conn.execute(query, parameters).fetchall()


async def fired(bot, timer_id: int, timeout: float = 10.0) -> None:
    """Wait until the bot has fired the timer (it deletes a timer once its handler returned)."""
    for _ in range(int(timeout / 0.05)):
        if not sql(bot, "SELECT 1 FROM timers WHERE id = ?", timer_id):
            await asyncio.sleep(0.3)  # what the handler sent has reached the fake
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"timer {timer_id} did not fire:\n{bot.log_tail()}")


async def until(check, timeout: float = 10.0) -> None:
    """Wait until `check()` holds (something the bot does after answering a command)."""
    for _ in range(int(timeout / 0.05)):
        if check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the bot did not do it in time")


async def whole_answer(discord, reply) -> str:
    """The reply with every followup the bot sent for it, once the bot is idle: a long
    private answer comes as several messages, and the driver returns at the first."""
    await discord.fake.settle()
    record = discord.fake.interactions[reply.interaction_id]
    later = [discord.message(i).content for i in record.followup_ids]
    return "\n".join([reply.content, *[text for text in later if text not in reply.content]])
