"""The line-up editor: an ephemeral message with select menus, one slot at a time.

Step one picks a slot (ten options), step two the player for it: the fit players who may play
there, best first (rules.rollerball2.lineup_choices' order). A Discord menu holds 25 options,
so when more players fit a slot (an imported roster of up to 40) a first menu picks a group of
at most 25 and a second the player. A player already in another slot swaps places with the one
he replaces. Every pick is saved at once (the team's version checked), and only legal line-ups
are saved: the editor offers fit players only, and a stale menu is refused with a reason.

The coach's saved line-up is private: only this editor shows it. A match reads it when it is
created; until a coach saves one, the default line-up (the most experienced fit players) plays.
A saved player who may not play a match is replaced for that match by the default replacement
(rules.rollerball2.roster.match_lineup); the saved line-up keeps him for when he is fit.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import discord

from cogs import bot_of
from cogs.rollerball2.teams import EXPERIENCE_LETTER, require_manager
from db import rollerball2 as store
from rules.rollerball2 import (
    BIKER_SLOTS,
    EXPERIENCE_RANK,
    EXTRA_SLOTS,
    SLOTS,
    RollerballError,
    default_lineup,
    fits_slot,
    match_lineup,
    player_status,
)
from ui import UserError, shown
from ui.formats import possessive
from ui.items import Control

if TYPE_CHECKING:
    from bot import Ballcourt

MENU = 25  # options in one Discord select menu
SLOT = r"[A-Za-z]+[0-9]"


def current_lineup(team: store.Team) -> dict[str, int | None]:
    """The saved line-up (or the default one), slots in the track's order."""
    lineup = team.lineup if team.lineup is not None else default_lineup(team.roster)
    return {slot: lineup[slot] for slot in SLOTS if slot in lineup}


def lineup_problems(team: store.Team, lineup: dict[str, int | None]) -> list[str]:
    """Players in the line-up who may not play the next match, as sentences."""
    problems = []
    for slot, number in lineup.items():
        if number is None:
            continue
        status = player_status(team.roster, number)
        if status != "fit":
            card = team.roster.card(number)
            problems.append(f"{slot}: #{number} {shown(card.name)} is {status}.")
    return problems


def candidates(team: store.Team, slot: str) -> list[int]:
    """Every fit player who may play `slot`, best first (the slot's own position, then STAR,
    VETERAN, ROOKIE, then number)."""
    own = "biker" if slot in BIKER_SLOTS else "catcher" if slot.startswith("Catcher") else "skater"
    absent = team.roster.absent()
    fit = [c for c in team.roster.players if c.number not in absent and fits_slot(c.position, slot)]
    fit.sort(key=lambda c: (c.position != own, EXPERIENCE_RANK[c.experience], c.number))
    return [card.number for card in fit]


def groups(numbers: list[int]) -> list[list[int]]:
    return [numbers[i : i + MENU] for i in range(0, len(numbers), MENU)]


def _who_plain(team: store.Team, number: int | None) -> str:
    """A slot's player as a menu shows it (menus show text as it is)."""
    if number is None:
        return "empty"
    card = team.roster.card(number)
    return f"#{number} {card.name} ({card.position}, {EXPERIENCE_LETTER[card.experience]})"


def _who(team: store.Team, number: int | None) -> str:
    """A slot's player as a message shows it."""
    if number is None:
        return "empty"
    card = team.roster.card(number)
    return f"#{number} {shown(card.name)} ({card.position}, {EXPERIENCE_LETTER[card.experience]})"


def editor_text(team: store.Team, note: str = "") -> str:
    lineup = current_lineup(team)
    which = "saved line-up" if team.lineup is not None else "default line-up (not saved yet)"
    lines = [f"**{shown(team.name)}: {which}**"]
    lines += [f"`{slot:<8}` {_who(team, number)}" for slot, number in lineup.items()]
    problems = lineup_problems(team, lineup)
    if problems:
        _, changes = match_lineup(team.roster, team.lineup)
        instead = [
            f"{change.slot}: {_who(team, change.replacement)}"
            for change in changes
            if change.replacement is not None
        ]
        lines.append(
            "**Cannot play:** "
            + " ".join(problems)
            + " Until he is fit the next match plays the default replacement"
            + (f" ({'; '.join(instead)})" if instead else "")
            + ", or choose someone else there."
        )
    lines.append("Choose a slot to change. Only you see this; a match reads it when it starts.")
    if note:
        lines.insert(0, note)
    return "\n".join(lines)


