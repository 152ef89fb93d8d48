"""The bot an interaction came to, with its services typed, and the channels it posts in.

discord.py types `interaction.client` as its base `Client`; every interaction Ballcourt answers
came to a `Ballcourt`, whose attributes (`db`, `timers`, `matches`, `volleyball`, the command
tree) are the services the cogs share. RoboDanny types its Context's bot the same way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import discord

if TYPE_CHECKING:
    from discord.abc import PartialMessageableChannel

    from bot import Ballcourt


def bot_of(interaction: discord.Interaction[Any]) -> Ballcourt:
    return cast("Ballcourt", interaction.client)


async def channel_by_id(bot: discord.Client, channel_id: int) -> PartialMessageableChannel:
    """The channel or thread `channel_id`, from the cache or else fetched. Ballcourt stores only
    channels it posts in (a match's, a league's, a season's); discord.py's lookup cannot know
    that and types the result as any channel, a forum or a category too."""
    channel = bot.get_channel(channel_id)
    if channel is None:
        channel = await bot.fetch_channel(channel_id)
    return cast("PartialMessageableChannel", channel)
