"""`/tournament create`, the tournament card's buttons (Join, Withdraw, Check in, Start now) and
the admins' commands (extend, pause, resume, remove, decide); the tournaments themselves are
run by host/tournaments.py, their pairing and standings are rules.tournament's
(docs/rules/tournaments.md)."""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs import bot_of
from cogs.rocketball.options import describe, match_settings
from cogs.tournament import cup
from db import tournament_teams
from db import tournaments as store
from host.leagues import require_league_admin
from host.listing import Entry
from host.podium import PodiumRepair
from host.tournaments import CHECKIN_EVENT, CLOSE_EVENT, FORMAT_TITLES, Tournaments
from rules.games import title_of
from ui import LookupOption, UserError, shown
from ui.formats import plural, timestamp
from ui.items import Control

if TYPE_CHECKING:
    from bot import Ballcourt
    from db.database import Connection, Database
    from db.rollerball2 import Team

# The games a tournament can be played in so far, by name, with their titles from the registry.
GAMES = {name: title_of(name) for name in ("rocketball", "rollerball", cup.GAME)}


def rocketball_options(seats: int) -> tuple[dict, str]:
    settings = match_settings("", 2, 10)
    return {"settings": settings}, describe(settings)


def rollerball_options(seats: int) -> tuple[dict, str]:
    """A table of `seats` on the 9 by 9 board, the later edition, first to 5 (the defaults of
    `/rollerball new`)."""
    return (
        {"players": seats, "edition": "later", "board": 9, "target": 5},
        "later edition, first to 5 victory points",
    )


def tournaments_of(interaction: discord.Interaction) -> Tournaments:
    cog = bot_of(interaction).get_cog("TournamentCog")
    if not isinstance(cog, TournamentCog):
        raise UserError("Tournaments are not running on this bot right now.")
    return cog.tournaments


CARD_LABELS = {
    "join": ("Join", discord.ButtonStyle.success),
    "withdraw": ("Withdraw", discord.ButtonStyle.secondary),
    "checkin": ("Check in", discord.ButtonStyle.success),
    "start": ("Start now", discord.ButtonStyle.primary),
}
ABSENCE_CHOICES = {
    "forfeit": "Forfeit: the absent lose",
    "computer": "A computer plays for the absent",
    "both_lose": "Both lose",
}


