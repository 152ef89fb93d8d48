"""`/rollerball2 season ...`: a double round robin of a server's teams, one deadline per
matchday; its table, schedule and results; its admins extending a matchday, pausing the season
and playing a matchday now.

Rulings (docs/rules/rollerball2.md, "On Discord"; the seed has no league rules):
- A season is made by its admins (host/leagues/admins.py: Manage Server, or the server's league admin
  role), or by a coach of every team in it. Its teams start it with a new season's roster
  (season-long absences end: roster_new_season).
- A team plays one season at a time (it may not join another while it has fixtures to play).
- A match started between two of its teams, with the fixture's home and away team, is that
  fixture (any mode); it counts once, when it ends. It is linked to the fixture under the
  season's lock (cogs/rollerball2/matches.py `fixture_held`), as the deadline settles it.
- At a matchday's deadline (the season's durable timer, cogs/rollerball2/season_clock.py) every
  fixture of that matchday still unplayed is settled: a challenge nobody accepted is withdrawn,
  a match being played is finished by the default coaches, and one never started is simulated.
  Each fixture counts exactly once: its score is written only while it has none, in the
  transaction that stores its match's end. A coach who never shows up is played by the default
  coach every matchday (ruling D13). A fixture whose team is busy in another match keeps the
  matchday open, tried again later (ruling D14). The results are posted after the matchday is
  saved, and a crash between the two has them posted at the next start (`post_results`).
- The season's admins (host/leagues/admins.py) may play the current matchday before its deadline
  (`season play`): the same settling, at once; the next matchday's deadline then runs. The
  answer shows the results; played from another channel, they are posted where the season was
  made as a deadline's are (in order, held back by a missing permission); played there, the
  answer posts them, after any matchday a missing permission held back. They may
  extend the current matchday and pause the season (rulings D10 and D11); where the season
  allows it, a coach's vacation puts off the matchday of their fixture (ruling D12).
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from cogs import bot_of
from cogs.rollerball2 import season_clock
from cogs.rollerball2.matchdays import SeasonHost, settle_matchday, unsettled
from cogs.rollerball2.matches import Rollerball2Matches
from cogs.rollerball2.season_clock import DEADLINE_EVENT
from cogs.rollerball2.season_posts import (
    deadline_policies,
    follow_view,
    matchday_text,
    post_results,
    schedule_fields,
    season_status,
    standings_files,
    team_names,
)
from cogs.rollerball2.teams import (
    NAME_LENGTH,
    NO_MENTIONS,
    Name,
    find_team,
    guild_of,
    may_manage,
)
from db import rollerball2 as store
from host.leagues import require_league_admin
from rules.rollerball2 import (
    RollerballError,
    clean_name,
    double_round_robin,
    roster_new_season,
)
from ui import LookupOption, UserError, display_name, fit, quote, shown
from ui.formats import plural
from ui.formats import timestamp as when

if TYPE_CHECKING:
    from bot import Ballcourt

log = logging.getLogger(__name__)


async def season_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    bot = bot_of(interaction)
    if interaction.guild_id is None:
        return []
    typed = current.casefold().strip()
    return [
        app_commands.Choice(name=season.name, value=season.name)
        for season in await store.seasons_in(bot.db, interaction.guild_id)
        if typed in season.name.casefold()
    ][:25]


async def find_season(
    bot: Ballcourt, interaction: discord.Interaction, name: str | None
) -> store.Season:
    guild_id = guild_of(interaction)
    if name:
        season = await store.season_by_name(bot.db, guild_id, name)
        if season is None:
            raise UserError(
                f"There is no season called {quote(name)} here: pick one from the list, or "
                "start one with `/rollerball2 season create`."
            )
        return season
    seasons = await store.seasons_in(bot.db, guild_id)
    if not seasons:
        raise UserError("No season has been played here yet: `/rollerball2 season create`.")
    return seasons[0]


class SeasonOption(LookupOption):
    """A `season` option: the server's season of that name, offered as the user types (when
    left out, the commands take the newest season)."""

    max_length = NAME_LENGTH

    async def find(self, interaction: discord.Interaction, value: str) -> store.Season:
        return await find_season(bot_of(interaction), interaction, value)

    async def autocomplete(
        self, interaction: discord.Interaction, value: str, /
    ) -> list[app_commands.Choice[str]]:
        return await season_autocomplete(interaction, value)


SeasonArg = app_commands.Transform[store.Season, SeasonOption]


async def create_season(
    bot: Ballcourt,
    interaction: discord.Interaction,
    name: str,
    team_list: str | None,
    hours: int,
    vacations: bool,
) -> None:
    """A new season (module docstring)."""
    guild_id = guild_of(interaction)
    name = clean_name(name, "The season's name")
    if team_list:
        wanted = [part.strip() for part in team_list.split(",") if part.strip()]
        teams = [await find_team(bot, interaction, part) for part in wanted]
    else:
        teams = await store.teams_in_guild(bot.db, guild_id)
    if len({team.id for team in teams}) != len(teams):
        raise UserError("A team is named twice: list each team once, separated by commas.")
    strangers = [shown(team.name) for team in teams if not may_manage(interaction, team)]
    if strangers:
        await require_league_admin(
            bot.db,
            interaction,
            what=f"make a season with teams you do not coach ({', '.join(strangers[:5])}): "
            "list only your own teams, or ask an admin",
        )
    try:
        schedule = double_round_robin([team.name for team in teams])
    except RollerballError as error:
        raise UserError(f"{error} Name the teams separated by commas.") from None
    ids = {team.name: team.id for team in teams}
    now = time.time()
    try:
        season = await store.create_season(
            bot.db,
            guild_id=guild_id,
            channel_id=interaction.channel_id or 0,
            name=name,
            created_by=interaction.user.id,
            starts_at=now,
            hours=hours,
            schedule=[[(ids[home], ids[away]) for home, away in day] for day in schedule],
            rosters={team.id: roster_new_season(team.roster) for team in teams},
            timer_event=DEADLINE_EVENT,
            vacation_pauses=vacations,
        )
    except store.SeasonNameTaken:
        raise UserError(
            f"A season called {shown(name)} exists here already: choose another name."
        ) from None
    except store.TeamInSeason as error:
        team = next((shown(t.name) for t in teams if t.id == error.team_id), "A team")
        raise UserError(
            f"{team} still has fixtures to play in {shown(error.season)}: a team plays one "
            "season at a time. Nothing was created."
        ) from None
    bot.timers.wake()
    names = {team.id: team.name for team in teams}
    fixtures = await store.fixtures_of(bot.db, season.id)
    embed = discord.Embed(
        title=f"Rollerball II season: {shown(season.name)}",
        description=(
            f"{len(teams)} teams, {season.matchdays} matchdays (every pair home and away), "
            f"{hours} hours each. Play a fixture with `/rollerball2 match start` (its home and "
            "away team, any mode). Season-long injuries and bans are over.\n"
            + deadline_policies(season)
        ),
        colour=discord.Colour(0xCC79A7),
    )
    for title, value in schedule_fields(season, fixtures, names)[:10]:
        embed.add_field(name=title, value=value, inline=False)
    await interaction.response.send_message(
        embed=embed, view=follow_view(season), allowed_mentions=NO_MENTIONS
    )


async def show_standings(
    bot: Ballcourt, interaction: discord.Interaction, chosen: store.Season | None
) -> None:
    season = chosen or await find_season(bot, interaction, None)
    await interaction.response.defer(thinking=True)
    files = await standings_files(bot, season)
    await interaction.followup.send(
        fit(
            f"**{shown(season.name)}**: 2 points a win, 1 a draw; ties by goal difference, "
            "then goals scored, then the name.\n" + await season_status(bot, season)
        ),
        files=files,
        allowed_mentions=NO_MENTIONS,
    )


async def show_schedule(
    bot: Ballcourt, interaction: discord.Interaction, chosen: store.Season | None, played_only: bool
) -> None:
    season = chosen or await find_season(bot, interaction, None)
    names = await team_names(bot, season)
    fixtures = await store.fixtures_of(bot.db, season.id)
    if played_only and all(f.how is None for f in fixtures):
        raise UserError(f"No match of {shown(season.name)} has been played yet.")
    embed = discord.Embed(
        title=f"{shown(season.name)}: {'results' if played_only else 'schedule'}",
        description=await season_status(bot, season),
        colour=discord.Colour(0xCC79A7),
    )
    for title, value in schedule_fields(season, fixtures, names, played_only)[:25]:
        embed.add_field(name=title, value=value, inline=False)
    await interaction.response.send_message(embed=embed, allowed_mentions=NO_MENTIONS)


async def as_admin(
    bot: Ballcourt,
    interaction: discord.Interaction,
    chosen: store.Season | None,
    what: str,
    check: Callable[[store.Season], object],
) -> store.Season:
    """The season an admin's command is about, once the caller may `what` (host/leagues/admins.py)
    and `check` passes (refusals are private); then the command is acknowledged, since the
    season's lock may be held while a deadline settles its matchday."""
    await require_league_admin(bot.db, interaction, what=what)
    season = chosen or await find_season(bot, interaction, None)
    check(season)
    await interaction.response.defer(thinking=True)
    return season


