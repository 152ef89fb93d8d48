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
  (`season play`): the same settling, at once; the next matchday's deadline then runs. They may
  extend the current matchday and pause the season (rulings D10 and D11); where the season
  allows it, a coach's vacation puts off the matchday of their fixture (ruling D12).
"""

from __future__ import annotations

import asyncio
import io
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from cogs import bot_of
from cogs.rollerball2 import season_clock
from cogs.rollerball2.matches import Rollerball2Matches, match_options, registrar
from cogs.rollerball2.season_clock import DEADLINE_EVENT
from cogs.rollerball2.teams import (
    NAME_LENGTH,
    NO_MENTIONS,
    Name,
    find_team,
    guild_of,
    may_manage,
)
from db import rollerball2 as store
from host.follow import Followable, FollowButton
from host.leagues import LeagueHost, Outcome, Round, require_league_admin
from host.leagues.league_host import posting_lock
from host.listing import Entry, server_name
from host.notify import channel_link
from host.starting import expire_challenge, force_action, play_out
from render.rollerball2 import render_standings
from rules.rollerball2 import (
    Deadline,
    GameScore,
    RollerballError,
    clean_name,
    double_round_robin,
    roster_new_season,
    score_line,
    standings,
)
from ui import LookupOption, UserError, channel_by_id, display_name, fit, quote, shown
from ui.formats import plural
from ui.formats import timestamp as when
from ui.items import view_of

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


def fixture_line(fixture: store.Fixture, names: dict[int, str]) -> str:
    """A fixture as the schedule and the results list it, in the one score order
    (score_line): "Madrid 5 at Houston 6 (simulated), match #12", "Madrid at Houston"."""
    home = shown(names.get(fixture.home_team_id, "?"))
    away = shown(names.get(fixture.away_team_id, "?"))
    line = score_line(away, fixture.away_goals, home, fixture.home_goals)
    if fixture.how is None:
        return line
    how = " (simulated)" if fixture.how == "simulated" else ""
    return f"{line}{how}, match #{fixture.game_id}"


def schedule_fields(
    season: store.Season,
    fixtures: list[store.Fixture],
    names: dict[int, str],
    played_only: bool = False,
) -> list[tuple[str, str]]:
    """A field per matchday (with `played_only`, per matchday with a fixture played): its
    deadline in force (none while the season is paused) and its fixtures."""
    fields = []
    for matchday in range(1, season.matchdays + 1):
        day = [f for f in fixtures if f.matchday == matchday]
        shown_day = [f for f in day if f.how is not None] if played_only else day
        if not shown_day:
            continue
        lines = [fixture_line(f, names) for f in shown_day]
        if season.paused_at is not None and matchday >= season.current_matchday:
            title = f"Matchday {matchday} · no deadline while paused"
        else:
            title = f"Matchday {matchday} · deadline {when(min(f.deadline for f in day))}"
        fields.append((title[:256], fit("\n".join(lines), 1024)))
    return fields


def deadline_policies(season: store.Season) -> str:
    """What happens at a season's deadlines and what its admins may do (rulings D7, D10-D13):
    the season's card (its creation, schedule and table) says it."""
    if season.vacation_pauses:
        away = (
            "A coach's vacation (`/settings vacation`) puts off the deadline of the matchday "
            "whose fixture of theirs is not played yet."
        )
    else:
        away = "Matchdays are played at their deadline whoever is on vacation."
    return (
        f"At a deadline the default coaches play every fixture not played. {away} Admins may "
        "extend a matchday (`/rollerball2 season extend`), pause the season (`season pause`, "
        "`season resume`) or play a matchday now (`season play`)."
    )


async def season_status(bot: Ballcourt, season: store.Season) -> str:
    """Where the season stands: the current matchday's deadline (put off for vacations, or
    none while paused), then its policies."""
    if season.over:
        line = "Every matchday has been played."
    elif season.paused_at is not None:
        line = (
            f"Paused by an admin since {when(season.paused_at)}: no deadline runs until "
            f"`/rollerball2 season resume`, which gives matchday {season.current_matchday} "
            "the time it had left."
        )
    else:
        clock = await season_clock.clock_of(bot, season)
        due = clock.deadline(season.current_matchday)
        line = (
            f"Matchday {season.current_matchday} of {season.matchdays} is due "
            f"{when(due, 'R')} ({when(due)})."
        )
        if due < time.time() - 60:
            line += (
                " It stays open until its fixtures' teams are free of their other matches, "
                "then is settled (ruling D14)."
            )
        elif clock.put_off:
            line += " Put off while coaches were on vacation."
    return f"{line}\n{deadline_policies(season)}"