def editor_view(team: store.Team) -> discord.ui.View:
    lineup = current_lineup(team)
    view = discord.ui.View(timeout=None)
    view.add_item(SlotSelect(team.id, [(slot, _who_plain(team, n)) for slot, n in lineup.items()]))
    view.add_item(LineupButton(team.id, "default"))
    extra = "Catcher3" if "Skater5" in lineup else "Skater5"
    view.add_item(LineupButton(team.id, "extra", f"Extra slot: make it {extra}"))
    return view


def pick_message(team: store.Team, slot: str, group: int | None) -> dict:
    """Step two: the players for `slot` (or, when more than 25 fit, first the groups)."""
    lineup = current_lineup(team)
    numbers = candidates(team, slot)
    if not numbers:
        raise UserError(
            f"Nobody fit can play {slot} for {shown(team.name)}: sign players with "
            "`/rollerball2 team sign`."
        )
    chunks = groups(numbers)
    view = discord.ui.View(timeout=None)
    text = f"**{shown(team.name)}, {slot}** (now {_who(team, lineup.get(slot))}): who plays there?"
    if len(chunks) > 1 and group is None:
        options = []
        for index, chunk in enumerate(chunks):
            first, last = team.roster.card(chunk[0]), team.roster.card(chunk[-1])
            options.append((f"g{index}", f"{first.name} … {last.name} ({len(chunk)} players)"))
        view.add_item(PlayerSelect(team.id, slot, options, "Choose a group of players"))
        text += f" {len(numbers)} players fit: first choose a group."
    else:
        chunk = chunks[group or 0]
        options = []
        for number in chunk:
            card = team.roster.card(number)
            where = next((s for s, n in lineup.items() if n == number), None)
            tail = f" · now {where}" if where else ""
            label = f"#{number} {card.name} ({card.position}, {EXPERIENCE_LETTER[card.experience]}){tail}"
            options.append((str(number), label))
        view.add_item(PlayerSelect(team.id, slot, options, "Choose the player"))
    view.add_item(LineupButton(team.id, "back"))
    return {"content": text, "view": view}


def place(team: store.Team, slot: str, number: int) -> tuple[dict[str, int | None], str]:
    """The line-up with `number` in `slot`; if he was in another slot the player he replaces
    goes there (if he is fit, else that slot is left empty). RollerballError if the pick is not
    possible now (a menu drawn before an injury, a slot that does not exist)."""
    lineup = current_lineup(team)
    if slot not in lineup:
        raise RollerballError(f"{possessive(shown(team.name))} line-up has no {slot} slot now.")
    if number not in candidates(team, slot):
        card = team.roster.card(number)
        status = player_status(team.roster, number)
        why = status if status != "fit" else f"a {card.position} cannot play {slot}"
        raise RollerballError(f"#{number} {shown(card.name)} cannot go into {slot}: {why}.")
    old = lineup[slot]
    moved_from = next((s for s, n in lineup.items() if n == number and s != slot), None)
    lineup[slot] = number
    note = f"{slot}: {_who(team, number)} in"
    if moved_from is not None:
        stays = (
            old is not None
            and player_status(team.roster, old) == "fit"
            and fits_slot(team.roster.card(old).position, moved_from)
        )
        lineup[moved_from] = old if stays else None
        note += f"; {moved_from}: {_who(team, lineup[moved_from])}"
    return lineup, note + "."


async def _load(interaction: discord.Interaction, team_id: int) -> tuple[Ballcourt, store.Team]:
    bot = bot_of(interaction)
    team = await store.load_team(bot.db, team_id)
    if team is None or team.guild_id != interaction.guild_id:
        raise UserError("That team no longer exists.")
    require_manager(interaction, team)
    return bot, team


