"""The Discord extensions, one module or package each (bot.py loads every one it finds here).

`bot_of`: the bot an interaction came to, with its services typed. discord.py types
`interaction.client` as its base `Client`; every interaction Ballcourt answers came to a
`Ballcourt`, whose attributes (`db`, `timers`, `matches`, the command tree) are the services the
cogs share. RoboDanny types its Context's bot the same way."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    import discord

    from bot import Ballcourt


def bot_of(interaction: discord.Interaction[Any]) -> Ballcourt:
    return cast("Ballcourt", interaction.client)
