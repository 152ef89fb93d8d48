"""Reading what the bot under test stored, and waiting for what it does on its own (a timer
firing, a change after a command was answered), for the e2e tests that make time pass by moving
stored moments back. `connect(bot)` opens the bot's database on either backend
(tests/e2e/conftest.py `database_backend`)."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol

from tests.support.postgres_reader import PostgresReader


class Cursor(Protocol):
    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    def __iter__(self) -> Iterator[Any]: ...


class Connection(Protocol):
    """What a test does with the bot's database, as with a sqlite3 connection: `?`
    placeholders, rows by position (and by name with `row_factory = sqlite3.Row`, always on
    PostgreSQL); a `with` block is one transaction, committed at its end."""

    row_factory: Any

    @property
    def total_changes(self) -> int: ...

    def execute(self, sql: str, parameters: Any = ..., /) -> Cursor: ...

    def __enter__(self) -> Connection: ...

    def __exit__(
        self,
        error_type: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
        /,
    ) -> Any: ...


class HasDatabase(Protocol):
    """What names a bot's database: a BotProcess, or a StoredDatabase."""

    @property
    def database_path(self) -> Path: ...

    @property
    def extra_env(self) -> dict[str, str]: ...


@dataclass(frozen=True)
class StoredDatabase:
    """A bot's database without the bot (bench/chaos.py reads its cluster's)."""

    database_path: Path
    extra_env: dict[str, str]


def connect(bot: HasDatabase) -> Connection:
    """The bot's database: its SQLite file, or the PostgreSQL database its DATABASE_URL names
    (tests/support/postgres_reader.py reads it with the same calls)."""
    url = bot.extra_env.get("DATABASE_URL")
    if url:
        return PostgresReader(url).connect(bot.database_path)
    return sqlite3.connect(bot.database_path)


def sql(bot, query: str, *parameters) -> list[tuple]:
    with connect(bot) as conn:
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


FOLLOWUP_GAP = 0.1  # seconds a followup may come after the bot looked idle


async def whole_answer(discord, reply) -> str:
    """The reply with every followup the bot sent for it, once the bot is idle: a long
    private answer comes as several messages, and the driver returns at the first. Idle twice
    with the same followups: on a loaded machine the bot can answer the fake's heartbeat
    between the reply and its first followup (seen: a settle returned in that gap)."""
    record = discord.fake.interactions[reply.interaction_id]
    seen = -1
    while seen != len(record.followup_ids):
        seen = len(record.followup_ids)
        await discord.fake.settle()
        await asyncio.sleep(FOLLOWUP_GAP)
    later = [discord.message(i).content for i in record.followup_ids]
    return "\n".join([reply.content, *[text for text in later if text not in reply.content]])