class CardButton(
    Control[discord.ui.Button],
    template=r"tour:(?P<id>\d+):(?P<action>join|withdraw|checkin|start)",
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
        elif self.action == "checkin":
            await check_in(tournaments, interaction, self.tournament_id)
        else:
            await start_now(tournaments, interaction, self.tournament_id)


def card_view(tournament: store.Tournament) -> discord.ui.View | None:
    if tournament.status == "finished":
        return None
    view = discord.ui.View(timeout=None)
    if tournament.status == "signup":
        actions: tuple[str, ...] = ("join", "withdraw", "start")
        if checkin_open(tournament):
            actions = ("join", "checkin", "withdraw", "start")
    elif tournament.format in ("swiss", "tables"):  # a late joiner comes in at the next round
        actions = ("join", "withdraw")
    else:
        actions = ("withdraw",)
    for action in actions:
        view.add_item(CardButton(tournament.id, action))
    return view


def checkin_open(tournament: store.Tournament) -> bool:
    opens = tournament.checkin_opens
    return tournament.status == "signup" and opens is not None and time.time() >= opens


async def join(
    tournaments: Tournaments,
    interaction: discord.Interaction,
    tournament_id: int,
    team_id: int | None = None,
):
    """In while the sign-up is open; in a running Swiss also later, from the next round on with
    zero points (docs/rules/tournaments.md "On Discord"). In a Rollerball II cup the coach
    enters with his team; a coach of several is asked which, privately (`TeamSelect`), and
    `team_id` is his choice."""
    async with tournaments.lock(tournament_id):
        tournament = await tournaments.loaded(tournament_id)
        late = tournament.status == "running" and tournament.format == "swiss"
        if tournament.status != "signup" and not late:
            raise UserError("The sign-up for this tournament is closed.")
        user = interaction.user.id
        db = tournaments.bot.db
        team = None
        if tournament.game == cup.GAME:
            team = await cup.team_to_enter(bot_of(interaction), tournament, user, team_id)
            if team is None:  # several teams: he chooses one, unless he is in already
                if any(
                    row.user_id == user and row.withdrawn_from is None
                    for row in await store.entrants(db, tournament.id)
                ):
                    raise UserError("You are already in this tournament.")
                teams = await cup.choosable(bot_of(interaction), tournament, user)
                view = discord.ui.View(timeout=None)
                view.add_item(TeamSelect(tournament.id, teams[: cup.TEAM_CHOICES]))
                await interaction.response.send_message(
                    f"You coach {plural(len(teams)):team}: choose the one that plays cup"
                    f" #{tournament.id} (a coach enters a cup with one team).",
                    view=view,
                    ephemeral=True,
                )
                return
        rating = await store.rating_of(db, tournament.game, tournament.guild_id, user)
        first_round = tournament.round + 1 if late else 1
        try:
            entered = await store.join(
                db,
                tournament,
                user,
                rating,
                first_round,
                checked_in=checkin_open(tournament),  # joining now is being here now
                team_id=team.id if team is not None else None,
            )
        except store.TournamentFull:
            raise UserError(f"This tournament is full ({tournament.cap} players).") from None
        except store.TeamTaken:
            assert team is not None
            raise UserError(cup.taken_text(team)) from None
        if not entered:
            raise UserError("You are already in this tournament.")
        when = f" from round {first_round} on, with no points yet" if late else ""
        with_team = f" with **{shown(team.name)}**" if team is not None else ""
        joined = (
            f"You are in tournament #{tournament.id}{with_team}{when}. Your matches will be"
            " posted in this channel."
        )
        if team_id is not None:  # chosen on his private question: it is answered, the card
            await interaction.response.edit_message(content=joined, view=None)
            await tournaments.show(tournament)  # shows him among the players
            return
        await interaction.response.edit_message(
            content=await tournaments.card_text(tournament), view=card_view(tournament)
        )
        await interaction.followup.send(joined, ephemeral=True)


class TeamSelect(Control[discord.ui.Select], template=r"tour:(?P<id>\d+):team"):
    """A coach's choice of the team he enters a cup with, on a message only he sees."""

    def __init__(self, tournament_id: int, teams: list[Team] | None = None) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=self.id_for(id=tournament_id),
                placeholder="Choose your team",
                # an option's label is plain text (no markdown): the name as it was typed
                options=[
                    discord.SelectOption(label=team.name[:100], value=str(team.id))
                    for team in teams or ()
                ]
                or [discord.SelectOption(label="?", value="0")],
            )
        )
        self.tournament_id = tournament_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /) -> TeamSelect:
        return cls(int(match["id"]))

    async def act(self, interaction: discord.Interaction) -> None:
        value = (interaction.data or {}).get("values", [""])[0]
        if not value.isdigit():
            raise UserError("Choose one of your teams from the menu.")
        await join(tournaments_of(interaction), interaction, self.tournament_id, int(value))


async def withdraw(
    tournaments: Tournaments, interaction: discord.Interaction, tournament_id: int
) -> None:
    """Out: before the start, off the list; once it runs, not paired from the next round on
    (a match of the current round is still theirs to finish); results so far stand."""
    async with tournaments.lock(tournament_id):
        tournament = await tournaments.loaded(tournament_id)
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


