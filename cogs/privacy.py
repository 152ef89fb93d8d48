"""/privacy: what Ballcourt stores about you, and deleting it (Discord's developer policy).

What is shown and deleted comes from every part of the bot that keeps something about users
(`keepers`): the matches, each game's statistics, and /settings (notification settings, the
vacation bank and the vacations taken).

Deleting keeps other players' games whole: your seats, moves and names in them become "Deleted
user", and so do your mentions and names in every text the bot stored (db/forget.py: a move's
events, a league's reports); your own statistics go, and your opponents keep theirs
(docs/privacy.md). While you have an open match the
deletion waits: finish or resign it first, so nobody is left in a match with an empty seat.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import discord
from discord import app_commands
from discord.ext import commands

from cogs import bot_of
from db import forget as forget_store
from db import games as game_store
from db import ratings as ratings_store
from host import DELETED_NAME, DELETED_USER_ID
from host.match import seat_name, without_name
from ui import UserError, display_name, fit
from ui.formats import plural
from ui.items import Control

if TYPE_CHECKING:
    from bot import Ballcourt
    from db.database import Connection, Database


@runtime_checkable
class DataKeeper(Protocol):
    """Something that stores data about users in its own tables: each game's adapter (the
    match host's), and any cog with both methods (a league that is not a turn-based match)."""

    async def describe_user(self, db: Database, user_id: int) -> list[str]:
        """What it keeps about `user_id`, one line each (empty: nothing)."""
        ...

    async def forget_user(self, conn: Connection, user_id: int, anonymous: int) -> None:
        """Delete what it keeps about `user_id`, in the deletion's transaction; where others'
        games need a name, `anonymous` stands in."""
        ...


@runtime_checkable
class UserReleaser(Protocol):
    """A keeper that lets go of the user first, with its own locked saves, before the
    deletion's transaction (a league gives the user's teams to the computer)."""

    async def release_user(self, user_id: int) -> None: ...


class DeleteButton(Control[discord.ui.Button], template=r"privacy:delete:(?P<user>\d+)"):
    def __init__(self, user_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Delete my data",
                style=discord.ButtonStyle.danger,
                custom_id=self.id_for(user=user_id),
            )
        )
        self.user_id = user_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /) -> DeleteButton:
        return cls(int(match["user"]))

    async def act(self, interaction: discord.Interaction) -> None:
        if interaction.user.id != self.user_id:
            raise UserError("Only the person whose data it is can delete it.")
        cog = bot_of(interaction).get_cog("Privacy")
        if not isinstance(cog, Privacy):
            raise RuntimeError("the Privacy cog that added this button is not loaded")
        await cog.delete(interaction)


class Privacy(commands.Cog):
    def __init__(self, bot: Ballcourt) -> None:
        self.bot = bot

    def keepers(self) -> list[DataKeeper]:
        """Everything that stores data about users in its own tables: the match host's game
        adapters, and every cog that is a DataKeeper."""
        cogs = [cog for cog in self.bot.cogs.values() if isinstance(cog, DataKeeper)]
        return [*self.bot.matches.adapters.values(), *cogs]

    async def summary(self, user_id: int) -> list[str]:
        footprint = await game_store.user_footprint(self.bot.db, user_id)
        lines = []
        for status in ("pending", "active", "finished", "cancelled"):
            count = footprint.get(status, 0)
            if count:
                lines.append(f"{count} {status} {plural(count):match|matches!}")
        for keeper in self.keepers():
            lines += await keeper.describe_user(self.bot.db, user_id)
        return lines

    @app_commands.command(
        name="privacy", description="See what Ballcourt stores about you, or delete it"
    )
    async def privacy(self, interaction: discord.Interaction) -> None:
        lines = await self.summary(interaction.user.id)
        if not lines:
            await interaction.response.send_message(
                "Ballcourt stores nothing about you.", ephemeral=True
            )
            return
        view = discord.ui.View(timeout=None)
        view.add_item(DeleteButton(interaction.user.id))
        await interaction.response.send_message(
            fit(
                "What Ballcourt stores about you:\n"
                + "\n".join(f"- {line}" for line in lines)
                + "\nA match's seats keep your Discord id and the display name you had then. "
                "Deleting removes your statistics, your settings and your vacations, and "
                'replaces you with "Deleted user" in other players\' games.'
            ),
            view=view,
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def delete(self, interaction: discord.Interaction) -> None:
        user_id = interaction.user.id
        footprint = await game_store.user_footprint(self.bot.db, user_id)
        if footprint.get("pending") or footprint.get("active"):
            raise UserError(
                "You have open matches: finish or resign them (or withdraw your challenges) "
                "first, then delete your data."
            )
        for keeper in self.keepers():
            if isinstance(keeper, UserReleaser):
                await keeper.release_user(user_id)  # its own locked, versioned saves, before ours
        user = interaction.user
        async with self.bot.db.transaction() as conn:
            forgotten = await game_store.forget_user(
                conn, user_id, DELETED_USER_ID, without_name, seat_name
            )
            for keeper in self.keepers():
                await keeper.forget_user(conn, user_id, DELETED_USER_ID)
            await ratings_store.forget_user(conn, user_id)
            # what the bot said about them (a move's events, a league's reports) names them
            # no more: their mentions and every name their seats showed, or they have now
            # (their name as the bot shows and stores it, cleaned as typed names are)
            names = {*forgotten.names, user.name, display_name(user)}
            await forget_store.scrub_free_text(conn, user_id, names, DELETED_NAME)
        touched = forgotten.games
        await interaction.response.send_message(
            f'Done: you are now "{DELETED_NAME}" in {plural(touched):match|matches}, and your '
            "statistics, settings and vacations are gone.",
            ephemeral=True,
        )


async def setup(bot: Ballcourt) -> None:
    bot.add_dynamic_items(DeleteButton)
    await bot.add_cog(Privacy(bot))
