"""`ui.client.post`: a message posted without the discord.Message built from Discord's answer
is the request `Messageable.send` makes (the same payload, the bot's allowed mentions merged
in), and a view under it is listened to as `send` would."""

from __future__ import annotations

from typing import Any

import discord

from tests.support.posts import Posts, message_data
from ui.client import BOT_MENTIONS, post


def a_bot() -> tuple[discord.Client, Posts]:
    bot = discord.Client(intents=discord.Intents.default(), allowed_mentions=BOT_MENTIONS)
    posts = Posts()
    bot.http.send_message = posts.send_message  # type: ignore[method-assign]
    return bot, posts


def without_nonce(payload: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in payload.items() if key != "nonce"}


class Answered(Posts):
    """Discord's answer as `send` reads it (it builds a discord.Message from it)."""

    async def send_message(self, channel_id: int, *, params: Any) -> dict[str, Any]:
        answer = await super().send_message(channel_id, params=params)
        return {
            **message_data(1, int(answer["id"]), channel_id, params.payload["content"]),
            **answer,
        }


async def test_post_sends_what_send_sends():
    bot, posted = a_bot()
    answered = Answered()
    channel = bot.get_partial_messageable(33)
    mentions = discord.AllowedMentions(users=[discord.Object(301)], roles=False, everyone=False)
    text = "<@301>, your move <@999> @everyone"
    message_id = await post(bot, channel, text, allowed_mentions=mentions)
    bot.http.send_message = answered.send_message  # type: ignore[method-assign]
    await channel.send(text, allowed_mentions=mentions)
    ((ours,),), ((theirs,),) = posted.payloads.values(), answered.payloads.values()
    assert message_id == 10_000 and without_nonce(ours) == without_nonce(theirs)
    assert ours["nonce"] != theirs["nonce"]  # each a nonce of its own, as send makes


async def test_a_view_under_a_post_is_listened_to():
    bot, posted = a_bot()
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Take my seat back", custom_id="seat:1:takeback"))
    message_id = await post(
        bot, bot.get_partial_messageable(33), "t", allowed_mentions=BOT_MENTIONS, view=view
    )
    ((payload,),) = posted.payloads.values()
    assert payload["components"] == view.to_components()
    assert bot._connection._view_store.remove_message_tracking(message_id) is view
