"""The Rollerball II extension: the `/rollerball2` command group and what runs behind it.

Each part declares its own commands where it implements them: team_commands.py (`team ...`,
`card`, `fac`, `gamecard`), matches.py (`match ...`: how a match starts, a past box score, and
the host's standard match commands), seasons.py (`season ...`; a matchday's deadline in
matchdays.py, its posts in season_posts.py) and stats_commands.py (`stats
...`, `leaders`, `history`, `injuries`); this module puts them under one group, adds `rules`,
registers the game with the match host, the season deadlines with the timers and the vacations
(host/clocks.py), the line-up and substitution menus, and counts at start-up the finished matches whose statistics rows were never
written (db/rollerball2/stats.py: count_old_matches)."""

from __future__ import annotations

import asyncio
import functools
import logging
from typing import TYPE_CHECKING

from discord import app_commands
from discord.ext import commands

from cogs.rollerball2.lineup import LINEUP_ITEMS
from cogs.rollerball2.matchdays import SeasonHost, Seasons
from cogs.rollerball2.matches import (
    BoxScoreButton,
    LineupsButton,
    MatchCommands,
    Rollerball2Matches,
)
from cogs.rollerball2.season_posts import followable
from cogs.rollerball2.seasons import SeasonCommands
from cogs.rollerball2.stats_commands import TOP_LEVEL_COMMANDS, StatsCommands
from cogs.rollerball2.subs import SUBSTITUTION_ITEMS
from cogs.rollerball2.team_commands import CARD_COMMANDS, TeamCommands
from db import rollerball2 as store
from host import background
from host.follow import Followable
from host.leagues import LeagueHost
from host.listing import Entry, LiveLine
from host.notify import channel_link
from ui import rulebook, shown
from ui.formats import plural

if TYPE_CHECKING:
    from bot import Ballcourt

log = logging.getLogger(__name__)

RULEBOOK = rulebook.register(rulebook.Rulebook("rollerball2"))


class Rollerball2Group(
    app_commands.Group,
    name="rollerball2",
    description="Rollerball II: the card-driven sports simulation",
    guild_only=True,
):
    """`/rollerball2`: the parts' groups and commands, and the rules pages."""

    def __init__(self, adapter: Rollerball2Matches, seasons: SeasonHost) -> None:
        super().__init__()
        TeamCommands(parent=self)
        MatchCommands(adapter, seasons.lock, parent=self)
        SeasonCommands(seasons, parent=self)
        StatsCommands(parent=self)
        for command in (*CARD_COMMANDS, *TOP_LEVEL_COMMANDS):
            self.add_command(command)
        self.add_command(
            RULEBOOK.command(
                "How Rollerball II is played here, with the rulings", "Substitutes or On Discord"
            )
        )


class RollerballII(commands.Cog):
    def __init__(self, bot: Ballcourt) -> None:
        self.bot = bot
        self.adapter = Rollerball2Matches()
        # the seasons' deadlines, pauses and vacations run on the league host
        self.seasons = LeagueHost(bot, Seasons(bot, self.adapter))
        self.group = Rollerball2Group(self.adapter, self.seasons)
        self._counting: asyncio.Task[None] | None = None
        bot.matches.register(self.adapter)
        bot.matches.follows.register("team", "rollerball2", self.followed_team, self.team_choices)
        bot.matches.follows.register("league", "rollerball2", functools.partial(followable, bot))

    async def cog_load(self) -> None:
        self.bot.tree.add_command(self.group)
        self._counting = background.started("rollerball2-old-matches", self.count_old_matches())
        self.seasons.start()  # the start-up repair: results a crash left unposted

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command(self.group.name)
        await self.seasons.stop()
        await background.stopped(self._counting)

    async def count_old_matches(self) -> None:
        """Matches finished before their statistics were rows (migration 012) are counted once,
        in the background, a batch per transaction."""
        try:
            counted = await store.count_old_matches(self.bot.db)
        except Exception:
            log.exception("could not count the old Rollerball II matches' statistics")
            return
        if counted:
            log.info("counted the statistics of %d earlier Rollerball II matches", counted)

    # ---- following (host/follow.py) --------------------------------------------------------------

    async def followed_team(self, target: str) -> Followable | None:
        """The team "rollerball2:ID" as a follower follows it (/follow team:): its coach is
        told of its matches already."""
        team_id = target.split(":", 1)[1]
        team = await store.load_team(self.bot.db, int(team_id)) if team_id.isdigit() else None
        if team is None:
            return None
        return Followable(
            "team", target, f"team {shown(team.name)}", team.guild_id, frozenset({team.owner_id})
        )

    async def team_choices(self, guild_id: int, typed: str) -> list[tuple[str, str]]:
        return [
            (f"{name} (Rollerball II team)", f"rollerball2:{team_id}")
            for team_id, name, _ in await store.team_names(self.bot.db, guild_id)
            if typed in name.casefold()
        ]

    async def games_entries(self, user_id: int, now: float) -> list[Entry]:
        return await self.seasons.games_entries(user_id, now)

    async def live_entries(self, guild_id: int) -> list[LiveLine]:
        """/live: each season of the server still running, with its current matchday and the
        earliest deadline of that matchday's fixtures still to play."""
        found = []
        for season in await store.seasons_in(self.bot.db, guild_id):
            if season.over:
                continue
            teams = len(await store.season_team_ids(self.bot.db, season.id))
            deadline = None
            if season.paused_at is None:
                state = f"matchday {season.current_matchday} of {season.matchdays}"
                waiting = [
                    f.deadline
                    for f in await store.fixtures_of(
                        self.bot.db, season.id, season.current_matchday
                    )
                    if f.how is None
                ]
                deadline = min(waiting, default=None)
            else:
                state = "paused by the season's admins"
            found.append(
                LiveLine(
                    f"Rollerball II season {shown(season.name)}",
                    f"{plural(teams):team}",
                    "",
                    state,
                    channel_link(season.guild_id, season.channel_id),
                    deadline=deadline,
                )
            )
        return found


async def setup(bot: Ballcourt) -> None:
    bot.add_dynamic_items(*LINEUP_ITEMS, *SUBSTITUTION_ITEMS, BoxScoreButton, LineupsButton)
    await bot.add_cog(RollerballII(bot))
