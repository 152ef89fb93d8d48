"""Teams on Discord: finding one by name, who may change it, its colours, how it reads.

A team belongs to the user who made it; only they or a server admin (Manage Server) change it.
Names are unique per server (db/rollerball2/teams.py: a database constraint). Every team, player and
season name is user text: a message shows it through ui.shown, never as markdown.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from cogs import bot_of
from db import rollerball2 as store
from rules.rollerball2 import BIKER, CATCHER, SKATER, RollerballError, player_status
from ui import LookupOption, UserError, quote, shown
from ui.permissions import is_server_admin

if TYPE_CHECKING:
    from bot import Ballcourt

NAME_LENGTH = 32  # the longest team, player or season name
Name = app_commands.Range[str, 1, NAME_LENGTH]  # a team, player or season name as typed
NO_MENTIONS = discord.AllowedMentions.none()

# Colours a team may wear, by name (high-contrast on the light cards and the dark theme).
COLOURS = {
    "orange": "#e69f00",
    "sky blue": "#56b4e9",
    "green": "#009e73",
    "yellow": "#f0e442",
    "blue": "#0072b2",
    "vermilion": "#d55e00",
    "pink": "#cc79a7",
    "red": "#c8102e",
    "navy": "#1b2a4a",
    "teal": "#00797c",
    "maroon": "#7a1f2b",
    "gold": "#b3995d",
    "silver": "#a5acaf",
    "black": "#111111",
    "white": "#f5f5f5",
}
POSITION_CHOICES = [app_commands.Choice(name=name, value=name) for name in (SKATER, BIKER, CATCHER)]
EXPERIENCE_LETTER = {"star": "STAR", "veteran": "VET", "rookie": "ROOKIE"}
POSITIONS_ORDER = (SKATER, BIKER, CATCHER)
POSITION_TITLES = {SKATER: "Skaters", BIKER: "Bikers", CATCHER: "Catchers"}


def parse_colour(text: str | None, default: str) -> str:
    """A colour option: one of COLOURS by name, or #rrggbb. UserError naming the choices."""
    if text is None or not text.strip():
        return default
    typed = text.strip().casefold()
    if typed in COLOURS:
        return COLOURS[typed]
    hexa = typed if typed.startswith("#") else f"#{typed}"
    if len(hexa) == 7 and all(ch in "0123456789abcdef" for ch in hexa[1:]):
        return hexa
    raise UserError(
        f"{quote(text)} is not a colour I know: pick one of {', '.join(COLOURS)}, or write "
        "#rrggbb. Nothing was saved."
    )


async def colour_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    typed = current.casefold().strip()
    return [app_commands.Choice(name=name, value=name) for name in COLOURS if typed in name][:25]


def colour_name(hexa: str) -> str:
    for name, value in COLOURS.items():
        if value == hexa:
            return name
    return hexa


def embed_colour(team: store.Team) -> discord.Colour:
    return discord.Colour(int(team.colour.lstrip("#"), 16))


def new_seed(bot: Ballcourt) -> str:
    """A fresh roster seed (GAME_SEED makes it reproducible, like a match's)."""
    return str(bot.seed_source.randrange(2**31))


@contextmanager
def names_as_text() -> Iterator[None]:
    """A rules refusal names teams and players as they were typed ("Houston already has a
    player called ..."): it reaches the user as a UserError with those names shown as text. The
    rules' messages hold no markdown of their own."""
    try:
        yield
    except RollerballError as error:
        raise UserError(shown(str(error))) from None