async def play_matchday(
    bot: Ballcourt,
    host: SeasonHost,
    interaction: discord.Interaction,
    chosen: store.Season | None,
) -> None:
    """The season's admins play its current matchday now (the module docstring)."""
    season = await as_admin(
        bot,
        interaction,
        chosen,
        "play a matchday before its deadline: the coaches of its fixtures may still want to "
        "play theirs",
        lambda season: season_clock.check_running(season, "play a matchday"),
    )
    adapter = bot.matches.adapters["rollerball2"]
    assert isinstance(adapter, Rollerball2Matches)  # the one the cog registers

    async def play(season: store.Season) -> store.Season:
        season_clock.check_running(season, "play a matchday")
        matchday = season.current_matchday
        await settle_matchday(
            bot, adapter, season, matchday, played_by=display_name(interaction.user)
        )
        left = await unsettled(bot, season, matchday)
        if left:
            raise UserError(
                fit(
                    f"Matchday {matchday} of {shown(season.name)} stays open (ruling D14): "
                    + "; ".join(left)
                    + ". Everything else of it is settled; play it again once that match is over."
                )
            )
        await season_clock.advance(bot, season, played_at=time.time())
        return season

    # Under the season's lock, loaded afresh (gone: the league host's refusal); its posts
    # follow here, after the command's answer, not the league host's.
    season = await host.change(season.id, play, shown=False)
    matchday = season.current_matchday
    text = await matchday_text(
        bot, season, matchday, f"played now by {shown(display_name(interaction.user))}."
    )
    # Where the season was made, in order, as a deadline's results are (held back by a missing
    # permission); in that channel the answer posts them, the held-back ones first.
    if interaction.channel_id != season.channel_id:
        files = await standings_files(bot, season)
        await interaction.followup.send(
            text, files=files, view=follow_view(season), allowed_mentions=NO_MENTIONS
        )
        await post_results(bot, season.id, said={matchday: text})
    elif matchday not in await post_results(
        bot, season.id, said={matchday: text}, answer=interaction.followup.send
    ):
        with contextlib.suppress(discord.HTTPException):  # the command's time may be up
            await interaction.followup.send(
                f"Matchday {matchday} of {shown(season.name)} is played: its results are "
                "posted in this channel in order, after the matchdays before it.",
                allowed_mentions=NO_MENTIONS,
            )


