"""The lookup options of `/volleyball` commands as app-command transformers with their
autocomplete (discord.py's examples/app_commands/transformers.py): a command receives the
stored league, or a team's name as the league spells it, instead of a string to look up.

- `League`: a league of this server, by name (completion: the server's leagues). A command
  with an optional league resolves a missing one with `find_league(db, interaction, None)`.
- `AnyTeam`, `ComputerSeat`: a team of the league named in the command's league option (or
  the league `find` picks), completed from its teams (only the computer teams for a seat).
- `Sponsor`: a sponsor's name, completed from the league's sponsors (the engine checks it).
- `with_league`: the command's describe() with the league option's text written once.

A lookup that fails raises LookupFailed: both the player's UserError (its message is shown
as it is) and an AppCommandError, so discord.py hands it to the tree's error handler
unwrapped.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from cogs import bot_of
from cogs.volleyball.playing import decode
from db import volleyball as store
from rules.volleyball import LeagueState
from ui import LookupFailed, LookupOption, UserError, quote, shown
from ui.formats import human_join

LEAGUE_HELP = "League (default: the one here)"
MAX_CHOICES = 25


async def find_league(
    db: Any, interaction: discord.Interaction, name: str | None
) -> store.StoredLeague:
    """The league a command is about: the one named, else the only one in the server, else
    the one whose results channel this is, else the caller's only one."""
    guild_id = interaction.guild_id
    if guild_id is None:
        raise UserError("Volleyball leagues live in a server, not in DMs.")
    if name:
        found = await store.league_named(db, guild_id, name)
        if found is None:
            names = await store.league_names(db, guild_id)
            known = f" Leagues here: {human_join([shown(n) for n in names])}." if names else ""
            raise UserError(f"There is no Volleyball league called {quote(name)} here.{known}")
        return found
    leagues = await store.leagues_in_guild(db, guild_id)
    if not leagues:
        raise UserError(
            "There is no Volleyball league in this server yet. A server admin starts one "
            "with `/volleyball league create`."
        )
    if len(leagues) == 1:
        return leagues[0]
    here = [league for league in leagues if league.channel_id == interaction.channel_id]
    if len(here) == 1:
        return here[0]
    mine = await store.leagues_managed_by(db, guild_id, interaction.user.id)
    if len(mine) == 1:
        return next(league for league in leagues if league.id == mine[0])
    raise UserError(
        "This server has several leagues; name one with the league option: "
        + human_join([shown(league.name) for league in leagues])
        + "."
    )


def matching(names: list[str], current: str) -> list[app_commands.Choice[str]]:
    key = current.casefold()
    return [app_commands.Choice(name=n, value=n) for n in names if key in n.casefold()][
        :MAX_CHOICES
    ]


async def league_in_options(
    interaction: discord.Interaction,
) -> tuple[store.StoredLeague, LeagueState] | None:
    """The league the command's league option names (or the default one), or None."""
    name = getattr(interaction.namespace, "league", None)
    try:
        stored = await find_league(bot_of(interaction).db, interaction, name)
    except UserError:
        return None
    return stored, decode(stored)


class LeagueTransformer(LookupOption):
    async def find(self, interaction: discord.Interaction, value: str) -> store.StoredLeague:
        return await find_league(bot_of(interaction).db, interaction, value)

    async def autocomplete(
        self, interaction: discord.Interaction, value: str, /
    ) -> list[app_commands.Choice[str]]:
        if interaction.guild_id is None:
            return []
        names = await store.league_names(bot_of(interaction).db, interaction.guild_id)
        return matching(names, value)


class TeamTransformer(app_commands.Transformer):
    """A team of the league, as the league spells it; `computer_only`: a computer team's
    seat (one a manager can take)."""

    def __init__(self, *, computer_only: bool = False) -> None:
        self.computer_only = computer_only

    def names(self, state: LeagueState) -> list[str]:
        return [
            t.name for t in state.league.teams if t.manager_id is None or not self.computer_only
        ]

    async def transform(self, interaction: discord.Interaction, value: Any, /) -> Any:
        found = await league_in_options(interaction)
        if found is None:
            return str(value)  # the command's own league lookup says what is wrong
        stored, state = found
        team = state.league.team(" ".join(str(value).split()))
        if team is None or team.name not in self.names(state):
            kind = "computer team" if self.computer_only else "team"
            raise LookupFailed(
                f"There is no {kind} called {quote(str(value))} in {stored.name}; the "
                "option's list shows them."
            )
        return team.name

    async def autocomplete(
        self, interaction: discord.Interaction, value: str, /
    ) -> list[app_commands.Choice[str]]:
        found = await league_in_options(interaction)
        return [] if found is None else matching(self.names(found[1]), value)


class SponsorTransformer(app_commands.Transformer):
    async def transform(self, interaction: discord.Interaction, value: Any, /) -> Any:
        return str(value)

    async def autocomplete(
        self, interaction: discord.Interaction, value: str, /
    ) -> list[app_commands.Choice[str]]:
        found = await league_in_options(interaction)
        if found is None:
            return []
        return matching([s.name for s in found[1].league.config.sponsors], value)


League = app_commands.Transform[store.StoredLeague, LeagueTransformer]
AnyTeam = app_commands.Transform[str, TeamTransformer()]
ComputerSeat = app_commands.Transform[str, TeamTransformer(computer_only=True)]
Sponsor = app_commands.Transform[str, SponsorTransformer]


def with_league(**described: str):
    """app_commands.describe with the league option's description added."""
    return app_commands.describe(league=LEAGUE_HELP, **described)
