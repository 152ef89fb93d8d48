"""A finished tournament's podium post (docs/rules/tournaments.md "On Discord"), exactly once:
posted under the tournament's lock when it ends, then marked as posted
(db/tournament_podiums.py). A crash (or a refused post) between the end and the mark leaves the
podium unposted, and the start-up repair posts it, as the league host's repair posts what a
crash left unsent (host/leagues/league_host.py); one a missing permission refused is posted as
soon as Discord says the permission may be back (the league host's `post_held_back`)."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import discord

from db import tournament_podiums as marks
from db import tournament_teams
from db import tournaments as store
from db.database import is_unavailable
from host import background
from host.background import until_done
from host.locks import ShuttingDown
from ui import shown
from ui.client import channel_by_id

if TYPE_CHECKING:
    from host.base import TournamentsFace as Tournaments

log = logging.getLogger(__name__)

MEDALS = ("🥇", "🥈", "🥉")


async def post(tournaments: Tournaments, tournament: store.Tournament) -> bool:
    """Under the tournament's lock, once it is finished: its podium posted below its card, the
    players on it mentioned, unless it was posted before. False when Discord refused it (the
    permission given back or the next start posts it)."""
    db = tournaments.bot.db
    if tournament.status != "finished" or await marks.is_posted(db, tournament.id):
        return True
    entrants = store.entrants_of(await store.entrants(db, tournament.id))
    order = (
        await store.standings(db, tournament, entrants, top=len(MEDALS)) if tournament.round else []
    )
    if order:
        teams = await tournament_teams.team_names(db, tournament.id)  # a cup's
        podium = [
            f"{medal} "
            + (f"**{shown(teams[user])}**, " if (user := int(standing.entrant.id)) in teams else "")
            + f"<@{user}> ({standing.score:g})"
            for medal, standing in zip(MEDALS, order, strict=False)
        ]
        channel = await channel_by_id(tournaments.bot, tournament.channel_id)
        try:
            await channel.send(
                f"**{tournaments.game_title(tournament)} tournament #{tournament.id} is over.**\n"
                + "\n".join(podium),
                allowed_mentions=discord.AllowedMentions(
                    users=[discord.Object(int(standing.entrant.id)) for standing in order]
                ),
            )
        except discord.HTTPException as error:
            log.warning(
                "tournament %s's podium was refused (%s): posted when the permission is back"
                " or at the next start",
                tournament.id,
                error,
            )
            return False
    await marks.mark_posted(db, tournament.id)
    return True


class PodiumRepair:
    """At start-up: each finished tournament whose podium is not out gets its card made final
    and its podium posted."""

    def __init__(self, tournaments: Tournaments) -> None:
        self.tournaments = tournaments
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = background.started("tournament-podium-repair", self._recover())

    async def stop(self) -> None:
        await background.stopped(self._task)

    async def _recover(self) -> None:
        bot = self.tournaments.bot
        await bot.wait_until_ready()
        await until_done("start-up repair of tournaments' podiums", bot.db, self._repair)

    async def _repair(self) -> None:
        for tournament_id in await marks.unposted(self.tournaments.bot.db):
            try:
                async with self.tournaments.lock(tournament_id):
                    tournament = await store.load(self.tournaments.bot.db, tournament_id)
                    if tournament is None:
                        continue
                    await self.tournaments.show(tournament)
                    await post(self.tournaments, tournament)
            except Exception as error:
                if is_unavailable(error) or isinstance(error, ShuttingDown):
                    raise  # the whole repair is tried again, or left to the next start
                log.exception("could not post tournament %s's podium at start-up", tournament_id)
