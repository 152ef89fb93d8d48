"""Rollerball II's slash commands (`/rollerball2`): teams, cards, matches on the shared match
host, seasons and statistics. The commands are declared here; what they do lives in
team_commands.py, matches.py, seasons.py and stats_commands.py."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.rollerball2 import matches, seasons, stats_commands, team_commands
from cogs.rollerball2.lineup import LINEUP_ITEMS, editor_text, editor_view
from cogs.rollerball2.subs import SUBSTITUTION_ITEMS
from cogs.rollerball2.teams import (
    POSITION_CHOICES,
    colour_autocomplete,
    find_team,
    parse_colour,
    player_autocomplete,
    require_manager,
    team_autocomplete,
)
from ui import rulebook

if TYPE_CHECKING:
    from bot import Ballcourt

RULEBOOK = rulebook.register(rulebook.Rulebook("rollerball2", "Rollerball II"))
Name = app_commands.Range[str, 1, 32]
Team = app_commands.Range[str, 1, 40]
Colour = app_commands.Range[str, 1, 20]


class RollerballII(commands.Cog):
    group = app_commands.Group(
        name="rollerball2",
        description="Rollerball II: the card-driven sports simulation",
        guild_only=True,
    )
    team = app_commands.Group(name="team", description="Teams and rosters", parent=group)
    match = app_commands.Group(name="match", description="Matches", parent=group)
    season = app_commands.Group(name="season", description="Seasons", parent=group)
    stats = app_commands.Group(name="stats", description="Statistics", parent=group)

    def __init__(self, bot: Ballcourt) -> None:
        self.bot = bot
        self.adapter = matches.Rollerball2Matches()
        bot.matches.register(self.adapter)
        bot.timers.register(seasons.DEADLINE_EVENT, self.on_deadline)

    async def on_deadline(self, timer) -> None:
        await seasons.on_deadline(self.bot, self.adapter, timer)

    # ---- teams -------------------------------------------------------------------------------

    @team.command(name="create", description="Found a team: 25 players generated")
    @app_commands.describe(name="Team name", colour="Main colour", colour2="Second colour")
    @app_commands.autocomplete(colour=colour_autocomplete, colour2=colour_autocomplete)
    async def team_create(
        self,
        interaction: discord.Interaction,
        name: Name,
        colour: Colour | None = None,
        colour2: Colour | None = None,
    ) -> None:
        await team_commands.create(
            self.bot,
            interaction,
            name,
            parse_colour(colour, "#0072b2"),
            parse_colour(colour2, "#f5f5f5"),
        )

    @team.command(name="import", description="Found a team from a roster CSV")
    @app_commands.describe(
        name="Team name",
        file="CSV: name,number,position,experience[,offense,defense]; at most 100 KB",
        colour="Main colour",
        colour2="Second colour",
    )
    @app_commands.autocomplete(colour=colour_autocomplete, colour2=colour_autocomplete)
    async def team_import(
        self,
        interaction: discord.Interaction,
        name: Name,
        file: discord.Attachment,
        colour: Colour | None = None,
        colour2: Colour | None = None,
    ) -> None:
        await team_commands.import_team(
            self.bot,
            interaction,
            name,
            file,
            parse_colour(colour, "#d55e00"),
            parse_colour(colour2, "#f5f5f5"),
        )

    @team.command(name="export", description="A team as CSV and printable card sheets")
    @app_commands.autocomplete(team=team_autocomplete)
    async def team_export(self, interaction: discord.Interaction, team: Team) -> None:
        await team_commands.export(self.bot, interaction, team)

    @team.command(name="show", description="A team's roster: who is fit, injured, banned, dead")
    @app_commands.autocomplete(team=team_autocomplete)
    async def team_show(self, interaction: discord.Interaction, team: Team) -> None:
        await team_commands.show(self.bot, interaction, team)

    @team.command(name="rename", description="Rename a player")
    @app_commands.describe(number="His uniform number", name="His new name")
    @app_commands.autocomplete(team=team_autocomplete)
    async def team_rename(
        self,
        interaction: discord.Interaction,
        team: Team,
        number: app_commands.Range[int, 0, 99],
        name: Name,
    ) -> None:
        await team_commands.rename(self.bot, interaction, team, number, name)

    @team.command(name="sign", description="Sign players, up to 25 who can play")
    @app_commands.describe(
        position="Generate players of this position",
        count="How many to generate (1)",
        file="Or a CSV of the players to sign",
    )
    @app_commands.choices(position=POSITION_CHOICES)
    @app_commands.autocomplete(team=team_autocomplete)
    async def team_sign(
        self,
        interaction: discord.Interaction,
        team: Team,
        position: app_commands.Choice[str] | None = None,
        count: app_commands.Range[int, 1, 25] = 1,
        file: discord.Attachment | None = None,
    ) -> None:
        await team_commands.sign(
            self.bot, interaction, team, position.value if position else None, count, file
        )

    @team.command(name="lineup", description="Set your line-up, slot by slot (only you see it)")
    @app_commands.autocomplete(team=team_autocomplete)
    async def team_lineup(self, interaction: discord.Interaction, team: Team) -> None:
        found = await find_team(self.bot, interaction, team)
        require_manager(interaction, found)
        await interaction.response.send_message(
            editor_text(found), view=editor_view(found), ephemeral=True
        )

    # ---- cards ---------------------------------------------------------------------------------

    @group.command(name="card", description="A player's card")
    @app_commands.describe(player="Start typing a name")
    @app_commands.autocomplete(player=player_autocomplete)
    async def card(
        self, interaction: discord.Interaction, player: app_commands.Range[str, 1, 100]
    ) -> None:
        await team_commands.card(self.bot, interaction, player)

    @group.command(name="fac", description="A Fast Action Card")
    async def fac(
        self, interaction: discord.Interaction, number: app_commands.Range[int, 1, 60]
    ) -> None:
        await team_commands.fac(interaction, number)

    @group.command(name="gamecard", description="Action Matrix, Random Player chart, penalties")
    async def gamecard(self, interaction: discord.Interaction) -> None:
        await team_commands.gamecard(interaction)

    @group.command(name="rules", description="How Rollerball II is played here, with the rulings")
    @app_commands.describe(topic="A topic, e.g. Substitutes or On Discord (default: the overview)")
    @app_commands.autocomplete(topic=RULEBOOK.autocomplete)
    async def rules(
        self, interaction: discord.Interaction, topic: app_commands.Range[str, 0, 60] = ""
    ) -> None:
        await interaction.response.send_message(**RULEBOOK.message(topic), ephemeral=True)

    # ---- matches -------------------------------------------------------------------------------

    @match.command(name="start", description="Start a match: solo, coach against coach, simulated")
    @app_commands.describe(
        home="Home team",
        away="Visiting team",
        mode="solo: you coach both; coaches: their coach accepts; simulate: the bot plays it",
        answer_minutes="coaches: a coach who does not answer in time gets the default coach",
    )
    @app_commands.choices(
        mode=[app_commands.Choice(name=m, value=m) for m in ("solo", "coaches", "simulate")]
    )
    @app_commands.autocomplete(home=team_autocomplete, away=team_autocomplete)
    async def match_start(
        self,
        interaction: discord.Interaction,
        home: Team,
        away: Team,
        mode: app_commands.Choice[str],
        answer_minutes: app_commands.Range[int, 2, 1440] = 30,
    ) -> None:
        await matches.start(
            self.bot, self.adapter, interaction, home, away, mode.value, answer_minutes
        )

    @match.command(name="record", description="A match's game record, verifiable at the end")
    async def match_record(self, interaction: discord.Interaction, id: int | None = None) -> None:
        await self.bot.matches.record(interaction, self.adapter, id)

    @match.command(name="board", description="Post the match here again, with its buttons")
    async def match_board(self, interaction: discord.Interaction) -> None:
        await self.bot.matches.board(interaction, self.adapter)

    @match.command(name="move", description="Type a move: next, until, sub home Skater2 31")
    async def match_move(
        self, interaction: discord.Interaction, move: app_commands.Range[str, 1, 60]
    ) -> None:
        await self.bot.matches.move_text(interaction, self.adapter, move)

    @match.command(name="resign", description="Hand your bench to the default coach")
    async def match_resign(self, interaction: discord.Interaction) -> None:
        await self.bot.matches.resign(interaction, self.adapter)

    # ---- seasons -------------------------------------------------------------------------------

    @season.command(name="create", description="A double round robin with a deadline a matchday")
    @app_commands.describe(
        name="Season name",
        teams="Teams, separated by commas (default: every team here)",
        hours="Hours per matchday: unplayed matches are simulated at its end",
    )
    async def season_create(
        self,
        interaction: discord.Interaction,
        name: Name,
        teams: app_commands.Range[str, 1, 1000] | None = None,
        hours: app_commands.Range[int, 1, 720] = 48,
    ) -> None:
        await seasons.create(self.bot, interaction, name, teams, hours)

    @season.command(name="standings", description="The season's table")
    @app_commands.autocomplete(season=seasons.season_autocomplete)
    async def season_standings(
        self, interaction: discord.Interaction, season: Name | None = None
    ) -> None:
        await seasons.show_standings(self.bot, interaction, season)

    @season.command(name="schedule", description="Every matchday with its deadline")
    @app_commands.autocomplete(season=seasons.season_autocomplete)
    async def season_schedule(
        self, interaction: discord.Interaction, season: Name | None = None
    ) -> None:
        await seasons.show_schedule(self.bot, interaction, season, played_only=False)

    @season.command(name="results", description="The season's played matches")
    @app_commands.autocomplete(season=seasons.season_autocomplete)
    async def season_results(
        self, interaction: discord.Interaction, season: Name | None = None
    ) -> None:
        await seasons.show_schedule(self.bot, interaction, season, played_only=True)

    # ---- statistics ----------------------------------------------------------------------------

    @stats.command(name="player", description="A player's career and matches")
    @app_commands.autocomplete(player=player_autocomplete)
    async def stats_player(
        self, interaction: discord.Interaction, player: app_commands.Range[str, 1, 100]
    ) -> None:
        await stats_commands.player(self.bot, interaction, player)

    @stats.command(name="team", description="A team's W-L-T, goals, casualties")
    @app_commands.autocomplete(team=team_autocomplete)
    async def stats_team(self, interaction: discord.Interaction, team: Team) -> None:
        await stats_commands.team(self.bot, interaction, team)

    @group.command(name="leaders", description="Goals, assists, penalties, casualties here")
    async def leaders(self, interaction: discord.Interaction) -> None:
        await stats_commands.leaders_board(self.bot, interaction)

    @group.command(name="history", description="A team's matches")
    @app_commands.autocomplete(team=team_autocomplete)
    async def history(self, interaction: discord.Interaction, team: Team) -> None:
        await stats_commands.history(self.bot, interaction, team)


async def setup(bot: Ballcourt) -> None:
    bot.add_dynamic_items(*LINEUP_ITEMS, *SUBSTITUTION_ITEMS)
    await bot.add_cog(RollerballII(bot))
