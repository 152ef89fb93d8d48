"""A test-only extension: `/slowdb seconds:N delay:D` makes every read and transaction of the
bot's database wait D seconds first, for the next N seconds: what a queue in front of the
database does to the interactions behind it (a pile-up of cards being drawn, a pool with every
connection taken, a stalled server), placed where a benchmark meets it only by chance. Loaded
with EXTRA_EXTENSIONS; never shipped.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from db.database import Database


class Queue:
    """Wraps one Database object's reads and transactions (its instance attributes)."""

    def __init__(self, db: Database) -> None:
        self.until = 0.0
        self.delay = 0.0
        self._transaction = db.transaction
        self._fetch_one = db.fetch_one
        self._fetch_all = db.fetch_all
        db.transaction = self.transaction
        db.fetch_one = self.fetch_one
        db.fetch_all = self.fetch_all

    async def wait_turn(self) -> None:
        if time.monotonic() < self.until:
            await asyncio.sleep(self.delay)

    async def fetch_one(self, sql: str, parameters: Any = ()) -> Any:
        await self.wait_turn()
        return await self._fetch_one(sql, parameters)

    async def fetch_all(self, sql: str, parameters: Any = ()) -> list[Any]:
        await self.wait_turn()
        return await self._fetch_all(sql, parameters)

    @asynccontextmanager
    async def transaction(
        self, *, timeout: float | None = None, key: str | None = None
    ) -> AsyncIterator[Any]:
        await self.wait_turn()
        async with self._transaction(timeout=timeout, key=key) as conn:
            yield conn


class SlowDatabaseCog(commands.Cog):
    def __init__(self, queue: Queue) -> None:
        self.queue = queue

    @app_commands.command(name="slowdb", description="Test only: the database answers late")
    async def arm(self, interaction: discord.Interaction, seconds: float, delay: float) -> None:
        self.queue.until = time.monotonic() + seconds
        self.queue.delay = delay
        await interaction.response.send_message("armed", ephemeral=True)


async def setup(bot: Any) -> None:
    await bot.add_cog(SlowDatabaseCog(Queue(bot.db)))
