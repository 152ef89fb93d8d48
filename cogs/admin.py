"""Operator commands. `/admin sync` pushes the command tree to Discord now (the bot already syncs
at start-up when the tree changed); only the bot's owners may run it."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from ui import UserError

if TYPE_CHECKING:
    from bot import Ballcourt


class Admin(commands.Cog):
    admin = app_commands.Group(
        name="admin",
        description="Bot operator commands",
        default_permissions=discord.Permissions(administrator=True),
    )

    def __init__(self, bot: Ballcourt) -> None:
        self.bot = bot

    @admin.command(name="sync", description="Sync the slash commands with Discord now (owners).")
    async def sync(self, interaction: discord.Interaction) -> None:
        if not await self.bot.is_owner(interaction.user):
            raise UserError("Only the bot's owners can sync its commands.")
        await interaction.response.defer(ephemeral=True, thinking=True)
        count = await self.bot.sync_commands()
        await interaction.followup.send(f"Synced {count} commands with Discord.", ephemeral=True)


async def setup(bot: Ballcourt) -> None:
    await bot.add_cog(Admin(bot))