def guild_of(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise UserError("Rollerball II teams belong to a server: use this in a server channel.")
    return interaction.guild_id


async def find_team(bot: Ballcourt, interaction: discord.Interaction, name: str) -> store.Team:
    """The team of this server called `name` (any case), or a UserError naming the teams."""
    guild_id = guild_of(interaction)
    team = await store.team_by_name(bot.db, guild_id, name)
    if team is not None:
        return team
    names = [shown(n) for _, n, _ in await store.team_names(bot.db, guild_id)]
    known = f" Teams here: {', '.join(names[:20])}." if names else " There are no teams here yet."
    raise UserError(
        f"There is no team called {quote(name)} in this server.{known} "
        "Create one with `/rollerball2 team create`."
    )


def may_manage(interaction: discord.Interaction, team: store.Team) -> bool:
    return team.owner_id == interaction.user.id or is_server_admin(interaction)


def require_manager(interaction: discord.Interaction, team: store.Team) -> None:
    """Only the team's owner or a server admin (Manage Server) changes a team."""
    if not may_manage(interaction, team):
        raise UserError(
            f"{shown(team.name)} belongs to <@{team.owner_id}>: only they or a server admin "
            "(Manage Server) can change it or play it."
        )


async def team_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    bot = bot_of(interaction)
    if interaction.guild_id is None:
        return []
    typed = current.casefold().strip()
    rows = await store.team_names(bot.db, interaction.guild_id)
    mine = [r for r in rows if r[2] == interaction.user.id]
    others = [r for r in rows if r[2] != interaction.user.id]
    return [
        app_commands.Choice(name=name, value=name)
        for _, name, _ in mine + others
        if typed in name.casefold()
    ][:25]


@dataclass(frozen=True)
class PlayerEntry:
    """One player of a server for autocomplete: read from the stored JSON without checking
    every card (it was checked when stored)."""

    team_id: int
    team: str
    number: int
    name: str
    position: str
    experience: str

    @property
    def label(self) -> str:
        return f"{self.name} #{self.number} ({self.team}, {self.position})"[:100]

    @property
    def value(self) -> str:
        return f"{self.team_id}:{self.number}"


async def player_entries(bot: Ballcourt, guild_id: int) -> list[PlayerEntry]:
    rows = await bot.db.fetch_all(
        "SELECT id, name, roster FROM rollerball2_teams WHERE guild_id = ? ORDER BY name_key",
        (guild_id,),
    )
    entries = []
    for row in rows:
        for card in json.loads(row["roster"])["players"]:
            entries.append(
                PlayerEntry(
                    row["id"],
                    row["name"],
                    card["number"],
                    card["name"],
                    card["position"],
                    card["experience"],
                )
            )
    return entries


async def player_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    bot = bot_of(interaction)
    if interaction.guild_id is None:
        return []
    typed = current.casefold().strip()
    found = [
        e for e in await player_entries(bot, interaction.guild_id) if typed in e.label.casefold()
    ]
    return [app_commands.Choice(name=e.label, value=e.value) for e in found[:25]]


async def find_player(
    bot: Ballcourt, interaction: discord.Interaction, text: str
) -> tuple[store.Team, int]:
    """A player chosen from the autocomplete ("team id:number") or typed: a name, or
    "Team #7". UserError saying what to type when nobody or several match."""
    guild_id = guild_of(interaction)
    head, _, tail = text.partition(":")
    if head.isdigit() and tail.isdigit():
        team = await store.load_team(bot.db, int(head))
        if (
            team is not None
            and team.guild_id == guild_id
            and any(card.number == int(tail) for card in team.roster.players)
        ):
            return team, int(tail)
    typed = text.casefold().strip()
    entries = await player_entries(bot, guild_id)
    exact = [e for e in entries if e.name.casefold() == typed or e.label.casefold() == typed]
    numbered = [e for e in entries if f"{e.team} #{e.number}".casefold() == typed]
    found = exact or numbered or [e for e in entries if typed and typed in e.label.casefold()]
    if len(found) != 1:
        what = "Nobody" if not found else f"{len(found)} players"
        raise UserError(
            f"{what} in this server matches {quote(text)}: pick a player from the list as you "
            "type, or write `Team #7`."
        )
    team = await store.load_team(bot.db, found[0].team_id)
    assert team is not None
    return team, found[0].number


def roster_fields(team: store.Team) -> list[tuple[str, str]]:
    """The roster as (field title, lines) per position, every player with his status; split
    so no field passes Discord's 1,024 characters."""
    fields: list[tuple[str, str]] = []
    for position in POSITIONS_ORDER:
        cards = [c for c in team.roster.players if c.position == position]
        lines = [
            f"`#{c.number:>2}` {shown(c.name)} · {EXPERIENCE_LETTER[c.experience]} · "
            f"{player_status(team.roster, c.number)}"
            for c in cards
        ]
        chunk: list[str] = []
        part = 1
        for line in lines:
            if sum(len(x) + 1 for x in chunk) + len(line) > 1000:
                fields.append((f"{POSITION_TITLES[position]} ({part})", "\n".join(chunk)))
                chunk, part = [], part + 1
            chunk.append(line)
        title = POSITION_TITLES[position] + (f" ({part})" if part > 1 else f" ({len(cards)})")
        fields.append((title, "\n".join(chunk) or "nobody"))
    return fields


def quality_text(team: store.Team) -> str:
    """The quality word and the experience it is read from: the players who can still play
    (Roster.quality; the dead and the banned for life do not count)."""
    mix = team.roster.experience_mix()
    return (
        f"**{team.roster.quality}**: {mix['star']} STAR, {mix['veteran']} VETERAN, "
        f"{mix['rookie']} ROOKIE (STARs minus ROOKIEs among those who can still play)"
    )


def team_embed(team: store.Team) -> discord.Embed:
    fit = sum(player_status(team.roster, c.number) == "fit" for c in team.roster.players)
    embed = discord.Embed(
        title=shown(team.name),
        description=(
            f"Coach: <@{team.owner_id}> · colours {colour_name(team.colour)} and "
            f"{colour_name(team.colour2)}\nQuality: {quality_text(team)}\n"
            f"{len(team.roster.players)} players, {fit} fit to play."
        ),
        colour=embed_colour(team),
    )
    for title, value in roster_fields(team):
        embed.add_field(name=title, value=value, inline=False)
    embed.set_footer(
        text="Status: fit, injured (N matches / season), banned, dead. "
        "/rollerball2 card shows a player's card."
    )
    return embed


# ---- options that name a team or a player (discord.py's examples/app_commands/transformers.py) ---


class TeamOption(LookupOption):
    """A `team` option: the server's team of that name, offered as the user types (their own
    teams first); a name that is not there is answered with the teams that are."""

    max_length = 40  # a name as typed, spaces and all

    async def find(self, interaction: discord.Interaction, value: str) -> store.Team:
        return await find_team(bot_of(interaction), interaction, value)

    async def autocomplete(
        self, interaction: discord.Interaction, value: str, /
    ) -> list[app_commands.Choice[str]]:
        return await team_autocomplete(interaction, value)


class PlayerOption(LookupOption):
    """A `player` option: (team, number) of a player picked from the list ("team id:number"),
    or typed by name or as "Team #7"."""

    async def find(self, interaction: discord.Interaction, value: str) -> tuple[store.Team, int]:
        return await find_player(bot_of(interaction), interaction, value)

    async def autocomplete(
        self, interaction: discord.Interaction, value: str, /
    ) -> list[app_commands.Choice[str]]:
        return await player_autocomplete(interaction, value)


TeamArg = app_commands.Transform[store.Team, TeamOption]
PlayerArg = app_commands.Transform[tuple[store.Team, int], PlayerOption]
