"""A test-only extension: `/outage seconds:N` makes the bot's database stop
answering right after the next move's COMMIT was answered, for N seconds: what a PostgreSQL
server restarting (or stalling) between a move's commit and the next statement does, placed
exactly where a chaos run meets it only by chance. `/outage seconds:N shown:True`: right after
the next move's card is shown instead (before its pings, news and the card noted as posted).
Loaded with EXTRA_EXTENSIONS; never shipped.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from db.database import Database, DatabaseUnavailable


class Outage:
    """Wraps one Database object's reads and transactions (its instance attributes)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.armed_seconds: float | None = None
        self.armed_after_shown: float | None = None
        self.until = 0.0
        self._transaction = db.transaction
        self._fetch_one = db.fetch_one
        self._fetch_all = db.fetch_all
        db.transaction = self.transaction
        db.fetch_one = self.fetch_one
        db.fetch_all = self.fetch_all

    async def card_shown(self, posted: Any) -> None:
        """The first of the match host's hooks after a card is shown: a move's card, not the
        match's first, whose hooks may still run after a test has seen it and armed this."""
        if self.armed_after_shown is not None and not posted.first:
            self.until = time.monotonic() + self.armed_after_shown
            self.armed_after_shown = None

    def refuse_while_down(self) -> None:
        if time.monotonic() < self.until:
            raise self.db.unavailable(
                DatabaseUnavailable(f"{self.db.describe()}: the test's outage")
            )

    async def fetch_one(self, sql: str, parameters: Any = ()) -> Any:
        self.refuse_while_down()
        return await self._fetch_one(sql, parameters)

    async def fetch_all(self, sql: str, parameters: Any = ()) -> list[Any]:
        self.refuse_while_down()
        return await self._fetch_all(sql, parameters)

    @asynccontextmanager
    async def transaction(
        self, *, timeout: float | None = None, key: str | None = None
    ) -> AsyncIterator[Any]:
        self.refuse_while_down()
        watched = Watched()
        async with self._transaction(timeout=timeout, key=key) as conn:
            watched.conn = conn
            yield watched
        if watched.move and self.armed_seconds is not None:  # committed, and answered
            self.until = time.monotonic() + self.armed_seconds
            self.armed_seconds = None


class Watched:
    """A transaction's connection that notes whether it stored a move."""

    conn: Any
    move = False

    async def execute(self, sql: str, parameters: Any = ()) -> Any:
        if sql.lstrip().upper().startswith("INSERT INTO GAME_MOVES"):
            self.move = True
        return await self.conn.execute(sql, parameters)

    async def execute_all(self, statements: Any) -> Any:
        if any(s.sql.lstrip().upper().startswith("INSERT INTO GAME_MOVES") for s in statements):
            self.move = True
        return await self.conn.execute_all(statements)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.conn, name)


class OutageCog(commands.Cog):
    def __init__(self, outage: Outage) -> None:
        self.outage = outage

    @app_commands.command(name="outage", description="Test only: the database stops answering")
    async def arm(
        self, interaction: discord.Interaction, seconds: float, shown: bool = False
    ) -> None:
        if shown:
            self.outage.armed_after_shown = seconds
        else:
            self.outage.armed_seconds = seconds
        await interaction.response.send_message("armed", ephemeral=True)


async def setup(bot: Any) -> None:
    outage = Outage(bot.db)
    bot.matches.on_shown.insert(0, outage.card_shown)
    await bot.add_cog(OutageCog(outage))
