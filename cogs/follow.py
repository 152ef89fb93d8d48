"""/follow and /unfollow (docs/async-play.md "Following"): follow a player or a team of this
server and hear of their matches' milestones; the Follow buttons on match and league cards do
the same for one match or league. The logic is host/follow.py's; `/settings follows` lists what a
user follows and how its news reaches them."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from host.follow import Followable, FollowButton
from ui import UserError, display_name, shown
from ui.items import view_of

if TYPE_CHECKING:
    from bot import Ballcourt
    from db.database import Connection, Database

NOT_HERE = "Follow a player or a team in one of its server's channels."


class Follow(commands.Cog):
    def __init__(self, bot: Ballcourt) -> None:
        self.bot = bot

    @property
    def follows(self):
        return self.bot.matches.follows

    @app_commands.command(
        name="follow", description="Hear of a player's or a team's goals and results"
    )
    @app_commands.describe(
        player="A member of this server: their matches' milestones here",
        team="A team of this server: its matches' milestones",
    )
    @app_commands.guild_only()
    async def follow(
        self,
        interaction: discord.Interaction,
        player: discord.Member | None = None,
        team: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        if interaction.guild_id is None:
            raise UserError(NOT_HERE)
        if (player is None) == (team is None):
            raise UserError(
                "Name one player (`player:`) or one team (`team:`, picked from the list). A "
                "match or a league is followed with the Follow button on its card."
            )
        if player is not None:
            if player.bot:
                raise UserError("The bot plays no matches of its own to follow.")
            if player.id == interaction.user.id:
                raise UserError("Your own matches reach you already, as your turns do.")
            thing = Followable(
                "player",
                str(player.id),
                shown(display_name(player)),
                interaction.guild_id,
                frozenset({player.id}),
            )
        else:
            assert team is not None
            found = await self.follows.find("team", team.strip())
            if found is None or found.guild_id != interaction.guild_id:
                raise UserError(
                    f"{shown(team[:40])} is not a team of this server: pick one from the list "
                    "as you type."
                )
            thing = found
        said = await self.follows.follow(interaction.user.id, thing)
        await interaction.response.send_message(
            said,
            ephemeral=True,
            view=view_of([FollowButton(thing.kind, thing.target, verb="unfollow")]),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @follow.autocomplete("team")
    async def team_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        if interaction.guild_id is None:
            return []
        found = await self.follows.team_choices(interaction.guild_id, current.casefold().strip())
        return [app_commands.Choice(name=name[:100], value=target) for name, target in found][:25]

    @app_commands.command(name="unfollow", description="Stop hearing of something you follow")
    @app_commands.describe(what="What you follow (picked from the list)")
    async def unfollow(
        self, interaction: discord.Interaction, what: app_commands.Range[str, 1, 120]
    ) -> None:
        said = await self.follows.unfollow_named(interaction.user.id, what)
        await interaction.response.send_message(
            said, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )

    @unfollow.autocomplete("what")
    async def followed_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        found = await self.follows.followed_choices(interaction.user.id, current)
        return [app_commands.Choice(name=label[:100], value=value) for label, value in found][:25]

    # ---- /privacy: what a user follows, and their being followed --------------------------------

    async def describe_user(self, db: Database, user_id: int) -> list[str]:
        return await self.follows.describe_user(db, user_id)

    async def forget_user(self, conn: Connection, user_id: int, anonymous: int) -> None:
        await self.follows.forget_user(conn, user_id, anonymous)


async def setup(bot: Ballcourt) -> None:
    await bot.add_cog(Follow(bot))