async def _save(
    interaction: discord.Interaction, bot: Ballcourt, team: store.Team, lineup, note: str
) -> None:
    try:
        team = await store.update_team(bot.db, team, lineup=lineup)
    except store.StaleTeam:
        raise UserError(
            f"{shown(team.name)} changed meanwhile (a match ended, or another edit): nothing was "
            "saved. Open `/rollerball2 team lineup` again."
        ) from None
    await interaction.response.edit_message(content=editor_text(team, note), view=editor_view(team))


class SlotSelect(Control[discord.ui.Select], template=r"rb2:lu:(?P<team>\d+):slot"):
    def __init__(self, team_id: int, slots: list[tuple[str, str]] | None = None) -> None:
        options = [
            discord.SelectOption(label=slot, value=slot, description=who[:100])
            for slot, who in (slots or [(s, "") for s in SLOTS])
        ]
        super().__init__(
            discord.ui.Select(
                custom_id=self.id_for(team=team_id),
                placeholder="Choose a slot to change",
                options=options,
            )
        )
        self.team_id = team_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /) -> SlotSelect:
        return cls(int(match["team"]))

    async def act(self, interaction: discord.Interaction) -> None:
        _, team = await _load(interaction, self.team_id)
        slot = (interaction.data or {}).get("values", [""])[0]
        await interaction.response.edit_message(**pick_message(team, slot, None))


class PlayerSelect(
    Control[discord.ui.Select],
    template=rf"rb2:lu:(?P<team>\d+):(?P<slot>{SLOT}):pick",
):
    def __init__(
        self,
        team_id: int,
        slot: str,
        options: list[tuple[str, str]] | None = None,
        placeholder: str = "Choose the player",
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=self.id_for(team=team_id, slot=slot),
                placeholder=placeholder,
                options=[
                    discord.SelectOption(label=label[:100], value=value)
                    for value, label in (options or [("0", "?")])
                ],
            )
        )
        self.team_id, self.slot = team_id, slot

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /) -> PlayerSelect:
        return cls(int(match["team"]), match["slot"])

    async def act(self, interaction: discord.Interaction) -> None:
        bot, team = await _load(interaction, self.team_id)
        value = (interaction.data or {}).get("values", [""])[0]
        if value.startswith("g") and value[1:].isdigit():
            await interaction.response.edit_message(**pick_message(team, self.slot, int(value[1:])))
            return
        if not value.isdigit():
            raise UserError("Choose a player from the menu.")
        lineup, note = place(team, self.slot, int(value))
        await _save(interaction, bot, team, lineup, note)


LINEUP_BUTTONS = {"default": "Use the default line-up", "back": "Back", "extra": "Extra slot"}


class LineupButton(
    Control[discord.ui.Button],
    template=r"rb2:lu:(?P<team>\d+):(?P<what>default|back|extra)",
):
    def __init__(self, team_id: int, what: str, label: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or LINEUP_BUTTONS[what],
                style=discord.ButtonStyle.secondary,
                custom_id=self.id_for(team=team_id, what=what),
            )
        )
        self.team_id, self.what = team_id, what

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /) -> LineupButton:
        return cls(int(match["team"]), match["what"])

    async def act(self, interaction: discord.Interaction) -> None:
        bot, team = await _load(interaction, self.team_id)
        if self.what == "back":
            await interaction.response.edit_message(
                content=editor_text(team), view=editor_view(team)
            )
        elif self.what == "default":
            await _save(interaction, bot, team, None, "Back to the default line-up.")
        else:
            lineup = current_lineup(team)
            old, new = ("Skater5", "Catcher3") if "Skater5" in lineup else EXTRA_SLOTS[::-1]
            lineup[new] = lineup.pop(old)
            await _save(interaction, bot, team, lineup, f"The extra slot is {new} now.")


LINEUP_ITEMS = (SlotSelect, PlayerSelect, LineupButton)
