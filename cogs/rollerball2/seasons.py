"""Seasons on Discord: a double round robin of a server's teams, one deadline per matchday.

Rulings (docs/rules/rollerball2.md, "On Discord"; the seed has no league rules):
- A season is made by a server admin (Manage Server), or by a coach of every team in it. Its
  teams start it with a new season's roster (season-long absences end: roster_new_season).
- A team plays one season at a time (it may not join another while it has fixtures to play).
- A match started between two of its teams, with the fixture's home and away team, is that
  fixture (any mode); it counts once, when it ends.
- At a matchday's deadline (a durable timer written with the season) every fixture of that
  matchday still unplayed is settled: a challenge nobody accepted is withdrawn, a match being
  played is finished by the default coaches, and one never started is simulated. Each fixture
  counts exactly once: its score is written only while it has none, in the transaction that
  stores its match's end.
"""

from __future__ import annotations

import asyncio
import io
import logging
import time
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from cogs.rollerball2.matches import Rollerball2Matches, simulate_fixture
from cogs.rollerball2.play import Deadline
from cogs.rollerball2.teams import find_team, guild_of, may_manage
from db import rollerball2 as store
from host.direct import expire_challenge, force_action
from render.rollerball2 import render_standings
from rules.rollerball2 import (
    GameScore,
    RollerballError,
    clean_name,
    double_round_robin,
    roster_new_season,
    standings,
)
from ui import UserError, fit, quote

if TYPE_CHECKING:
    from bot import Ballcourt
    from db.timers import Timer

log = logging.getLogger(__name__)

DEADLINE_EVENT = "rollerball2_deadline"
NO_MENTIONS = discord.AllowedMentions.none()


def stamp(seconds: float, style: str = "f") -> str:
    """A Discord timestamp: every reader sees it in their own time zone."""
    return f"<t:{int(seconds)}:{style}>"


async def season_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    bot: Ballcourt = interaction.client  # type: ignore[assignment]
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


async def create(
    bot: Ballcourt,
    interaction: discord.Interaction,
    name: str,
    team_list: str | None,
    hours: int,
) -> None:
    guild_id = guild_of(interaction)
    name = clean_name(name, "The season's name")
    if team_list:
        wanted = [part.strip() for part in team_list.split(",") if part.strip()]
        teams = [await find_team(bot, interaction, part) for part in wanted]
    else:
        teams = await store.teams_in_guild(bot.db, guild_id)
    if len({team.id for team in teams}) != len(teams):
        raise UserError("A team is named twice: list each team once, separated by commas.")
    admin = bool(getattr(interaction, "permissions", None) and interaction.permissions.manage_guild)
    strangers = [team.name for team in teams if not may_manage(interaction, team)]
    if strangers and not admin:
        raise UserError(
            f"A season with teams you do not coach ({', '.join(strangers[:5])}) is made by a "
            "server admin (Manage Server). List only your own teams, or ask an admin."
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
        )
    except store.SeasonNameTaken:
        raise UserError(
            f"A season called {name} exists here already: choose another name."
        ) from None
    except store.TeamInSeason as error:
        team = next((t.name for t in teams if t.id == error.team_id), "A team")
        raise UserError(
            f"{team} still has fixtures to play in {error.season}: a team plays one season at "
            "a time. Nothing was created."
        ) from None
    bot.timers.wake()
    names = {team.id: team.name for team in teams}
    fixtures = await store.fixtures_of(bot.db, season.id)
    embed = discord.Embed(
        title=f"Rollerball II season: {season.name}",
        description=(
            f"{len(teams)} teams, {season.matchdays} matchdays (every pair home and away), "
            f"{hours} hours each. Play a fixture with `/rollerball2 match start` (its home and "
            "away team, any mode); at each deadline the fixtures not played are simulated. "
            "Season-long injuries and bans are over."
        ),
        colour=discord.Colour(0xCC79A7),
    )
    for title, value in schedule_fields(season, fixtures, names)[:10]:
        embed.add_field(name=title, value=value, inline=False)
    await interaction.response.send_message(embed=embed, allowed_mentions=NO_MENTIONS)


