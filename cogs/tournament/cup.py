"""A Rollerball II cup (docs/rules/tournaments.md "A Rollerball II cup"): a knockout of the
server's Rollerball II teams. The entrant is the coach, seeded by his coach-against-coach
rating (db/ratings.py, Glicko-2); he enters with the team he coaches, and each match of the
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
FORMATS = ("single_elimination", "double_elimination")


async def team_of_coach(bot: Ballcourt, guild_id: int, user_id: int) -> teams_store.Team:
    """The team a coach enters with: the one he coaches on this server."""
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
    if len(mine) > 1:
        names = ", ".join(shown(team.name) for team in mine)
        raise UserError(
            f"You coach {names}: a coach enters a cup with one team. Hand the others to another "
            "coach, or ask a server admin for a cup of your own."
        )
    return mine[0]


async def enter(bot: Ballcourt, tournament: store.Tournament, user_id: int) -> None:
    """Before the coach joins (under the tournament's lock): the team he plays with; a
    UserError when he has none to enter with."""
    team = await team_of_coach(bot, tournament.guild_id, user_id)
    await tournament_teams.enter(bot.db, tournament.id, user_id, team.id)


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
