"""Statistics on Discord: `/rollerball2 stats player` and `stats team`, `leaders`, `history`
and the league-wide `injuries` report, each for all time or for one season.

Every figure is read from the rows a finished match writes (db/rollerball2/stats.py: a player's and a
team's line of each match and their sums, kept in the match's final transaction), by key or
ranked by the database, so no command here reads a scoresheet or grows with the number of
finished matches. A player is known by team and uniform number, so a rename keeps his career;
a renamed team keeps its past (its rows are kept by team id). Season figures count the season's
fixtures only (rules: docs/rules/rollerball2.md, "Teams, seasons and statistics").
"""

from __future__ import annotations

import discord
from discord import app_commands

from cogs import bot_of
from cogs.rollerball2.seasons import SeasonArg
from cogs.rollerball2.teams import (
    EXPERIENCE_LETTER,
    NO_MENTIONS,
    PlayerArg,
    TeamArg,
    embed_colour,
    guild_of,
)
from db import rollerball2 as store
from db.database import Database
from rules.rollerball2 import (
    DRAW_POINTS,
    LEADER_STATS,
    WIN_POINTS,
    absence_status,
    gone_for_good_absence,
    player_status,
    score_line,
)
from ui import UserError, fit, shown
from ui.formats import plural
from ui.formats import timestamp as when

COLOUR = discord.Colour(0xCC79A7)
LEADER_TITLES = {
    "points": "Points (goals + assists)",
    "goals": "Goals",
    "assists": "Assists",
    "catches": "Catches",
    "penalty_minutes": "Penalty minutes",
    "casualties": "Casualties (opponents knocked out)",
}
assert set(LEADER_TITLES) == set(LEADER_STATS)
RECENT_MATCHES = 10  # a player's match-by-match lines
HISTORY_MATCHES = 20  # a team's history lines
LEADERS = 5  # places per leaders table


def _scope(season: store.Season | None) -> int:
    return store.ALL_TIME if season is None else season.id


def _where(season: store.Season | None) -> str:
    return "all time" if season is None else shown(season.name)


def _score(match: store.PlayedMatch) -> str:
    """A finished match in the one score order (score_line)."""
    return score_line(shown(match.away), match.away_goals, shown(match.home), match.home_goals)


def _verdict(match: store.PlayedMatch) -> str:
    return "W" if match.won else "L" if match.lost else "T"


async def player_embed(
    db: Database, guild_id: int, team: store.Team, number: int, season: store.Season | None
) -> discord.Embed:
    """A player's career (or season) and his latest matches."""
    card = team.roster.card(number)
    total = await store.player_totals(db, guild_id, team.id, number, _scope(season))
    recent = await store.player_matches(
        db, team.id, number, season.id if season else None, RECENT_MATCHES
    )
    embed = discord.Embed(
        title=f"#{number} {shown(card.name)} ({shown(team.name)}): {_where(season)}",
        description=(
            f"{card.position}, {EXPERIENCE_LETTER[card.experience]} · "
            f"{player_status(team.roster, number)} · {total.matches} matches on the track\n"
            f"**{total.goals}** goals · **{total.assists}** assists · **{total.points}** points"
            f" · **{total.penalty_minutes}** penalty minutes · **{total.catches}** catches · "
            f"**{total.casualties}** casualties · **{total.injuries}** injuries"
        ),
        colour=embed_colour(team),
    )
    rows = []
    for line in reversed(recent):  # oldest of the latest first, as a log reads
        stats = line.stats
        hurt = f" · hurt: {shown(line.injury)}" if line.injury else ""
        rows.append(
            f"#{line.match.game_id} {_verdict(line.match)} {_score(line.match)}: "
            f"{stats.goals} G, {stats.assists} A, {stats.points} P, {stats.penalty_minutes} PIM, "
            f"{stats.catches} C, {stats.casualties} KO{hurt}"
        )
    if rows:
        embed.add_field(
            name=f"Match by match (latest {len(rows)})",
            value=fit("\n".join(rows), 1024),
            inline=False,
        )
    else:
        embed.add_field(name="Matches", value="He has not played a finished match here yet.")
    embed.set_footer(
        text="G goals, A assists, P points, PIM penalty minutes, C catches, KO casualties"
    )
    return embed


