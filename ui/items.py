"""The base of every persistent control (button or select) the bot draws: a DynamicItem whose
custom_id carries what it acts on, so it works after a restart, and whose callback ends in the
one error reporter, so no control repeats that handling."""

from __future__ import annotations

import re
from typing import Any, TypeVar

import discord

from ui.replies import report_error

BaseT = TypeVar("BaseT", bound=discord.ui.Item[Any], covariant=True)


class Control(discord.ui.DynamicItem[BaseT], template=re.compile(r"(?!)")):
    """Subclasses give a `template` and implement `act`; errors are reported, never raised
    (buttons and selects bypass the command tree's error handler)."""

    def __init_subclass__(cls, *, template: str | re.Pattern[str]) -> None:
        super().__init_subclass__(template=template)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await self.act(interaction)
        except Exception as error:
            await report_error(interaction, error)

    async def act(self, interaction: discord.Interaction[Any]) -> None:
        raise NotImplementedError


def view_of(items: list[discord.ui.Item[Any]]) -> discord.ui.View:
    """A persistent view holding `items`. Where there may be none, the caller sends no view
    (the message has no controls)."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view
