"""Statistics, summed from the stored scoresheets of this server's finished matches
(rules.rollerball2.stats): a player's career and his matches, a team's record, the leaders,
a team's history. A player is known by team and uniform number, so a rename keeps his career;
a renamed team keeps its past (its matches are read by team id)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from cogs.rollerball2.seasons import stamp
from cogs.rollerball2.teams import embed_colour, find_player, find_team, guild_of
from db import rollerball2 as store
from rules.rollerball2 import career_stats, leaders, lines_for, match_stats, team_stats
from ui import UserError, fit

if TYPE_CHECKING:
    from bot import Ballcourt

NO_MENTIONS = discord.AllowedMentions.none()
LEADER_TITLES = {
    "goals": "Goals",
    "assists": "Assists",
    "penalty_minutes": "Penalty minutes",
    "casualties": "Casualties (opponents knocked out)",
}
RECENT = 10


def _opponent(item: store.StoredResult, team_id: int) -> tuple[str, str, int, int]:
    """(where, opponent, goals for, goals against) of a finished match for one team."""
    res = item.result
    if item.home_team_id == team_id:
        return "vs", res.away.team, res.home_score, res.away_score
    return "at", res.home.team, res.away_score, res.home_score


def _verdict(scored: int, conceded: int) -> str:
    return "W" if scored > conceded else "L" if scored < conceded else "T"


async def player(bot: Ballcourt, interaction: discord.Interaction, text: str) -> None:
    team, number = await find_player(bot, interaction, text)
    card = team.roster.card(number)
    history = await store.results(bot.db, guild_id=guild_of(interaction), team_id=team.id)
    lines = lines_for([item.result for item in history], team.name, number)
    total = career_stats(lines)
    embed = discord.Embed(
        title=f"#{number} {card.name} ({team.name})",
        description=(
            f"{card.position}, {card.experience.upper()} · {total.matches} matches on the track\n"
            f"**{total.goals}** goals · **{total.assists}** assists · **{total.penalty_minutes}** "
            f"penalty minutes · **{total.catches}** catches · **{total.casualties}** casualties "
            f"· **{total.injuries}** injuries"
        ),
        colour=embed_colour(team),
    )
    rows = []
    for item in history:
        for line in lines_for([item.result], team.name, number):
            if not (line.on_track or line.penalty_minutes or line.injury):
                continue
            where, other, scored, conceded = _opponent(item, team.id)
            stats = match_stats(line)
            parts = [
                f"{stats.goals} G",
                f"{stats.assists} A",
                f"{stats.penalty_minutes} PIM",
                f"{stats.catches} C",
                f"{stats.casualties} KO",
            ]
            hurt = f" · hurt: {line.injury}" if line.injury else ""
            rows.append(
                f"#{item.game_id} {where} {other} {scored}-{conceded}: " + ", ".join(parts) + hurt
            )
    if rows:
        embed.add_field(
            name=f"Match by match (latest {min(RECENT, len(rows))})",
            value=fit("\n".join(rows[-RECENT:]), 1024),
            inline=False,
        )
    else:
        embed.add_field(name="Matches", value="He has not played a finished match yet.")
    embed.set_footer(text="G goals, A assists, PIM penalty minutes, C catches, KO casualties")
    await interaction.response.send_message(embed=embed, allowed_mentions=NO_MENTIONS)


async def team(bot: Ballcourt, interaction: discord.Interaction, name: str) -> None:
    found = await find_team(bot, interaction, name)
    history = await store.results(bot.db, guild_id=guild_of(interaction), team_id=found.id)
    totals = team_stats([item.result for item in history], found.name)
    embed = discord.Embed(title=f"{found.name}: the record", colour=embed_colour(found))
    if not totals.played:
        embed.description = "No finished match yet."
    else:
        embed.description = (
            f"**{totals.record}** (W-L-T) in {totals.played} matches\n"
            f"Goals: {totals.goals_for} for, {totals.goals_against} against\n"
            f"Casualties: {totals.casualties} inflicted, {totals.casualties_suffered} suffered\n"
            f"Penalty minutes: {totals.penalty_minutes}"
        )
    await interaction.response.send_message(embed=embed, allowed_mentions=NO_MENTIONS)


async def leaders_board(bot: Ballcourt, interaction: discord.Interaction) -> None:
    history = await store.results(bot.db, guild_id=guild_of(interaction))
    if not history:
        raise UserError("No Rollerball II match has finished in this server yet.")
    results = [item.result for item in history]
    embed = discord.Embed(
        title="Rollerball II leaders in this server",
        description=f"Over {len(results)} finished matches.",
        colour=discord.Colour(0xCC79A7),
    )
    for stat, title in LEADER_TITLES.items():
        board = leaders(results, stat, 5)
        value = "\n".join(
            f"{place}. {leader.name} (#{leader.number}, {leader.team}): **{leader.value}**"
            for place, leader in enumerate(board, start=1)
        )
        embed.add_field(name=title, value=fit(value or "nobody yet", 1024), inline=False)
    await interaction.response.send_message(embed=embed, allowed_mentions=NO_MENTIONS)


async def history(bot: Ballcourt, interaction: discord.Interaction, name: str) -> None:
    found = await find_team(bot, interaction, name)
    items = await store.results(bot.db, guild_id=guild_of(interaction), team_id=found.id)
    if not items:
        raise UserError(f"{found.name} has not finished a match yet.")
    lines = []
    for item in items[-20:]:
        where, other, scored, conceded = _opponent(item, found.id)
        season = " · season" if item.fixture_id is not None else ""
        lines.append(
            f"{stamp(item.finished_at, 'd')} **{_verdict(scored, conceded)}** {scored}-{conceded} "
            f"{where} {other} (match #{item.game_id}{season})"
        )
    embed = discord.Embed(
        title=f"{found.name}: the last {len(lines)} of {len(items)} matches",
        description="\n".join(lines),
        colour=embed_colour(found),
    )
    embed.set_footer(text="/rollerball2 match record id: gives a match's verifiable record")
    await interaction.response.send_message(embed=embed, allowed_mentions=NO_MENTIONS)