async def team_names(bot: Ballcourt, season: store.Season) -> dict[int, str]:
    return {team_id: name for team_id, name, _ in await store.team_names(bot.db, season.guild_id)}


async def table_rows(bot: Ballcourt, season: store.Season) -> list:
    names = await team_names(bot, season)
    fixtures = await store.fixtures_of(bot.db, season.id)
    teams = [names[t] for t in await store.season_team_ids(bot.db, season.id) if t in names]
    scores = [
        GameScore(names[f.home_team_id], names[f.away_team_id], f.home_goals, f.away_goals)
        for f in fixtures
        if f.how is not None and f.home_goals is not None and f.away_goals is not None
    ]
    return standings(teams, scores)


async def standings_files(bot: Ballcourt, season: store.Season) -> list[discord.File]:
    rows = await table_rows(bot, season)
    pages = await asyncio.to_thread(render_standings, f"{season.name} standings", rows)
    return [
        discord.File(io.BytesIO(page), filename=f"standings-{index}.png")
        for index, page in enumerate(pages, start=1)
    ]


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


# ---- the deadline ---------------------------------------------------------------------------


async def simulate_fixture(
    bot: Ballcourt, adapter: Rollerball2Matches, fixture: store.Fixture, season: store.Season
) -> int | None:
    """A fixture nobody played by its deadline, simulated by the default coaches and stored
    finished at once (the saved line-ups, a player who may not play replaced as in any match).
    Its match id; None if one of its teams is busy or gone, or the fixture is settled already
    (store.FixtureTaken: its match is then the fixture)."""
    home = await store.load_team(bot.db, fixture.home_team_id)
    away = await store.load_team(bot.db, fixture.away_team_id)
    if home is None or away is None:
        return None
    options = await match_options(bot, home, away, "simulate")
    options["fixture_id"] = fixture.id
    try:
        game_id, _ = await play_out(
            bot.matches,
            adapter,
            options,
            guild_id=season.guild_id,
            channel_id=season.channel_id,
            names=["the bot"],
            on_create=registrar(season.guild_id, home, away, "simulate", fixture.id),
        )
    except (store.TeamBusy, store.FixtureTaken):
        return None
    return game_id


def _finish(adapter: Any, match: Any) -> tuple[int, Any]:
    seats = sorted(adapter.engine.actors(match.engine)) or [0]
    return seats[0], Deadline()


async def settle_matchday(
    bot: Ballcourt,
    adapter: Rollerball2Matches,
    season: store.Season,
    matchday: int,
    played_by: str | None = None,
) -> int:
    """Settle every unplayed fixture of the matchday (see the module docstring). The caller
    holds the season's lock, so a deadline and an admin's `season play` never settle one twice;
    a match under way is told why (its deadline passed, or `played_by`, an admin, played the
    matchday now). Returns how many fixtures it settled."""
    if played_by is None:
        reason = f"The deadline of {shown(season.name)}, matchday {matchday}, has passed"
        first = "The deadline passed first."
    else:
        reason = f"{shown(played_by)} played matchday {matchday} of {shown(season.name)} now"
        first = "The matchday was played first."
    settled = 0
    for fixture in await store.fixtures_of(bot.db, season.id, matchday):
        if fixture.how is not None:
            continue
        settled += 1
        running = await store.open_game_of_fixture(bot.db, fixture.id)
        if running is not None:
            game_id, status = running
            why = f"{reason}: the default coaches play this match to the end."
            if status == "pending":
                await expire_challenge(bot.matches, game_id, first)
            elif await force_action(bot.matches, game_id, _finish, why=why):
                continue
        await simulate_fixture(bot, adapter, fixture, season)
    return settled


async def unsettled(bot: Ballcourt, season: store.Season, matchday: int) -> list[str]:
    """Under the season's lock, after settle_matchday: the matchday's fixtures still without a
    result, each with why ("Lima at Kobe: Kobe is playing match #12"). A matchday passes only
    when there is none (ruling D14)."""
    names = await team_names(bot, season)
    left = []
    for fixture in await store.fixtures_of(bot.db, season.id, matchday):
        if fixture.how is not None:
            continue
        why = "not settled"
        for team in (fixture.home_team_id, fixture.away_team_id):
            busy = await store.open_match_of(bot.db, team)
            if busy is not None:
                why = f"{shown(names.get(team, '?'))} is playing match #{busy}"
                break
        left.append(f"{fixture_line(fixture, names)}: {why}")
    return left


