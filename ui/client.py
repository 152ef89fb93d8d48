"""The channels the bot posts in, and how it posts news in them. (The bot an interaction came
to, typed with its services, is `cogs.bot_of` for a cog and `host.components.host_of` for the
host: the toolkit stands below both and knows neither.)"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any, cast

import discord
from discord.http import handle_message_parameters

from ui.text import display_name

if TYPE_CHECKING:
    from discord.abc import PartialMessageableChannel
    from discord.http import HTTPClient

# What the bot's messages may ping unless a message says otherwise (discord.py merges a
# message's own allowed mentions into these): users, never @everyone or a role.
BOT_MENTIONS = discord.AllowedMentions(everyone=False, roles=False, users=True)


async def channel_by_id(bot: discord.Client, channel_id: int) -> PartialMessageableChannel:
    """The channel or thread `channel_id`, from the cache or else fetched. Ballcourt stores only
    channels it posts in (a match's, a league's, a season's); discord.py's lookup cannot know
    that and types the result as any channel, a forum or a category too."""
    channel = bot.get_channel(channel_id)
    if channel is None:
        channel = await bot.fetch_channel(channel_id)
    return cast("PartialMessageableChannel", channel)


async def member_name(guild: discord.Guild | None, user_id: int, unknown: str) -> str:
    """A member's name as every message shows it (`display_name`), from the cache or else
    fetched; `unknown` when they are not in the server (they left) or it cannot be asked."""
    member = guild.get_member(user_id) if guild is not None else None
    if member is None and guild is not None:
        try:
            member = await guild.fetch_member(user_id)
        except discord.HTTPException:
            member = None
    return display_name(member) if member is not None else unknown


async def post(
    bot: discord.Client,
    channel: discord.abc.Messageable,
    content: str,
    *,
    allowed_mentions: discord.AllowedMentions,
    view: discord.ui.View | None = None,
) -> int:
    """Post `content` (and `view`) in `channel` as `Messageable.send` posts it, and answer the
    new message's id: the same request (discord.py's own `handle_message_parameters`, merged
    with the bot's default allowed mentions, a nonce), sent through `bot.http`, which keeps to
    Discord's rate limits and raises the same `discord.HTTPException` on a refusal; the view
    is listened to as `send` would. What it leaves out is the `discord.Message` that `send`
    builds from Discord's answer (its author, mentions, components parsed), which news never
    reads: about a tenth of a reminder's cost when 10,000 fall due at once (bench/reminders.py)."""
    target = await channel._get_channel()  # a user's DM channel is opened as `send` opens it
    with handle_message_parameters(
        content=content,
        nonce=secrets.randbits(64),
        allowed_mentions=allowed_mentions,
        previous_allowed_mentions=bot.allowed_mentions,
        view=view,
    ) as params:
        data: Any = await bot.http.send_message(target.id, params=params)
    message_id = int(data["id"])
    if view is not None and not view.is_finished() and view.is_dispatchable():
        bot._connection.store_view(view, message_id)
    return message_id


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


def own_messages_unparsed(bot: discord.Client) -> None:
    """The gateway's MESSAGE_CREATE of a message the bot itself posted builds no
    `discord.Message` and dispatches no `on_message`: discord.py parses every one (author,
    mentions, components) to hand it to `on_message`, and the bot's listeners ignore its own
    messages, so with 10,000 reminders due at once that parse was about a twentieth of the
    bot's time (bench/reminders.py). What discord.py keeps of such a message, its channel's
    `last_message_id`, is still kept (the bot keeps no message cache: bot.py). Everyone
    else's messages are parsed and dispatched as before."""
    state = bot._connection
    parse = state.parsers["MESSAGE_CREATE"]

    def message_create(data: Any) -> None:
        if state.self_id is None or int(data["author"]["id"]) != state.self_id:
            parse(data)
            return
        channel, _ = state._get_guild_channel(data)
        if isinstance(channel, OWN_LAST_MESSAGE):
            channel.last_message_id = int(data["id"])

    state.parsers["MESSAGE_CREATE"] = message_create


# The channels whose last message discord.py notes on a MESSAGE_CREATE (its parse_message_create).
OWN_LAST_MESSAGE = (
    discord.TextChannel,
    discord.VoiceChannel,
    discord.Thread,
    discord.StageChannel,
)
