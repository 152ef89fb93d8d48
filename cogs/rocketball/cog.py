"""Rocketball's slash commands. Running the match (challenges, threads, turns, buttons, the move
form, reminders, forfeits, records) is the shared host's; this cog only says what Rocketball's
commands and options are, and keeps its statistics."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.rocketball.options import (
    VARIANTS_MAX_LENGTH,
    describe,
    match_settings,
    variants_autocomplete,
)
from cogs.rocketball.presenter import COLOUR, RULEBOOK, SEATS, RocketballAdapter
from db import rocketball as results_store
from host import COMPUTER_ID, DEFAULT_FORFEIT_MINUTES, DEFAULT_REMIND_MINUTES, Match, starting
from host.commands import MatchWords, add_match_commands
from rules.rocketball import ENGINE
from ui import display_name, shown

if TYPE_CHECKING:
    from bot import Ballcourt
    from db.database import Connection
    from db.games import StoredGame

MATCH_OPTION_HELP = {
    "target": "Points needed to win (default 2)",
    "variants": "Variants, e.g. bumpers moguls assault (see /rocketball rules)",
    "tug_rounds": "Tug-of-War: the target goals swap every this many full rounds (10; 0 = never)",
    "special_chips": "How many of each special chip (bumpers, twisters, gusts, barricades): 6-8",
    "remind_hours": "Ping a player who has not moved after this many hours (default 24)",
}


class RocketballMatches(RocketballAdapter):
    """The adapter plus what a finished match writes: one result row per player."""

    async def on_finished(self, conn: Connection, stored: StoredGame, match: Match):
        state = match.engine
        how = "forfeit" if match.forfeited_by is not None else (state.end_reason or "score")
        outcome = self.engine.outcome(state)
        rows = []
        for seat, user_id in enumerate(stored.players):
            other = 1 - seat
            rows.append(
                results_store.PlayerResult(
                    user_id=user_id,
                    opponent_id=stored.players[other],
                    result=outcome[seat],
                    goals_for=state.score[SEATS[seat]],
                    goals_against=state.score[SEATS[other]],
                    vs_computer=stored.players[other] == COMPUTER_ID,
                    how=how,
                )
            )
        await results_store.record_results(conn, stored.id, rows)

    async def forget_user(self, conn: Connection, user_id: int, anonymous: int) -> None:
        await results_store.forget_user(conn, user_id, anonymous)

    async def describe_user(self, db, user_id: int) -> list[str]:
        stats = await results_store.player_stats(db, user_id)
        if not stats.played:
            return []
        return [f"Rocketball: {stats.played} finished matches in the statistics"]


# The level menu says how each level plays, not only how strong it is: a stronger defence
# makes longer matches (docs/rules/rocketball.md "Computer opponent", the rounds per match from
# bench/rocketball_newcomer.py).
LEVEL_LABELS = {
    "easy": "easy: half its chips at random, short matches",
    "medium": "medium: blocks the next roll, a first match",
    "strong": "strong: defends two rolls ahead, long matches",
    "master": "master: defends three rolls ahead, the strongest, long matches",
}


class Rocketball(commands.Cog):
    group = app_commands.Group(
        name="rocketball",
        description="Rocketball: steer the ball with vortex chips",
        guild_only=True,
    )

    def __init__(self, bot: Ballcourt) -> None:
        self.bot = bot
        self.adapter = RocketballMatches()
        bot.matches.register(self.adapter)
        add_match_commands(
            self.group,
            self.adapter,
            MatchWords(
                move_example="e.g. c4 N or rotate c4 cw",
                move_help="c4 N (place), rotate c4 cw, drift c4 c5, aim E, roll or pass",
            ),
        )
        self.group.add_command(
            RULEBOOK.command(
                "How Rocketball is played here: rules, variants, rulings", "a variant or Rulings"
            )
        )

    @group.command(name="challenge", description="Challenge someone to a Rocketball match")
    @app_commands.describe(
        opponent="Who you challenge",
        forfeit_hours="After this many hours without a move the opponent may claim the win (72)",
        rated="Rated (default: the result moves both ratings) or casual (False)",
        **MATCH_OPTION_HELP,
    )
    @app_commands.autocomplete(variants=variants_autocomplete)
    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.Member,
        target: app_commands.Range[int, 1, 9] = 2,
        variants: app_commands.Range[str, 0, VARIANTS_MAX_LENGTH] = "",
        tug_rounds: app_commands.Range[int, 0, 50] = 10,
        special_chips: app_commands.Range[int, 6, 8] = 7,
        remind_hours: app_commands.Range[int, 1, 168] = DEFAULT_REMIND_MINUTES // 60,
        forfeit_hours: app_commands.Range[int, 1, 720] = DEFAULT_FORFEIT_MINUTES // 60,
        rated: bool = True,
    ) -> None:
        settings = match_settings(variants, target, tug_rounds, special_chips)
        await starting.challenge(
            self.bot.matches,
            interaction,
            self.adapter,
            opponent,
            {"settings": settings},
            describe=describe(settings),
            remind_minutes=remind_hours * 60,
            forfeit_minutes=forfeit_hours * 60,
            rated=rated,
        )

    @group.command(name="play-computer", description="Play Rocketball against the computer")
    @app_commands.describe(level="How strong the computer plays", **MATCH_OPTION_HELP)
    @app_commands.choices(
        level=[
            app_commands.Choice(name=LEVEL_LABELS[level], value=level) for level in ENGINE.levels
        ]
    )
    @app_commands.autocomplete(variants=variants_autocomplete)
    async def play_computer(
        self,
        interaction: discord.Interaction,
        level: app_commands.Choice[str],
        target: app_commands.Range[int, 1, 9] = 2,
        variants: app_commands.Range[str, 0, VARIANTS_MAX_LENGTH] = "",
        tug_rounds: app_commands.Range[int, 0, 50] = 10,
        special_chips: app_commands.Range[int, 6, 8] = 7,
        remind_hours: app_commands.Range[int, 1, 168] = DEFAULT_REMIND_MINUTES // 60,
    ) -> None:
        settings = match_settings(variants, target, tug_rounds, special_chips)
        await starting.play_computer(
            self.bot.matches,
            interaction,
            self.adapter,
            level.value,
            {"settings": settings},
            describe=describe(settings),
            remind_minutes=remind_hours * 60,
        )

    @group.command(name="stats", description="Wins, losses and goals in Rocketball")
    @app_commands.describe(user="Whose statistics (default: yours)")
    async def stats(
        self, interaction: discord.Interaction, user: discord.User | None = None
    ) -> None:
        target = user or interaction.user
        stats = await results_store.player_stats(self.bot.db, target.id)
        embed = discord.Embed(title=f"Rocketball: {shown(display_name(target))}", colour=COLOUR)
        if stats.played == 0:
            embed.description = "No finished matches yet."
        else:
            embed.add_field(name="Played", value=str(stats.played))
            embed.add_field(name="Won", value=str(stats.wins))
            embed.add_field(name="Lost", value=str(stats.losses))
            if stats.draws:
                embed.add_field(name="Drawn", value=str(stats.draws))
            embed.add_field(
                name="Goals", value=f"{stats.goals_for} for, {stats.goals_against} against"
            )
            if stats.vs_computer_played:
                embed.add_field(
                    name="Against the computer",
                    value=f"{stats.vs_computer_wins} won of {stats.vs_computer_played}",
                )
        await interaction.response.send_message(embed=embed)


async def setup(bot: Ballcourt) -> None:
    await bot.add_cog(Rocketball(bot))
