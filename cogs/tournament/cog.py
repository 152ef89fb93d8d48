"""`/tournament create` and the tournament card's buttons (Join, Withdraw, Start now); the
tournaments themselves are run by host/tournaments.py, their pairing and standings are
rules.tournament's (docs/rules/tournaments.md)."""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs import bot_of
from cogs.rocketball.options import describe, match_settings
from db import tournaments as store
from host.leagues import require_league_admin
from host.tournaments import FORMAT_TITLES, Tournaments
from ui import UserError
from ui.formats import plural
from ui.items import Control

if TYPE_CHECKING:
    from bot import Ballcourt
    from db.database import Connection, Database

# The games a tournament can be played in so far, with the options of their matches.
GAMES = {"rocketball": "Rocketball"}


def rocketball_options() -> tuple[dict, str]:
    settings = match_settings("", 2, 10)
    return {"settings": settings}, describe(settings)


def tournaments_of(interaction: discord.Interaction) -> Tournaments:
    cog = bot_of(interaction).get_cog("TournamentCog")
    if not isinstance(cog, TournamentCog):
        raise UserError("Tournaments are not running on this bot right now.")
    return cog.tournaments


CARD_LABELS = {
    "join": ("Join", discord.ButtonStyle.success),
    "withdraw": ("Withdraw", discord.ButtonStyle.secondary),
    "start": ("Start now", discord.ButtonStyle.primary),
}


class CardButton(
    Control[discord.ui.Button],
    template=r"tour:(?P<id>\d+):(?P<action>join|withdraw|start)",
):
    """A button of the tournament card."""

    def __init__(self, tournament_id: int, action: str) -> None:
        label, style = CARD_LABELS[action]
        super().__init__(
            discord.ui.Button(
                label=label, style=style, custom_id=self.id_for(id=tournament_id, action=action)
            )
        )
        self.tournament_id, self.action = tournament_id, action

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /) -> CardButton:
        return cls(int(match["id"]), match["action"])

    async def act(self, interaction: discord.Interaction) -> None:
        tournaments = tournaments_of(interaction)
        if self.action == "join":
            await join(tournaments, interaction, self.tournament_id)
        elif self.action == "withdraw":
            await withdraw(tournaments, interaction, self.tournament_id)
        else:
            await start_now(tournaments, interaction, self.tournament_id)


def card_view(tournament: store.Tournament) -> discord.ui.View | None:
    if tournament.status == "finished":
        return None
    view = discord.ui.View(timeout=None)
    if tournament.status == "signup":
        actions: tuple[str, ...] = ("join", "withdraw", "start")
    elif tournament.format == "swiss":  # a late joiner comes in at the next round
        actions = ("join", "withdraw")
    else:
        actions = ("withdraw",)
    for action in actions:
        view.add_item(CardButton(tournament.id, action))
    return view


async def loaded(tournaments: Tournaments, tournament_id: int) -> store.Tournament:
    tournament = await store.load(tournaments.bot.db, tournament_id)
    if tournament is None:
        raise UserError("That tournament no longer exists.")
    return tournament


async def join(tournaments: Tournaments, interaction: discord.Interaction, tournament_id: int):
    """In while the sign-up is open; in a running Swiss also later, from the next round on with
    zero points (docs/rules/tournaments.md "On Discord")."""
    async with tournaments.lock(tournament_id):
        tournament = await loaded(tournaments, tournament_id)
        late = tournament.status == "running" and tournament.format == "swiss"
        if tournament.status != "signup" and not late:
            raise UserError("The sign-up for this tournament is closed.")
        user = interaction.user.id
        rating = await store.rating_of(
            tournaments.bot.db, tournament.game, tournament.guild_id, user
        )
        first_round = tournament.round + 1 if late else 1
        try:
            entered = await store.join(tournaments.bot.db, tournament, user, rating, first_round)
        except store.TournamentFull:
            raise UserError(f"This tournament is full ({tournament.cap} players).") from None
        if not entered:
            raise UserError("You are already in this tournament.")
        await interaction.response.edit_message(
            content=await tournaments.card_text(tournament), view=card_view(tournament)
        )
        when = f" from round {first_round} on, with no points yet" if late else ""
        await interaction.followup.send(
            f"You are in tournament #{tournament.id}{when}. Your matches will be posted in "
            "this channel.",
            ephemeral=True,
        )


