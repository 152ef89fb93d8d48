"""The channels the bot posts in. (The bot an interaction came to, typed with its services, is
`cogs.bot_of` for a cog and `host.components.host_of` for the host: the toolkit stands below
both and knows neither.)"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import discord

if TYPE_CHECKING:
    from discord.abc import PartialMessageableChannel
    from discord.http import HTTPClient


async def channel_by_id(bot: discord.Client, channel_id: int) -> PartialMessageableChannel:
    """The channel or thread `channel_id`, from the cache or else fetched. Ballcourt stores only
    channels it posts in (a match's, a league's, a season's); discord.py's lookup cannot know
    that and types the result as any channel, a forum or a category too."""
    channel = bot.get_channel(channel_id)
    if channel is None:
        channel = await bot.fetch_channel(channel_id)
    return cast("PartialMessageableChannel", channel)


def sweep_buckets_in_proportion(http: HTTPClient) -> None:
    """discord.py keeps a rate-limit bucket per route and channel and forgets one idle for
    five minutes by looking at every bucket whenever a new one is made, once there are 256
    (`HTTPClient._try_clear_expired_ratelimits`): reminders due together, a thread each, made
    that a look at thousands of buckets per reminder. It looks now only once the buckets have
    doubled since its last look: as many idle buckets are forgotten, at a cost proportional to
    the new ones (tests/ui/test_rate_limit_buckets.py)."""
    sweep = http._try_clear_expired_ratelimits
    looked_at = 0

    def in_proportion() -> None:
        nonlocal looked_at
        if len(http._buckets) < 2 * looked_at:
            return
        sweep()
        looked_at = len(http._buckets)

    http._try_clear_expired_ratelimits = in_proportion