class Seasons:
    """Rollerball II's seasons on the league host (host/leagues/league_host.py `LeagueAdapter`):
    the host runs a matchday's deadline timer, the admins' pause, resume and extension, the
    coaches' vacations; at the deadline every unplayed fixture of the matchday is settled (the
    module docstring), the next matchday's deadline runs, and the results and the table are
    posted where the season was made. A timer of a paused season or of a matchday already over
    does nothing; a matchday whose deadline a coach's vacation puts off (ruling D12) waits
    instead."""

    lock_name = season_clock.LOCK_NAME
    deadline_event = DEADLINE_EVENT
    title = "the Rollerball II seasons"
    gone = "That season no longer exists."
    # None: a matchday that failed to settle keeps its fixtures for an admin's `season play`.
    retry_seconds: float | None = None

    def __init__(self, bot: Ballcourt, adapter: Rollerball2Matches) -> None:
        self.bot = bot
        self.adapter = adapter

    async def load_league(self, league_id: int) -> store.Season | None:
        return await store.load_season(self.bot.db, league_id)

    def timer_target(self, payload: dict[str, Any]) -> tuple[int, Round]:
        return int(payload["season"]), (int(payload["matchday"]),)

    def round_of(self, league: store.Season) -> Round:
        return (league.current_matchday,)

    def deadline_runs(self, league: store.Season) -> bool:
        return league.paused_at is None and not league.over

    def vacations_count(self, league: store.Season) -> bool:
        return league.vacation_pauses

    async def waits(self, league: store.Season, now: float) -> bool:
        return await season_clock.waits(self.bot, league, now)

    async def play(self, league: store.Season, now: float) -> None:
        await settle_matchday(self.bot, self.adapter, league, league.current_matchday)

    async def unsettled(self, league: store.Season) -> list[str]:
        return await unsettled(self.bot, league, league.current_matchday)

    async def next_round(self, league: store.Season, now: float) -> None:
        await season_clock.advance(self.bot, league)

    async def retry_at(self, league: store.Season, moment: float) -> None:
        """The current matchday's timer again at `moment`, its deadlines as they are."""
        await store.save_season_time(
            self.bot.db,
            league,
            current_matchday=league.current_matchday,
            deadlines={},
            paused_at=league.paused_at,
            resumed_at=league.resumed_at,
            timer_event=DEADLINE_EVENT,
            due_at=moment,
        )
        self.bot.timers.wake()

    async def recount(self, league: store.Season) -> bool:
        return await season_clock.recount(self.bot, league)

    async def waiting_for(self, user_id: int) -> list[int]:
        return await store.seasons_waiting_for(self.bot.db, user_id)

    async def league_ids(self) -> list[int]:
        # A season's timer is written in the transaction that saves its time (save_season_time):
        # what a crash can leave undone is a matchday's results post.
        return await store.seasons_unposted(self.bot.db)

    async def repair(self, league: store.Season) -> None:
        pass  # its timer is never lost (above); its posts follow (published)

    async def published(self, league_id: int, outcome: Outcome) -> None:
        """A matchday played at its deadline (or one a crash left unposted): its results and
        the table where the season was made, and to its followers."""
        if outcome in ("played", "repaired"):
            await post_results(self.bot, league_id)

    async def games_entries(self, user_id: int, now: float) -> list[Entry]:
        """/games: each fixture of the current matchday that a team the user coaches has still
        to start (a fixture being played is listed as the match it is), with its deadline."""
        found = []
        for waiting in await store.fixtures_to_play(self.bot.db, user_id):
            season, fixture = waiting.season, waiting.fixture
            if season.paused_at is not None:
                state = "paused by the season's admins"
            else:
                state = f"matchday {fixture.matchday}: **start your match** (`/rollerball2 match start`)"
            found.append(
                Entry(
                    season.paused_at is None,
                    f"Rollerball II season {shown(season.name)}",
                    server_name(self.bot, season.guild_id),
                    # one score order everywhere: the visitors first, at the home team
                    f"{shown(waiting.away)} at {shown(waiting.home)}",
                    state,
                    channel_link(season.guild_id, season.channel_id),
                    fixture.deadline if season.paused_at is None else None,
                    "deadline",
                )
            )
        return found


