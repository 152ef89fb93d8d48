"""The channels the bot posts in. (The bot an interaction came to, typed with its services, is
`cogs.bot_of` for a cog and `host.components.host_of` for the host: the toolkit stands below
both and knows neither.)"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import discord

if TYPE_CHECKING:
    from discord.abc import PartialMessageableChannel


async def channel_by_id(bot: discord.Client, channel_id: int) -> PartialMessageableChannel:
    """The channel or thread `channel_id`, from the cache or else fetched. Ballcourt stores only
    channels it posts in (a match's, a league's, a season's); discord.py's lookup cannot know
    that and types the result as any channel, a forum or a category too."""
    channel = bot.get_channel(channel_id)
    if channel is None:
        channel = await bot.fetch_channel(channel_id)
    return cast("PartialMessageableChannel", channel)
