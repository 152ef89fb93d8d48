"""Discord's side of `ui.client.post` for tests without the fake Discord: a bot whose
`http.send_message` keeps each request's JSON payload by channel (what discord.py would send),
and the channels to post in."""

from __future__ import annotations

import itertools
from types import SimpleNamespace
from typing import Any, cast

import discord

from ui.client import BOT_MENTIONS


class Posts:
    """`bot.http` as far as posting goes: every message's payload, by channel id."""

    def __init__(self) -> None:
        self.payloads: dict[int, list[dict[str, Any]]] = {}
        self._ids = itertools.count(10_000)

    async def send_message(self, channel_id: int, *, params: Any) -> dict[str, Any]:
        self.payloads.setdefault(int(channel_id), []).append(params.payload)
        return {"id": str(next(self._ids)), "channel_id": str(channel_id)}

    def texts(self, channel_id: int) -> list[str]:
        """What the channel's readers see of each message posted in it."""
        return [payload["content"] for payload in self.payloads.get(channel_id, [])]


def channel(channel_id: int) -> discord.PartialMessageable:
    """A channel or thread to post in, by its id (nothing of it is read but its id)."""
    return discord.PartialMessageable(state=cast(Any, None), id=channel_id)


def bot_posting(**services: Any) -> SimpleNamespace:
    """A bot with `services` (its database, ...) that posts through a `Posts` (`bot.http`)
    with the bot's own default allowed mentions."""
    return SimpleNamespace(http=Posts(), allowed_mentions=BOT_MENTIONS, **services)


def message_data(author: int, message_id: int, channel_id: int, content: str) -> dict[str, Any]:
    """A message as Discord sends it (a REST answer, a MESSAGE_CREATE), by `author`."""
    user = {"id": str(author), "username": f"user{author}", "discriminator": "0", "avatar": None}
    return {
        "id": str(message_id),
        "channel_id": str(channel_id),
        "author": user,
        "content": content,
        "timestamp": "2026-11-29T00:00:00+00:00",
        "edited_timestamp": None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": [],
        "pinned": False,
        "type": 0,
    }
