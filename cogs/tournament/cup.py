"""A Rollerball II cup (docs/rules/tournaments.md "A Rollerball II cup"): a knockout of the
server's Rollerball II teams. The entrant is the coach, seeded by his coach-against-coach
rating (db/ratings.py, Glicko-2); he enters with the team he coaches (a coach of several
chooses one, privately: cogs/tournament/cog.py `TeamSelect`), and each match of the
bracket is a coach-against-coach match between the two teams (cogs/rollerball2/matches.py):
both rosters and saved line-ups read when the round is paired, the better seed at home, and at
its end the carry-over (injuries, bans, deaths) written to the teams as after any match."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cogs.rollerball2.matches import match_options, registrar
from db import rollerball2 as teams_store
from db import tournament_teams
from db import tournaments as store
from rules.rollerball2 import score_line
from ui import UserError, shown

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from bot import Ballcourt
    from db.database import Connection

GAME = "rollerball2"
TEAM_CHOICES = 25  # a select menu's options at most (Discord's Message Components: Select Menus)
FORMATS = ("single_elimination", "double_elimination")


async def coached(bot: Ballcourt, guild_id: int, user_id: int) -> list[teams_store.Team]:
    """The teams a coach may enter with: those he coaches on this server (a UserError when
    none)."""
    mine = [
        team
        for team in await teams_store.teams_in_guild(bot.db, guild_id)
        if team.owner_id == user_id
    ]
    if not mine:
        raise UserError(
            "A Rollerball II cup is played by teams: you coach none on this server. "
            "`/rollerball2 team create` makes one; then press Join again."
        )
    return mine


async def team_to_enter(
    bot: Ballcourt, tournament: store.Tournament, user_id: int, team_id: int | None
) -> teams_store.Team | None:
    """The team a coach enters with: his only one, or the one he chose (`team_id`, checked:
    one he coaches on this server and not entered already); None when he coaches several and
    has not chosen yet (`choosable`: what he is offered)."""
    mine = await coached(bot, tournament.guild_id, user_id)
    if team_id is None:
        return mine[0] if len(mine) == 1 else None
    team = next((team for team in mine if team.id == team_id), None)
    if team is None:
        raise UserError(
            "You can enter a cup only with a team you coach on this server: press Join again "
            "to choose one."
        )
    if team_id in (await tournament_teams.teams(bot.db, tournament.id)).values():
        raise UserError(taken_text(team))
    return team


def taken_text(team: teams_store.Team) -> str:
    return (
        f"{shown(team.name)} is entered in this cup already: press Join again to choose "
        "another of your teams."
    )


async def choosable(
    bot: Ballcourt, tournament: store.Tournament, user_id: int
) -> list[teams_store.Team]:
    """The teams a coach of several may choose from: his teams not entered already (a
    UserError when every one is)."""
    entered = set((await tournament_teams.teams(bot.db, tournament.id)).values())
    mine = [
        team for team in await coached(bot, tournament.guild_id, user_id) if team.id not in entered
    ]
    if not mine:
        raise UserError("Every team you coach is entered in this cup already.")
    return mine


def setup(
    bot: Ballcourt,
) -> Callable[
    [store.Tournament, list[int]],
    Awaitable[tuple[dict[str, Any], str, Callable[[Connection, int], Awaitable[None]]] | None],
]:
    """The match of a cup's pairing: the first seat (the better seed) at home."""

    async def made(
        tournament: store.Tournament, players: list[int]
    ) -> tuple[dict[str, Any], str, Callable[[Connection, int], Awaitable[None]]] | None:
        entered = await tournament_teams.teams(bot.db, tournament.id)
        sides = []
        for user_id in players:
            team = await teams_store.load_team(bot.db, entered.get(user_id, 0))
            # a team gone, or playing another match: the deadline decides the game
            if team is None or await teams_store.open_match_of(bot.db, team.id) is not None:
                return None
            sides.append(team)
        home, away = sides
        options = await match_options(bot, home, away, "coaches")
        options["fixture_id"] = None  # a cup match is no season's fixture
        describe = (
            f"{score_line(shown(away.name), None, shown(home.name), None)}, coach against coach"
        )
        return options, describe, registrar(tournament.guild_id, home, away, "coaches", None)

    return made