async def extend_matchday(
    bot: Ballcourt,
    host: SeasonHost,
    interaction: discord.Interaction,
    chosen: store.Season | None,
    hours: int,
) -> None:
    """The season's admins give its current matchday `hours` more (ruling D10)."""
    season = await as_admin(
        bot,
        interaction,
        chosen,
        "extend a matchday's deadline",
        lambda season: season_clock.check_running(season, "extend a deadline"),
    )
    saved, due = await host.change(
        season.id, lambda season: season_clock.extend(bot, season, hours)
    )
    later = plural(season.hours // 2 if season.hours % 2 == 0 else season.hours / 2)
    await interaction.followup.send(
        f"Matchday {saved.current_matchday} of {shown(saved.name)} gets {plural(hours):hour} "
        f"more: due {when(due, 'R')} ({when(due)}). The later matchdays keep their deadlines, "
        f"each at least {later:hour} after the one before "
        "(`/rollerball2 season schedule`).",
        allowed_mentions=NO_MENTIONS,
    )


async def pause_season(
    bot: Ballcourt,
    host: SeasonHost,
    interaction: discord.Interaction,
    chosen: store.Season | None,
) -> None:
    """The season's admins stop its deadlines (ruling D11)."""
    season = await as_admin(
        bot,
        interaction,
        chosen,
        "pause a season",
        lambda season: season_clock.check_running(season, "pause it again"),
    )
    saved = await host.change(season.id, lambda season: season_clock.pause(bot, season))
    await interaction.followup.send(
        f"{shown(saved.name)} is paused: no deadline runs until an admin uses `/rollerball2 "
        f"season resume`, which gives matchday {saved.current_matchday} the time it has left "
        "now and moves the later deadlines by the pause. Fixtures may still be played.",
        allowed_mentions=NO_MENTIONS,
    )


async def resume_season(
    bot: Ballcourt,
    host: SeasonHost,
    interaction: discord.Interaction,
    chosen: store.Season | None,
) -> None:
    """The season's admins start its deadlines again (ruling D11)."""
    season = await as_admin(bot, interaction, chosen, "resume a season", season_clock.check_paused)
    saved, due, pause = await host.change(
        season.id, lambda season: season_clock.resume(bot, season)
    )
    await interaction.followup.send(
        f"{shown(saved.name)} goes on: matchday {saved.current_matchday} is due "
        f"{when(due, 'R')} ({when(due)}), with the time it had left; the later deadlines "
        f"moved by the pause ({plural(round(pause / 3600)):hour}).",
        allowed_mentions=NO_MENTIONS,
    )


class SeasonCommands(app_commands.Group, name="season", description="Seasons"):
    """`/rollerball2 season ...`: the admins' commands act through the seasons' league host."""

    def __init__(self, host: SeasonHost, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.host = host

    @app_commands.command(
        name="create", description="A double round robin with a deadline a matchday"
    )
    @app_commands.describe(
        name="Season name",
        teams="Teams, separated by commas (default: every team here)",
        hours="Hours per matchday: unplayed matches are simulated at its end",
        vacations="A coach's vacation puts off their matchday's deadline",
    )
    async def create(
        self,
        interaction: discord.Interaction,
        name: Name,
        teams: app_commands.Range[str, 1, 1000] | None = None,
        hours: app_commands.Range[int, 1, 720] = 48,
        vacations: bool = False,
    ) -> None:
        await create_season(bot_of(interaction), interaction, name, teams, hours, vacations)

    @app_commands.command(name="standings", description="The season's table")
    async def standings(
        self, interaction: discord.Interaction, season: SeasonArg | None = None
    ) -> None:
        await show_standings(bot_of(interaction), interaction, season)

    @app_commands.command(name="schedule", description="Every matchday with its deadline")
    async def schedule(
        self, interaction: discord.Interaction, season: SeasonArg | None = None
    ) -> None:
        await show_schedule(bot_of(interaction), interaction, season, played_only=False)

    @app_commands.command(name="results", description="The season's played matches")
    async def results(
        self, interaction: discord.Interaction, season: SeasonArg | None = None
    ) -> None:
        await show_schedule(bot_of(interaction), interaction, season, played_only=True)

    @app_commands.command(
        name="play", description="Admin: play the current matchday now, before its deadline"
    )
    async def play(self, interaction: discord.Interaction, season: SeasonArg | None = None) -> None:
        await play_matchday(bot_of(interaction), self.host, interaction, season)

    @app_commands.command(name="extend", description="Admin: give the current matchday more time")
    @app_commands.describe(hours="Hours more for this matchday")
    async def extend(
        self,
        interaction: discord.Interaction,
        hours: app_commands.Range[int, 1, 336],
        season: SeasonArg | None = None,
    ) -> None:
        await extend_matchday(bot_of(interaction), self.host, interaction, season, hours)

    @app_commands.command(name="pause", description="Admin: stop the season's deadlines for now")
    async def pause(
        self, interaction: discord.Interaction, season: SeasonArg | None = None
    ) -> None:
        await pause_season(bot_of(interaction), self.host, interaction, season)

    @app_commands.command(name="resume", description="Admin: start the deadlines again")
    async def resume(
        self, interaction: discord.Interaction, season: SeasonArg | None = None
    ) -> None:
        await resume_season(bot_of(interaction), self.host, interaction, season)
