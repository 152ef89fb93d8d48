"""Rollerball's (the board game's) slash commands. Running the game (the lobby, the thread,
turns, buttons, the move form, the private hand, reminders, stand-ins, records) is the shared
host's; this cog says what the commands and options are and keeps the statistics."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.rollerball.presenter import COLOUR, RollerballAdapter
from db import rollerball as results_store
from host import COMPUTER_ID, Match, lobby
from host.commands import MatchWords, add_match_commands
from rules.rollerball import Table
from ui import UserError, display_name, rulebook, shown
from ui.formats import plural

if TYPE_CHECKING:
    from bot import Ballcourt
    from db.database import Connection
    from db.games import StoredGame

DEFAULT_REMIND_HOURS = 12
DEFAULT_TIMEOUT_HOURS = 24


class RollerballMatches(RollerballAdapter):
    """The adapter plus what a finished game writes: one result row per person."""

    async def on_finished(self, conn: Connection, stored: StoredGame, match: Match):
        table: Table = match.engine
        game = table.game
        if match.forfeited_by is not None:
            how = "forfeit"
        elif table.ended_by_resignation:
            how = "resign"
        elif game.turn_number > game.settings.turn_limit:
            how = "turn limit"
        else:
            how = "target"
        outcome = self.engine.outcome(table)
        computers = sum(user_id == COMPUTER_ID for user_id in stored.players)
        rows = [
            results_store.SeatResult(
                user_id=user_id,
                seat=seat,
                result=outcome[seat],
                victory_points=len(game.victory[seat]),
                players=game.players,
                computers=computers,
                edition=game.settings.edition,
                how=how,
            )
            for seat, user_id in enumerate(stored.players)
        ]
        await results_store.record_results(conn, stored.id, rows)

    async def forget_user(self, conn: Connection, user_id: int, anonymous: int) -> None:
        await results_store.forget_user(conn, user_id)

    async def describe_user(self, db, user_id: int) -> list[str]:
        stats = await results_store.player_stats(db, user_id)
        if not stats.played:
            return []
        return [f"Rollerball: {stats.played} finished games in the statistics"]


RULEBOOK = rulebook.register(rulebook.Rulebook("rollerball"))


class Rollerball(commands.Cog):
    group = app_commands.Group(
        name="rollerball",
        description="Rollerball: the ring board game for 2-6 players",
        guild_only=True,
    )

    def __init__(self, bot: Ballcourt) -> None:
        self.bot = bot
        self.adapter = RollerballMatches()
        bot.matches.register(self.adapter)
        add_match_commands(
            self.group,
            self.adapter,
            MatchWords(
                match="game",
                move_example="e.g. move c3 d3 or build up-move e2-e3",
                move_help=(
                    "bid 2 up-move energiser, base c3, place up-move e2-e3, move c3 d3, stay, "
                    "build up-move e2-e3, blow-up replacer, bank, keep, pass"
                ),
                private="Your hand, bid and victory points (only you see it)",
                history=False,
            ),
        )
        self.group.add_command(
            RULEBOOK.command(
                "How Rollerball is played here, with the rulings", "Rulings or Typing moves"
            )
        )

    @group.command(name="new", description="Open a Rollerball table that players join")
    @app_commands.describe(
        edition="later: balls move two spaces, hand of 4 (default); earlier: one square, hand of 5",
        players="How many seats the table has (2-6; start with fewer once 2 are seated)",
        target="Victory points to win (default 5)",
        big_board="The 11 by 11 board with five rings (5-6 players)",
        remind_hours="Ping a player who has not moved after this many hours (default 12)",
        timeout_hours="After this many hours without a move a computer plays the seat until "
        "its player takes it back (default 24; 0: never)",
        rated="Rated (default: the result moves the players' ratings) or casual (False)",
    )
    @app_commands.choices(
        edition=[
            app_commands.Choice(name="later edition (balls move two spaces)", value="later"),
            app_commands.Choice(name="earlier edition (balls move one square)", value="earlier"),
        ]
    )
    async def new(
        self,
        interaction: discord.Interaction,
        edition: app_commands.Choice[str] | None = None,
        players: app_commands.Range[int, 2, 6] = 4,
        target: app_commands.Range[int, 1, 20] = 5,
        big_board: bool = False,
        remind_hours: app_commands.Range[int, 1, 168] = DEFAULT_REMIND_HOURS,
        timeout_hours: app_commands.Range[int, 0, 720] = DEFAULT_TIMEOUT_HOURS,
        rated: bool = True,
    ) -> None:
        chosen = edition.value if edition else "later"
        if big_board and players < 5:
            raise UserError("The 11 by 11 board is for 5 or 6 players: set players to 5 or 6.")
        describe = f"{chosen} edition, first to {plural(target):victory point}"
        if big_board:
            describe += ", 11 by 11 board"
        await lobby.open_lobby(
            self.bot.matches,
            interaction,
            self.adapter,
            {"edition": chosen, "board": 11 if big_board else 9, "target": target},
            seats=players,
            describe=describe,
            remind_minutes=remind_hours * 60,
            takeover_minutes=timeout_hours * 60 or None,
            rated=rated,
        )

    @group.command(name="stats", description="Wins and victory points in Rollerball")
    @app_commands.describe(user="Whose statistics (default: yours)")
    async def stats(
        self, interaction: discord.Interaction, user: discord.User | None = None
    ) -> None:
        target = user or interaction.user
        stats = await results_store.player_stats(self.bot.db, target.id)
        embed = discord.Embed(title=f"Rollerball: {shown(display_name(target))}", colour=COLOUR)
        if stats.played == 0:
            embed.description = "No finished games yet."
        else:
            embed.add_field(name="Played", value=str(stats.played))
            embed.add_field(name="Won", value=str(stats.wins))
            if stats.shared:
                embed.add_field(name="Shared wins", value=str(stats.shared))
            embed.add_field(name="Lost", value=str(stats.losses))
            embed.add_field(
                name="Victory points",
                value=f"{stats.victory_points} in all, {stats.best_points} at best",
            )
            if stats.with_computers:
                embed.add_field(name="With computer players", value=str(stats.with_computers))
        await interaction.response.send_message(embed=embed)


async def setup(bot: Ballcourt) -> None:
    await bot.add_cog(Rollerball(bot))