async def team_embed(
    db: Database, guild_id: int, team: store.Team, season: store.Season | None
) -> discord.Embed:
    """A team's record over all time or a season."""
    totals = await store.team_totals(db, guild_id, team.id, _scope(season))
    embed = discord.Embed(
        title=f"{shown(team.name)}: the record, {_where(season)}", colour=embed_colour(team)
    )
    if not totals.played:
        embed.description = "No finished match yet."
        return embed
    lines = [
        f"**{totals.record}** (W-L-T) in {totals.played} matches",
        f"Goals: {totals.goals_for} for, {totals.goals_against} against",
        f"Assists: {totals.assists} · Catches: {totals.catches}",
        f"Casualties: {totals.casualties} inflicted, {totals.casualties_suffered} suffered",
        f"Penalty minutes: {totals.penalty_minutes} · Injuries: {totals.injuries}",
    ]
    if season is not None:
        points = WIN_POINTS * totals.won + DRAW_POINTS * totals.drawn
        lines.append(f"Table points: {points} ({WIN_POINTS} a win, {DRAW_POINTS} a draw)")
    embed.description = "\n".join(lines)
    return embed


async def leaders_embed(
    db: Database, guild_id: int, season: store.Season | None
) -> discord.Embed | None:
    """The server's leaders (all time or a season); None when no match has finished."""
    scope = _scope(season)
    played = await store.matches_counted(db, guild_id, scope)
    if not played:
        return None
    title = "in this server" if season is None else f"of {shown(season.name)}"
    embed = discord.Embed(
        title=f"Rollerball II leaders {title}",
        description=f"Over {plural(played):finished match|finished matches}.",
        colour=COLOUR,
    )
    tables = await store.leader_tables(db, guild_id, LEADER_STATS, scope, LEADERS)
    for stat, heading in LEADER_TITLES.items():
        board = tables[stat]
        value = "\n".join(
            f"{place}. {shown(leader.name)} (#{leader.number}, {shown(leader.team)}): "
            f"**{leader.value}**"
            for place, leader in enumerate(board, start=1)
        )
        embed.add_field(name=heading, value=fit(value or "nobody yet", 1024), inline=False)
    return embed


async def history_embed(
    db: Database, guild_id: int, team: store.Team, season: store.Season | None
) -> discord.Embed | None:
    """A team's latest matches (all time or a season); None before its first."""
    totals = await store.team_totals(db, guild_id, team.id, _scope(season))
    if not totals.played:
        return None
    recent = await store.team_matches(db, team.id, season.id if season else None, HISTORY_MATCHES)
    lines = [
        f"{when(match.finished_at, 'd')} **{_verdict(match)}** {_score(match)} "
        f"(match #{match.game_id}{' · season' if match.season_id else ''})"
        for match in reversed(recent)
    ]
    where = "" if season is None else f" of {shown(season.name)}"
    embed = discord.Embed(
        title=f"{shown(team.name)}: the last {len(lines)} of {totals.played} matches{where}",
        description=fit("\n".join(lines), 4000),
        colour=embed_colour(team),
    )
    embed.set_footer(
        text="/rollerball2 match boxscore match_id: shows a match's box score again; "
        "match record match_id: its verifiable record"
    )
    return embed