SeasonHost = LeagueHost[store.Season]


async def matchday_text(bot: Ballcourt, season: store.Season, matchday: int, why: str) -> str:
    names = await team_names(bot, season)
    fixtures = await store.fixtures_of(bot.db, season.id, matchday)
    lines = [fixture_line(f, names) for f in fixtures]
    return fit(
        f"**{shown(season.name)}, matchday {matchday}**: {why}\n"
        + "\n".join(f"• {line}" for line in lines)
        + "\n`/rollerball2 match boxscore match_id:` shows a match's box score again; "
        "`/rollerball2 match record match_id:` gives its verifiable record."
    )


async def post_results(bot: Ballcourt, season_id: int) -> None:
    """Post the results of every matchday settled at its deadline and not posted yet, oldest
    first, each marked posted once it was. Its settling saved the matchday first, so a crash
    between the two leaves it for the start-up repair (LeagueHost) to post, once. Under a lock
    of the league host's, not the season's (a command on the season must not wait behind Discord's limits
    on posts): one poster at a time, so none is posted twice."""
    async with posting_lock(bot, season_clock.LOCK_NAME, season_id):
        season = await store.load_season(bot.db, season_id)
        if season is None:
            return
        for matchday in range(season.posted_matchday + 1, season.current_matchday):
            await announce(bot, season, matchday)
            await store.mark_posted(bot.db, season.id, matchday)


async def announce(bot: Ballcourt, season: store.Season, matchday: int) -> None:
    text = await matchday_text(bot, season, matchday, "the deadline has passed.")
    await announce_text(bot, season, text)
    await tell_followers(bot, season, matchday, text)


async def announce_text(bot: Ballcourt, season: store.Season, text: str) -> None:
    """Post a matchday's results and the table where the season was made."""
    try:
        channel = await channel_by_id(bot, season.channel_id)
        files = await standings_files(bot, season)
        await channel.send(
            text, files=files, view=follow_view(season), allowed_mentions=NO_MENTIONS
        )
    except discord.HTTPException as error:
        log.warning("could not announce in season %s: %s", season.id, error)


# ---- following (host/follow.py) -------------------------------------------------------------


def follow_view(season: store.Season) -> discord.ui.View:
    """Follow under the season's card and each matchday's results."""
    return view_of([FollowButton("league", f"rollerball2:{season.id}")])


async def coaches(bot: Ballcourt, season: store.Season) -> set[int]:
    teams = await store.season_team_ids(bot.db, season.id)
    return {
        owner
        for team_id, _, owner in await store.team_names(bot.db, season.guild_id)
        if team_id in teams
    }


async def followable(bot: Ballcourt, target: str) -> Followable | None:
    """The season "rollerball2:ID" as a follower follows it: its coaches are told already."""
    season_id = target.split(":", 1)[1]
    season = await store.load_season(bot.db, int(season_id)) if season_id.isdigit() else None
    if season is None:
        return None
    return Followable(
        "league",
        target,
        f"Rollerball II season {shown(season.name)}",
        season.guild_id,
        frozenset(await coaches(bot, season)),
        over=season.over,
    )


async def tell_followers(bot: Ballcourt, season: store.Season, matchday: int, text: str) -> None:
    """A matchday's results to the followers of the season and of its teams, once each."""
    teams = await store.season_team_ids(bot.db, season.id)
    await bot.matches.follows.tell(
        [("league", f"rollerball2:{season.id}"), *(("team", f"rollerball2:{t}") for t in teams)],
        season.guild_id,
        [(f"rollerball2:season:{season.id}:matchday:{matchday}", text.split("\n`/")[0])],
        channel=await channel_by_id(bot, season.channel_id),
        link=channel_link(season.guild_id, season.channel_id),
        members=await coaches(bot, season),
    )


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
    files = await standings_files(bot, season)
    await interaction.followup.send(
        text, files=files, view=follow_view(season), allowed_mentions=NO_MENTIONS
    )
    if interaction.channel_id != season.channel_id:
        await announce_text(bot, season, text)
    await tell_followers(bot, season, matchday, text)
    await store.mark_posted(bot.db, season.id, matchday)


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