async def check_in(
    tournaments: Tournaments, interaction: discord.Interaction, tournament_id: int
) -> None:
    """Here for the start (docs/rules/tournaments.md "Check-in")."""
    async with tournaments.lock(tournament_id):
        tournament = await tournaments.loaded(tournament_id)
        if not checkin_open(tournament):
            raise UserError("The check-in for this tournament is not open.")
        done = await store.check_in(tournaments.bot.db, tournament.id, interaction.user.id)
        if done == "out":
            raise UserError("You are not in this tournament: press **Join** first.")
        if done == "already":
            raise UserError("You have already checked in.")
        await interaction.response.edit_message(
            content=await tournaments.card_text(tournament), view=card_view(tournament)
        )
        await interaction.followup.send(
            f"You checked in for tournament #{tournament.id}.", ephemeral=True
        )


async def start_now(
    tournaments: Tournaments, interaction: discord.Interaction, tournament_id: int
) -> None:
    tournament = await tournaments.loaded(tournament_id)
    await require_league_admin(
        tournaments.bot.db, interaction, what="start a tournament before its sign-up closes"
    )
    if tournament.status != "signup":
        raise UserError("This tournament has already started.")
    await interaction.response.defer()
    dropped = await tournaments.begin(tournament_id)
    if dropped:
        await interaction.followup.send(
            f"Tournament #{tournament_id} started without {plural(len(dropped)):player} who "
            f"did not check in: {', '.join(f'<@{user}>' for user in dropped)}.",
            ephemeral=True,
        )


class TournamentOption(LookupOption):
    """A `tournament` option: one of this server's tournaments by its number (#3 or 3),
    offered as the user types, those still running first."""

    max_length = 12

    async def find(self, interaction: discord.Interaction, value: str) -> store.Tournament:
        number = value.strip().lstrip("#")
        found = None
        if number.isdigit() and len(number) < 12:
            found = await store.load(bot_of(interaction).db, int(number))
        if found is None or found.guild_id != interaction.guild_id:
            raise UserError(
                f"This server has no tournament #{number[:12]}: its card shows its number."
            )
        return found

    async def autocomplete(
        self, interaction: discord.Interaction, value: str, /
    ) -> list[app_commands.Choice[str]]:
        if interaction.guild_id is None:
            return []
        found = await store.in_guild(bot_of(interaction).db, interaction.guild_id)
        return [
            app_commands.Choice(
                name=f"#{t.id} {GAMES.get(t.game, t.game)} {FORMAT_TITLES[t.format]} ({t.status})",
                value=str(t.id),
            )
            for t in found
            if value.strip().lstrip("#") in str(t.id)
        ][:25]


TournamentArg = app_commands.Transform[store.Tournament, TournamentOption]