async def injury_embed(
    db: Database, guild_id: int, season: store.Season | None
) -> discord.Embed | None:
    """Who misses matches, team by team (a season's teams, or every team of the server):
    injured and banned players with how long and why; the dead and the banned for life are on
    each team's roster (`team show`). None when there is no team."""
    teams = await store.players_out(db, guild_id)
    if season is not None:
        wanted = set(await store.season_team_ids(db, season.id))
        teams = [team for team in teams if team[0] in wanted]
    if not teams:
        return None
    where = "this server" if season is None else shown(season.name)
    embed = discord.Embed(title=f"Injury report: {where}", colour=COLOUR)
    out = 0
    for _, name, players in teams:
        lines = [
            f"#{player.number} {shown(player.name)} ({player.position}): "
            f"{absence_status(player.absence)}"
            + (f" · {shown(player.absence.reason)}" if player.absence.reason else "")
            for player in players
            if not gone_for_good_absence(player.absence)
        ]
        if lines and len(embed.fields) < 25:
            out += len(lines)
            embed.add_field(name=shown(name)[:256], value=fit("\n".join(lines), 1024))
    embed.description = (
        f"{plural(out):player} out injured or banned." if out else "Everybody is fit to play."
    )
    embed.set_footer(text="The dead and the banned for life: /rollerball2 team show")
    return embed


async def _send(interaction: discord.Interaction, embed: discord.Embed) -> None:
    await interaction.response.send_message(embed=embed, allowed_mentions=NO_MENTIONS)


SEASON_HELP = "A season (default: all time)"


class StatsCommands(app_commands.Group, name="stats", description="Statistics"):
    """`/rollerball2 stats ...`."""

    @app_commands.command(name="player", description="A player's career and matches")
    @app_commands.describe(player="Start typing a name", season=SEASON_HELP)
    async def player(
        self,
        interaction: discord.Interaction,
        player: PlayerArg,
        season: SeasonArg | None = None,
    ) -> None:
        bot = bot_of(interaction)
        team, number = player
        await _send(
            interaction, await player_embed(bot.db, guild_of(interaction), team, number, season)
        )

    @app_commands.command(
        name="team", description="A team's W-L-T, goals, assists, catches, casualties"
    )
    @app_commands.describe(season=SEASON_HELP)
    async def team(
        self, interaction: discord.Interaction, team: TeamArg, season: SeasonArg | None = None
    ) -> None:
        bot = bot_of(interaction)
        await _send(interaction, await team_embed(bot.db, guild_of(interaction), team, season))


# ---- top-level commands of /rollerball2 -------------------------------------------------------


@app_commands.command(
    name="leaders", description="Points, goals, assists, catches, penalties, casualties here"
)
@app_commands.describe(season=SEASON_HELP)
async def leaders(interaction: discord.Interaction, season: SeasonArg | None = None) -> None:
    bot = bot_of(interaction)
    embed = await leaders_embed(bot.db, guild_of(interaction), season)
    if embed is None:
        where = "in this server" if season is None else f"in {shown(season.name)}"
        raise UserError(f"No Rollerball II match has finished {where} yet.")
    await _send(interaction, embed)


@app_commands.command(name="history", description="A team's matches")
@app_commands.describe(season=SEASON_HELP)
async def history(
    interaction: discord.Interaction, team: TeamArg, season: SeasonArg | None = None
) -> None:
    bot = bot_of(interaction)
    embed = await history_embed(bot.db, guild_of(interaction), team, season)
    if embed is None:
        where = "" if season is None else f" in {shown(season.name)}"
        raise UserError(f"{shown(team.name)} has not finished a match{where} yet.")
    await _send(interaction, embed)


@app_commands.command(name="injuries", description="Who is injured or banned, team by team")
@app_commands.describe(season="Only this season's teams (default: every team here)")
async def injuries(interaction: discord.Interaction, season: SeasonArg | None = None) -> None:
    bot = bot_of(interaction)
    embed = await injury_embed(bot.db, guild_of(interaction), season)
    if embed is None:
        raise UserError("There are no Rollerball II teams here yet: `/rollerball2 team create`.")
    await _send(interaction, embed)


TOP_LEVEL_COMMANDS = (leaders, history, injuries)
