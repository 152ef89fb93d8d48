"""A test-only cog whose command Discord would refuse at sync (a 101-character description):
test_harness.py proves the fake refuses the bot's command tree as Discord would."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands


class BadTree(commands.Cog):
    @app_commands.command(name="verbose", description="d" * 101)
    async def verbose(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("never synced")


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(BadTree())
