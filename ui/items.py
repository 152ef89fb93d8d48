"""The base of every persistent control (button or select) the bot draws: a DynamicItem whose
custom_id carries what it acts on, so it works after a restart, and whose callback ends in the
one error reporter, so no control repeats that handling. A select acts only on values it
offered, so no control checks that itself."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any, TypeVar

import discord

from ui.replies import report_error, send_ephemeral

NOT_ON_OFFER = "That choice is not on offer: pick one of the menu's options. Nothing was changed."

BaseT = TypeVar("BaseT", bound=discord.ui.Item[Any], covariant=True)


class Control(discord.ui.DynamicItem[BaseT], template=re.compile(r"(?!)")):
    """Subclasses give a `template` and implement `act`; errors are reported, never raised
    (buttons and selects bypass the command tree's error handler)."""

    def __init_subclass__(cls, *, template: str | re.Pattern[str]) -> None:
        super().__init_subclass__(template=template)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            if not self.offered(interaction):
                await send_ephemeral(interaction, NOT_ON_OFFER)
                return
            await self.act(interaction)
        except Exception as error:
            await report_error(interaction, error)

    def offered(self, interaction: discord.Interaction[Any]) -> bool:
        """For a select: the submitted values are options of the menu the message showed, as
        many as it takes, each once. Discord's client offers nothing else, but the interaction
        carries the values as strings that a modified client can set to anything (Discord's
        Component Reference, "String Select Interaction Response Structure": values;
        https://discord.com/developers/docs/components/reference#string-select); `act` sees
        only what was offered. The menu is read from the message the interaction came from: a
        persistent control is rebuilt from its custom_id alone and does not know its options."""
        if not isinstance(self.item, discord.ui.Select):
            return True
        values = (interaction.data or {}).get("values")
        menu = next(
            (
                component
                for component in _walk(
                    interaction.message.components if interaction.message else []
                )
                if isinstance(component, discord.SelectMenu)
                and component.custom_id == self.custom_id
            ),
            None,
        )
        if menu is None or not isinstance(values, list):
            return False
        options = {option.value for option in menu.options}
        return (
            menu.min_values <= len(values) <= menu.max_values
            and len(set(values)) == len(values)
            and all(value in options for value in values)
        )

    async def act(self, interaction: discord.Interaction[Any]) -> None:
        raise NotImplementedError


def _walk(components: Iterable[Any]) -> Iterator[Any]:
    """Every component of a message, depth first (action rows, containers, sections, labels)."""
    for component in components:
        yield component
        yield from _walk(getattr(component, "children", None) or ())
        for key in ("accessory", "component"):
            inner = getattr(component, key, None)
            if inner is not None:
                yield from _walk([inner])


def view_of(items: list[discord.ui.Item[Any]]) -> discord.ui.View:
    """A persistent view holding `items`. Where there may be none, the caller sends no view
    (the message has no controls)."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view