class TournamentCog(commands.Cog):
    group = app_commands.Group(
        name="tournament", description="Tournaments: Swiss, round robin, knockout", guild_only=True
    )

    def __init__(self, bot: Ballcourt) -> None:
        self.bot = bot
        self.tournaments = Tournaments(bot)
        self.tournaments.card_view = card_view
        self.tournaments.match_options["rocketball"] = rocketball_options
        self.tournaments.match_options["rollerball"] = rollerball_options
        self.tournaments.match_setups[cup.GAME] = cup.setup(bot)
        self.podiums = PodiumRepair(self.tournaments)

    async def cog_load(self) -> None:
        self.tournaments.host.start()  # the league host's start-up repair
        self.podiums.start()  # podiums a crash left unposted

    async def cog_unload(self) -> None:
        await self.podiums.stop()
        await self.tournaments.host.stop()

    async def games_entries(self, user_id: int, now: float) -> list[Entry]:
        """/games: the tournaments the user is in (host/listing.py `ListsGames`)."""
        return await self.tournaments.host.games_entries(user_id, now)

    async def describe_user(self, db: Database, user_id: int) -> list[str]:
        """/privacy: the tournaments they entered."""
        count = await store.user_lines(db, user_id)
        return [f"Tournaments: you entered {plural(count):tournament}."] if count else []

    async def forget_user(self, conn: Connection, user_id: int, anonymous: int) -> None:
        await store.forget_user(conn, user_id, anonymous)
        await tournament_teams.forget_user(conn, user_id)

    @group.command(name="create", description="Open a tournament's sign-up in this channel")
    @app_commands.describe(
        game="The game played",
        format="Swiss, round robin, a knockout seeded by rating, or tables (Rollerball)",
        rounds="Swiss and tables: how many rounds (the other formats count their own)",
        round_hours="How long each round lasts; then a game without a result follows `absence`",
        signup_minutes="How long the sign-up stays open (an admin may start it sooner)",
        cap="The most players who may join",
        absence="What a game without a result at the round's deadline gives",
        checkin_minutes="Players check in during the sign-up's last minutes (0: no check-in)",
        rated="Whether its matches move the players' ratings (rated by default)",
        vacations="Whether a player's vacation puts off the round's deadline (off by default)",
        table_size="Tables: the seats of a table (2-6; Rollerball)",
    )
    @app_commands.choices(
        game=[app_commands.Choice(name=title, value=name) for name, title in GAMES.items()],
        format=[
            app_commands.Choice(name=title, value=name) for name, title in FORMAT_TITLES.items()
        ],
        absence=[
            app_commands.Choice(name=title, value=name) for name, title in ABSENCE_CHOICES.items()
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
        absence: app_commands.Choice[str] | None = None,
        checkin_minutes: app_commands.Range[int, 0, 10080] = 0,
        rated: bool = True,
        table_size: app_commands.Range[int, 2, 6] = 3,
        vacations: bool = False,
    ) -> None:
        """Admins only (docs/rules/tournaments.md "On Discord"): the card with Join and
        Withdraw is posted here, and the tournament begins when the sign-up closes."""
        await require_league_admin(self.bot.db, interaction, what="create a tournament")
        if interaction.guild_id is None or interaction.channel_id is None:
            raise UserError("A tournament is played in a server channel.")
        if game.value not in self.bot.matches.adapters:
            raise UserError(f"{GAMES[game.value]} is not running on this bot right now.")
        engine = self.bot.matches.adapters[game.value].engine
        if format.value == "tables" and table_size > engine.max_seats:
            raise UserError(
                f"A {GAMES[game.value]} match seats at most {engine.max_seats}: choose Swiss, "
                "round robin or a knockout, or another game for tables."
            )
        if game.value == cup.GAME and format.value not in cup.FORMATS:
            raise UserError(
                f"{GAMES[game.value]} is played as a knockout cup of teams: choose single or "
                "double elimination."
            )
        if format.value != "tables" and engine.min_seats > 2:
            raise UserError(f"{GAMES[game.value]} is played at tables: choose the tables format.")
        if checkin_minutes > signup_minutes:
            raise UserError(
                "checkin_minutes must be at most signup_minutes: the check-in is the sign-up's "
                "last minutes."
            )
        tournament_id = await store.create(
            self.bot.db,
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            game=game.value,
            format=format.value,
            rounds=rounds,
            round_minutes=round_hours * 60,
            rated=rated,
            cap=cap,
            signup_until=time.time() + signup_minutes * 60,
            created_by=interaction.user.id,
            close_timer=CLOSE_EVENT,
            absence=absence.value if absence is not None else "forfeit",
            checkin_minutes=checkin_minutes,
            checkin_timer=CHECKIN_EVENT,
            table_size=table_size if format.value == "tables" else 2,
            vacation_pauses=vacations,
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

    # ---- the admins' commands (docs/rules/tournaments.md "What an admin can do") --------------

    async def _admin(self, interaction: discord.Interaction, what: str) -> None:
        await require_league_admin(self.bot.db, interaction, what=what)

    async def _done(self, interaction: discord.Interaction, text: str) -> None:
        # acknowledged while it waited (the lock, the database: host/gate.py's TimelyResponse)
        if interaction.response.is_done():
            await interaction.followup.send(text, allowed_mentions=discord.AllowedMentions.none())
        else:
            await interaction.response.send_message(
                text, allowed_mentions=discord.AllowedMentions.none()
            )

    async def _after(self, tournament: store.Tournament) -> None:
        """After an admin's change (answered first): the round ends if it is complete, and the
        card shows the change."""
        if tournament.status == "running":
            await self.tournaments.advance(tournament.id)
        else:
            await self.tournaments.show(tournament)

    @group.command(name="extend", description="Admins: give the running round more time")
    @app_commands.describe(tournament="The tournament (its number)", hours="How many hours more")
    async def extend(
        self,
        interaction: discord.Interaction,
        tournament: TournamentArg,
        hours: app_commands.Range[int, 1, 720],
    ) -> None:
        await self._admin(interaction, "extend a tournament's round")
        done = await self.tournaments.extend(tournament.id, hours)
        assert done.round_deadline is not None
        await self._done(
            interaction,
            f"Round {done.round} of tournament #{done.id} now ends "
            f"{timestamp(done.round_deadline, 'R')} ({plural(hours):hour} more).",
        )

    @group.command(name="pause", description="Admins: stop the running round's clock")
    @app_commands.describe(tournament="The tournament (its number)")
    async def pause(self, interaction: discord.Interaction, tournament: TournamentArg) -> None:
        await self._admin(interaction, "pause a tournament")
        done = await self.tournaments.pause(tournament.id)
        await self._done(
            interaction,
            f"Tournament #{done.id} is paused: round {done.round}'s deadline waits and no round "
            "is paired until it is resumed; its matches may still be played.",
        )

    @group.command(name="resume", description="Admins: start the paused round's clock again")
    @app_commands.describe(tournament="The tournament (its number)")
    async def resume(self, interaction: discord.Interaction, tournament: TournamentArg) -> None:
        await self._admin(interaction, "resume a tournament")
        done = await self.tournaments.resume(tournament.id)
        assert done.round_deadline is not None
        await self._done(
            interaction,
            f"Tournament #{done.id} is resumed: round {done.round} ends "
            f"{timestamp(done.round_deadline, 'R')}.",
        )
        await self.tournaments.advance(done.id)

    @group.command(name="remove", description="Admins: take a player out of a tournament")
    @app_commands.describe(
        tournament="The tournament (its number)",
        player="The player: not paired again, and their game this round is lost",
    )
    async def remove(
        self, interaction: discord.Interaction, tournament: TournamentArg, player: discord.User
    ) -> None:
        await self._admin(interaction, "remove a player from a tournament")
        done = await self.tournaments.remove(tournament.id, player.id)
        await self._done(
            interaction,
            f"<@{player.id}> is out of tournament #{done.id}: not paired again; a game of "
            "theirs without a result this round is lost by them.",
        )
        await self._after(done)

    @group.command(
        name="decide", description="Admins: give a board of the running round its result"
    )
    @app_commands.describe(
        tournament="The tournament (its number)",
        board="The board's number on the card",
        winner="Who wins it; leave out for everyone at the board to lose",
    )
    async def decide(
        self,
        interaction: discord.Interaction,
        tournament: TournamentArg,
        board: app_commands.Range[int, 1, 200],
        winner: discord.User | None = None,
    ) -> None:
        await self._admin(interaction, "decide a tournament game")
        done = await self.tournaments.decide_game(
            tournament.id, board, winner.id if winner is not None else None
        )
        result = f"<@{winner.id}> wins it" if winner is not None else "everyone at it loses"
        await self._done(
            interaction, f"Tournament #{done.id}, board {board}: {result} (decided by an admin)."
        )
        await self._after(done)


async def setup(bot: Ballcourt) -> None:
    bot.add_dynamic_items(CardButton, TeamSelect)
    await bot.add_cog(TournamentCog(bot))
