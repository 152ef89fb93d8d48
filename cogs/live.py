"""/live: what's on in this server, for anyone (docs/async-play.md "What's on"): every match in
play with its players, score, whose turn, the last move and a link to its card, then the
leagues and seasons with their current round. The logic is host/listing.py's."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from host.listing import live_page, live_text
from ui import fit

if TYPE_CHECKING:
    from bot import Ballcourt

NOT_HERE = (
    "`/live` lists the matches of a server: use it in one of the server's channels. "
    "`/games` lists yours on every server."
)


class Live(commands.Cog):
    def __init__(self, bot: Ballcourt) -> None:
        self.bot = bot

    @app_commands.command(
        name="live", description="What's on in this server: every match in play, and the leagues"
    )
    @app_commands.describe(page="Which page of matches, when there are many (1 = the latest)")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def live(
        self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 1000] = 1
    ) -> None:
        if interaction.guild_id is None:
            await interaction.response.send_message(NOT_HERE, ephemeral=True)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        found = await live_page(
            self.bot.db,
            self.bot.matches.adapters,
            self.bot.cogs.values(),
            interaction.guild_id,
            page,
        )
        embed = discord.Embed(
            title="What's on in this server",
            description=fit(live_text(found), 4000),
            colour=0x0072B2,
        )
        embed.set_footer(text="Only you see this. Open a card to follow the match in its thread.")
        await interaction.followup.send(embed=embed, ephemeral=True)


async def setup(bot: Ballcourt) -> None:
    await bot.add_cog(Live(bot))
