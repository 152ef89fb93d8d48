"""`ui.client.own_messages_unparsed`: the gateway's MESSAGE_CREATE of the bot's own message
builds no discord.Message and reaches no `on_message` listener; everyone else's still does."""

from __future__ import annotations

from typing import Any

import discord
from discord import state as discord_state

from tests.support.posts import message_data
from ui.client import BOT_MENTIONS, own_messages_unparsed

BOT_ID, PLAYER_ID = 1, 301


def message(author: int, message_id: int) -> dict[str, Any]:
    return message_data(author, message_id, 33, "<@301>, your move")


async def test_only_other_peoples_messages_are_parsed_and_heard(monkeypatch):
    bot = discord.Client(intents=discord.Intents.default(), allowed_mentions=BOT_MENTIONS)
    own_messages_unparsed(bot)
    state: Any = bot._connection
    state.user = discord.ClientUser(state=state, data=message(BOT_ID, 1)["author"])
    heard: list[discord.Message] = []

    def dispatch(event: str, *args: Any) -> None:
        if event == "message":
            heard.append(args[0])

    state.dispatch = dispatch
    built: list[int] = []

    class Built(discord.Message):  # discord.py's parse builds its messages with this name
        def __init__(self, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            built.append(self.id)

    monkeypatch.setattr(discord_state, "Message", Built)
    state.parsers["MESSAGE_CREATE"](message(BOT_ID, 500))
    state.parsers["MESSAGE_CREATE"](message(PLAYER_ID, 501))
    assert built == [501] and [m.id for m in heard] == [501]
    assert heard[0].author.id == PLAYER_ID