async def withdraw(
    tournaments: Tournaments, interaction: discord.Interaction, tournament_id: int
) -> None:
    """Out: before the start, off the list; once it runs, not paired from the next round on
    (a match of the current round is still theirs to finish); results so far stand."""
    async with tournaments.lock(tournament_id):
        tournament = await loaded(tournaments, tournament_id)
        if tournament.status == "finished":
            raise UserError("This tournament is over.")
        from_round = tournament.round + 1
        if not await store.withdraw(
            tournaments.bot.db, tournament.id, interaction.user.id, from_round
        ):
            raise UserError("You are not playing in this tournament.")
        await interaction.response.edit_message(
            content=await tournaments.card_text(tournament), view=card_view(tournament)
        )
        when = "" if tournament.status == "signup" else f" from round {from_round} on"
        await interaction.followup.send(
            f"You withdrew from tournament #{tournament.id}{when}.", ephemeral=True
        )


async def start_now(
    tournaments: Tournaments, interaction: discord.Interaction, tournament_id: int
) -> None:
    tournament = await loaded(tournaments, tournament_id)
    await require_league_admin(
        tournaments.bot.db, interaction, what="start a tournament before its sign-up closes"
    )
    if tournament.status != "signup":
        raise UserError("This tournament has already started.")
    await interaction.response.defer()
    await tournaments.begin(tournament_id)


class TournamentCog(commands.Cog):
    group = app_commands.Group(
        name="tournament", description="Tournaments: Swiss, round robin, knockout", guild_only=True
    )

    def __init__(self, bot: Ballcourt) -> None:
        self.bot = bot
        self.tournaments = Tournaments(bot)
        self.tournaments.card_view = card_view
        self.tournaments.match_options["rocketball"] = rocketball_options

    async def describe_user(self, db: Database, user_id: int) -> list[str]:
        """/privacy: the tournaments they entered."""
        count = await store.user_lines(db, user_id)
        return [f"Tournaments: you entered {plural(count):tournament}."] if count else []

    async def forget_user(self, conn: Connection, user_id: int, anonymous: int) -> None:
        await store.forget_user(conn, user_id, anonymous)

    @group.command(name="create", description="Open a tournament's sign-up in this channel")
    @app_commands.describe(
        game="The game played",
        format="Swiss, round robin, or a knockout seeded by rating",
        rounds="Swiss: how many rounds (the other formats count their own)",
        round_hours="How long each round lasts; a game not finished by then is lost by both",
        signup_minutes="How long the sign-up stays open (an admin may start it sooner)",
        cap="The most players who may join",
    )
    @app_commands.choices(
        game=[app_commands.Choice(name=title, value=name) for name, title in GAMES.items()],
        format=[
            app_commands.Choice(name=title, value=name) for name, title in FORMAT_TITLES.items()
        ],
    )
    async def create(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        format: app_commands.Choice[str],
        rounds: app_commands.Range[int, 1, 20] = 3,
        round_hours: app_commands.Range[int, 1, 720] = 72,
        signup_minutes: app_commands.Range[int, 1, 10080] = 60,
        cap: app_commands.Range[int, 2, 256] = 64,
    ) -> None:
        """Admins only (docs/rules/tournaments.md "On Discord"): the card with Join and
        Withdraw is posted here, and the tournament begins when the sign-up closes."""
        await require_league_admin(self.bot.db, interaction, what="create a tournament")
        if interaction.guild_id is None or interaction.channel_id is None:
            raise UserError("A tournament is played in a server channel.")
        if game.value not in self.bot.matches.adapters:
            raise UserError(f"{GAMES[game.value]} is not running on this bot right now.")
        tournament_id = await store.create(
            self.bot.db,
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            game=game.value,
            format=format.value,
            rounds=rounds,
            round_minutes=round_hours * 60,
            rated=True,
            cap=cap,
            signup_until=time.time() + signup_minutes * 60,
            created_by=interaction.user.id,
            close_timer="tournament_signup_close",
        )
        tournament = await store.load(self.bot.db, tournament_id)
        assert tournament is not None
        await interaction.response.send_message(
            await self.tournaments.card_text(tournament),
            view=card_view(tournament) or discord.ui.View(),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        message = await interaction.original_response()
        await store.set_card(self.bot.db, tournament_id, message.id)


async def setup(bot: Ballcourt) -> None:
    bot.add_dynamic_items(CardButton)
    await bot.add_cog(TournamentCog(bot))
