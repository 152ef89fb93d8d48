"""Substitutions in two steps (seed SUBSTITUTING PLAYERS): the turn's Substitute button opens
an ephemeral message with a menu of the slots that may change now (never the ball handler's,
never a short-handed one: rules.rollerball2.substitution_slots), then a menu of the fit bench
players for the chosen slot (substitutes_for, at most 25, best first). The pick is applied by
the host like any move, so the click is checked again under the match's lock: only the coach
of the team in possession, only while the turn it was opened from is current."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import discord

from cogs import bot_of
from cogs.rollerball2.presenter import SUBSTITUTE_ID
from cogs.rollerball2.teams import names_as_text
from db import games as game_store
from host import Match, seat_of_clicker
from host.moves import act
from rules.rollerball2 import (
    Rb2Match,
    Substitute,
    describe,
    sides_of,
    substitutes_for,
    substitution_slots,
)
from ui import UserError, shown
from ui.items import Control

if TYPE_CHECKING:
    from bot import Ballcourt

SLOT = r"[A-Za-z]+[0-9]"


async def _match_for(
    interaction: discord.Interaction, game_id: int, version: int
) -> tuple[Ballcourt, Rb2Match, str]:
    """The match, checked for this user and turn; and the team in possession (the one that may
    substitute)."""
    bot = bot_of(interaction)
    stored = await game_store.load_game(bot.db, game_id, game="rollerball2")
    if stored is None or stored.status != "active":
        raise UserError(f"Rollerball II match #{game_id} is not being played.")
    seat = seat_of_clicker(stored, interaction)
    if seat is None:
        raise UserError(f"You're watching match #{game_id}: only its coaches substitute.")
    if stored.version != version:
        raise UserError(
            "That button is from an earlier turn: use the newest message in the match thread."
        )
    adapter = bot.matches.adapters["rollerball2"]
    game: Rb2Match = Match.from_json(adapter, stored.state).engine
    side = game.engine.control
    if side is None or side not in sides_of(game, seat) or game.engine.pending is not None:
        raise UserError(
            "Only the coach of the team with the ball may substitute (seed: free substitution "
            "while in possession), between cards: not while a decision or a die of the card "
            "being read is waited for, such as the catcher's choice (ruling on the rules page, "
            "Substitutes). Make the choice; if your team still has the ball, substitute then."
        )
    return bot, game, side


def _who(game: Rb2Match, side: str, number: int | None, *, menu: bool = False) -> str:
    """A player as a message shows him (a menu shows text as it is: `menu`)."""
    if number is None:
        return "empty"
    card = game.engine.team(side).card(number)
    name = card.name if menu else shown(card.name)
    return f"#{number} {name} ({card.position}, {card.experience.upper()})"


class SubstituteButton(
    Control[discord.ui.Button],
    template=SUBSTITUTE_ID,
):
    def __init__(self, game_id: int, version: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Substitute…", custom_id=self.id_for(game=game_id, version=version)
            )
        )
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /) -> SubstituteButton:
        return cls(int(match["game"]), int(match["version"]))

    async def act(self, interaction: discord.Interaction) -> None:
        _, game, side = await _match_for(interaction, self.game_id, self.version)
        team = game.engine.team(side)
        slots = substitution_slots(game.engine, side)
        if not slots:
            raise UserError("No slot may change now (the ball handler stays on).")
        handler = shown(describe(game.engine, (side, game.engine.handler or "")))
        options = [
            discord.SelectOption(
                label=slot,
                value=slot,
                description=_who(game, side, team.lineup[slot], menu=True)[:100],
            )
            for slot in slots
        ]
        view = discord.ui.View(timeout=None)
        view.add_item(SlotMenu(self.game_id, self.version, options))
        await interaction.response.send_message(
            f"**{shown(team.roster.team)}: who comes off?** {handler} has the ball and stays on; a "
            "slot short-handed for a penalty stays empty.",
            view=view,
            ephemeral=True,
        )


class SlotMenu(
    Control[discord.ui.Select],
    template=r"rb2:sub:(?P<game>\d+):(?P<version>\d+):slot",
):
    def __init__(
        self, game_id: int, version: int, options: list[discord.SelectOption] | None = None
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=self.id_for(game=game_id, version=version),
                placeholder="Step 1: the slot",
                options=options or [discord.SelectOption(label="?", value="?")],
            )
        )
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /) -> SlotMenu:
        return cls(int(match["game"]), int(match["version"]))

    async def act(self, interaction: discord.Interaction) -> None:
        _, game, side = await _match_for(interaction, self.game_id, self.version)
        slot = (interaction.data or {}).get("values", [""])[0]
        numbers = substitutes_for(game.engine, side, slot)
        if not numbers:
            raise UserError(f"Nobody fit on the bench can play {slot}.")
        team = game.engine.team(side)
        options = [
            discord.SelectOption(label=_who(game, side, number, menu=True)[:100], value=str(number))
            for number in numbers
        ]
        view = discord.ui.View(timeout=None)
        view.add_item(PlayerMenu(self.game_id, self.version, slot, options))
        await interaction.response.edit_message(
            content=f"**{shown(team.roster.team)}, {slot}:** "
            f"{_who(game, side, team.lineup[slot])} "
            "comes off. Who goes on?",
            view=view,
        )


class PlayerMenu(
    Control[discord.ui.Select],
    template=rf"rb2:sub:(?P<game>\d+):(?P<version>\d+):(?P<slot>{SLOT})",
):
    def __init__(
        self,
        game_id: int,
        version: int,
        slot: str,
        options: list[discord.SelectOption] | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=self.id_for(game=game_id, version=version, slot=slot),
                placeholder="Step 2: the player",
                options=options or [discord.SelectOption(label="?", value="?")],
            )
        )
        self.game_id, self.version, self.slot = game_id, version, slot

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /) -> PlayerMenu:
        return cls(int(match["game"]), int(match["version"]), match["slot"])

    async def act(self, interaction: discord.Interaction) -> None:
        _, game, side = await _match_for(interaction, self.game_id, self.version)
        value = (interaction.data or {}).get("values", [""])[0]
        if not value.isdigit():
            raise UserError("Choose a player from the menu.")
        number = int(value)
        with names_as_text():
            await act(
                interaction,
                self.game_id,
                self.version,
                lambda adapter, match, seat: Substitute(side, self.slot, number),
            )
        await interaction.edit_original_response(
            content=f"Done: {_who(game, side, number)} goes into {self.slot}.", view=None
        )


SUBSTITUTION_ITEMS = (SubstituteButton, SlotMenu, PlayerMenu)