def fixture_line(fixture: store.Fixture, names: dict[int, str]) -> str:
    home, away = names.get(fixture.home_team_id, "?"), names.get(fixture.away_team_id, "?")
    if fixture.how is None:
        return f"{away} at {home}"
    how = " (simulated)" if fixture.how == "simulated" else ""
    return (
        f"{away} {fixture.away_goals} – {fixture.home_goals} {home}{how}, match #{fixture.game_id}"
    )


def schedule_fields(
    season: store.Season, fixtures: list[store.Fixture], names: dict[int, str]
) -> list[tuple[str, str]]:
    fields = []
    for matchday in range(1, season.matchdays + 1):
        day = [f for f in fixtures if f.matchday == matchday]
        lines = [fixture_line(f, names) for f in day] or ["(a rest day)"]
        title = f"Matchday {matchday} · deadline {stamp(season.deadline(matchday))}"
        fields.append((title[:256], fit("\n".join(lines), 1024)))
    return fields


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


async def show_standings(bot: Ballcourt, interaction: discord.Interaction, name: str | None):
    season = await find_season(bot, interaction, name)
    await interaction.response.defer(thinking=True)
    files = await standings_files(bot, season)
    await interaction.followup.send(
        f"**{season.name}**: 2 points a win, 1 a draw; ties by goal difference, then goals "
        "scored, then the name.",
        files=files,
    )


async def show_schedule(
    bot: Ballcourt, interaction: discord.Interaction, name: str | None, played_only: bool
) -> None:
    season = await find_season(bot, interaction, name)
    names = await team_names(bot, season)
    fixtures = await store.fixtures_of(bot.db, season.id)
    if played_only:
        fixtures = [f for f in fixtures if f.how is not None]
        if not fixtures:
            raise UserError(f"No match of {season.name} has been played yet.")
    embed = discord.Embed(
        title=f"{season.name}: {'results' if played_only else 'schedule'}",
        colour=discord.Colour(0xCC79A7),
    )
    for title, value in schedule_fields(season, fixtures, names)[:25]:
        if played_only and value == "(a rest day)":
            continue
        embed.add_field(name=title, value=value, inline=False)
    await interaction.response.send_message(embed=embed, allowed_mentions=NO_MENTIONS)


# ---- the deadline ---------------------------------------------------------------------------


def _finish(adapter: Any, match: Any) -> tuple[int, Any]:
    seats = sorted(adapter.actors(match.engine)) or [0]
    return seats[0], Deadline()


async def on_deadline(bot: Ballcourt, adapter: Rollerball2Matches, timer: Timer) -> None:
    """Settle every unplayed fixture of the matchday (see the module docstring), then post the
    results and the table where the season was made."""
    season = await store.load_season(bot.db, timer.payload["season"])
    if season is None:
        return
    matchday = timer.payload["matchday"]
    for fixture in await store.fixtures_of(bot.db, season.id, matchday):
        if fixture.how is not None:
            continue
        running = await store.open_game_of_fixture(bot.db, fixture.id)
        if running is not None:
            game_id, status = running
            why = (
                f"The deadline of {season.name}, matchday {matchday}, has passed: the default "
                "coaches play this match to the end."
            )
            if status == "pending":
                await expire_challenge(bot.matches, game_id, "The deadline passed first.")
            elif await force_action(bot.matches, game_id, _finish, why=why):
                continue
        await simulate_fixture(bot, adapter, fixture, season)
    await announce(bot, season, matchday)


async def announce(bot: Ballcourt, season: store.Season, matchday: int) -> None:
    names = await team_names(bot, season)
    fixtures = await store.fixtures_of(bot.db, season.id, matchday)
    lines = [fixture_line(f, names) for f in fixtures]
    text = (
        f"**{season.name}, matchday {matchday}**: the deadline has passed.\n"
        + "\n".join(f"• {line}" for line in lines)
        + "\n`/rollerball2 match record id:` gives any match's verifiable record."
    )
    try:
        channel = bot.get_channel(season.channel_id) or await bot.fetch_channel(season.channel_id)
        files = await standings_files(bot, season)
        await channel.send(fit(text), files=files, allowed_mentions=NO_MENTIONS)  # type: ignore[union-attr]
    except discord.HTTPException as error:
        log.warning("could not announce %s matchday %s: %s", season.name, matchday, error)
