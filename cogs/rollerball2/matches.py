"""`/rollerball2 match ...`: starting a match, the host's standard match commands, a past
match's box score, and what a finished match writes.

Who may start what (docs/rules/rollerball2.md, "On Discord"):
- solo and simulate: the user coaches both teams (owns them, or is a server admin);
- coaches: the user coaches one team; the other team's coach accepts the challenge.
Both teams' saved line-ups are read now; a saved player who may not play this match (injured,
banned, dead) is replaced by the default replacement for it, said in the match's first message
(the engine face's new_state, ruling D1a). A team plays one open match at a time (checked in the
transaction that creates the match). If the two teams have an unplayed season fixture with this
home and away team, the match is it.

At the end (on_finished, inside the transaction that saves the last move): the result is
stored, both rosters take the carry-over (injuries, bans, deaths; counted absences tick down),
and the fixture gets its score, once.
"""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from cogs import bot_of
from cogs.rollerball2 import texts
from cogs.rollerball2.presenter import BOX_ID, LINEUPS_ID, Rollerball2Adapter
from cogs.rollerball2.teams import (
    NO_MENTIONS,
    TeamArg,
    guild_of,
    may_manage,
)
from db import games as game_store
from db import rollerball2 as store
from host import COMPUTER_ID, DELETED_USER_ID, Match
from host.commands import MatchWords, add_match_commands
from host.locks import GameLock
from host.starting import start_match
from render.rollerball2 import render_box_score_pages, render_roster
from rules.rollerball2 import (
    AWAY,
    DEFAULT_COACH,
    HOME,
    Rb2Match,
    result,
    roster_after_match,
    roster_to_json,
    score_line,
    three_stars,
)
from ui import UserError, display_name, shown
from ui.client import member_name
from ui.formats import plural, possessive, timestamp
from ui.items import Control

if TYPE_CHECKING:
    from bot import Ballcourt
    from db.database import Connection
    from db.games import StoredGame

MODE_TEXT = {
    "solo": "solo, one coach for both teams",
    "coaches": "coach against coach",
    "simulate": "simulated",
}


class Rollerball2Matches(Rollerball2Adapter):
    """The adapter plus what a finished match writes (db/rollerball2/matches.py)."""

    async def on_finished(self, conn: Connection, stored: StoredGame, match: Match) -> None:
        game: Rb2Match = match.engine
        res = result(game.engine)
        rosters = {}
        for side, team_id in ((HOME, game.home_team_id), (AWAY, game.away_team_id)):
            roster = await store.roster_in(conn, team_id)
            if roster is not None:
                rosters[team_id] = roster_after_match(roster, res.carry_over[side])
        how = "simulated" if game.mode == "simulate" else "played"
        await store.record_result(conn, stored.id, res, rosters, how=how)

    async def forget_user(self, conn: Connection, user_id: int, anonymous: int) -> None:
        await store.forget_owner(conn, user_id, anonymous)

    async def describe_user(self, db: Any, user_id: int) -> list[str]:
        teams = await store.teams_owned(db, user_id)
        if not teams:
            return []
        return [f"Rollerball II: {plural(teams):team} you coach"]


async def match_options(
    bot: Ballcourt, home: store.Team, away: store.Team, mode: str
) -> dict[str, Any]:
    """What the engine's new_state needs: both rosters and saved line-ups (a saved player who
    may not play is replaced there, and the match's first message says so), and the fixture if
    these teams have one to play."""
    fixture = await store.open_fixture(bot.db, home.id, away.id)
    return {
        "mode": mode,
        "home": roster_to_json(home.roster),
        "away": roster_to_json(away.roster),
        "home_lineup": home.lineup,
        "away_lineup": away.lineup,
        "home_team_id": home.id,
        "away_team_id": away.id,
        "fixture_id": fixture.id if fixture else None,
    }


@asynccontextmanager
async def fixture_held(
    bot: Ballcourt,
    season_lock: Callable[[int], GameLock],
    home: store.Team,
    away: store.Team,
) -> AsyncIterator[None]:
    """Held while a match between `home` and `away` is made: the lock of the season whose
    fixture these teams have to play, if any (the lock its deadline settles the fixture under).
    The match reads its fixture (match_options) and stores itself as it (registrar) in there,
    so a deadline either came first (the fixture is settled, and the match is no season match)
    or comes after (and finishes the match being played)."""
    fixture = await store.open_fixture(bot.db, home.id, away.id)
    if fixture is None:
        yield
        return
    async with season_lock(fixture.season_id):
        yield


def registrar(guild_id: int, home: store.Team, away: store.Team, mode: str, fixture: int | None):
    """What a new match adds to the game's own tables, in the transaction that creates it (a
    team busy with another match refuses it there: store.TeamBusy)."""

    async def add(conn: Connection, game_id: int) -> None:
        await store.add_match(
            conn,
            game_id=game_id,
            guild_id=guild_id,
            home_team_id=home.id,
            away_team_id=away.id,
            mode=mode,
            fixture_id=fixture,
        )

    return add


FIXTURE_TAKEN = (
    "That season fixture was settled, or started by another match, a moment ago. Nothing was "
    "started: start the match again (it is then no season match)."
)


def busy_text(error: store.TeamBusy, *teams: store.Team) -> str:
    name = next((shown(t.name) for t in teams if t.id == error.team_id), "A team")
    return (
        f"{name} is playing match #{error.game_id} already: a team plays one match at a time "
        "(its injuries carry into the next). Finish that one first. Nothing was started."
    )


def check_coaches(
    interaction: discord.Interaction, home: store.Team, away: store.Team, mode: str
) -> None:
    """Who may start what (the module docstring); UserError saying why not."""
    if home.id == away.id:
        raise UserError(f"{shown(home.name)} cannot play itself: pick two different teams.")
    if mode in ("solo", "simulate"):
        for team in (home, away):
            if not may_manage(interaction, team):
                raise UserError(
                    f"{shown(team.name)} is coached by <@{team.owner_id}>: a {mode} match needs "
                    "you to coach both teams. Play it coach against coach (`mode: coaches`) and "
                    "they accept."
                )
        return
    if interaction.user.id not in (home.owner_id, away.owner_id):
        raise UserError(
            "In a coaches match you coach one of the two teams: you coach neither. Pick "
            "your own team (`/rollerball2 team create` makes one)."
        )
    if home.owner_id == away.owner_id:
        raise UserError("You coach both teams: play them `mode: solo` instead.")
    if DELETED_USER_ID in (home.owner_id, away.owner_id):
        raise UserError("One of the teams has no coach any more: a server admin may play it solo.")


# The host's standard commands (board, move, resign, record) in Rollerball II's words.
MATCH_WORDS = MatchWords(
    move_example="e.g. next, until, sub home Skater2 31",
    move_help=(
        "next, until, period, simulate, sub home Skater2 31, catcher home roll, biker away "
        "Biker3, scorer home Skater1, roll home"
    ),
    resign_help="Hand your bench to the default coach, who plays it to the final whistle",
    history=False,  # a team's matches: /rollerball2 history; a match's story: its box score
)

Mode = app_commands.Choice[str]


async def finished_match(interaction: discord.Interaction, match_id: int) -> store.StoredResult:
    """A finished match of this server, or a private answer saying where to find one."""
    stored = await store.stored_result(bot_of(interaction).db, guild_of(interaction), match_id)
    if stored is None:
        raise UserError(
            f"Match #{match_id} is not a finished Rollerball II match of this server: "
            "`/rollerball2 history team:` lists a team's matches with their numbers."
        )
    return stored


async def send_box_score(
    interaction: discord.Interaction, match_id: int, stored: store.StoredResult
) -> None:
    """A finished match's box score as a followup of the (deferred) interaction: the result
    line, the three stars and the pages (private when a button asked)."""
    res = stored.result
    pages = await asyncio.to_thread(render_box_score_pages, res)
    home, away = shown(res.home.team), shown(res.away.team)
    score = score_line(away, res.away_score, home, res.home_score)
    lines = [f"**Rollerball II #{match_id}: {score}.** {texts.verdict(res)}"]
    stars = three_stars(res)
    if stars:
        lines.append(
            "Three stars: "
            + ", ".join(
                f"{shown(res.home.team if side == 'home' else res.away.team)} "
                f"#{line.number} {shown(line.name)}"
                for side, line in stars
            )
        )
    lines.append(f"Finished {timestamp(stored.finished_at)}.")
    await interaction.followup.send(
        "\n".join(lines),
        files=[
            discord.File(io.BytesIO(page), filename=f"box-score-{index}.png")
            for index, page in enumerate(pages, start=1)
        ],
        allowed_mentions=NO_MENTIONS,
        ephemeral=interaction.type is discord.InteractionType.component,
    )


class BoxScoreButton(Control[discord.ui.Button], template=BOX_ID):
    """The last card's Box score: the pages in a message of their own, seen by whoever asked
    (the card itself stays one phone screen tall)."""

    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label="Box score", custom_id=self.id_for(game=game_id)))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /) -> BoxScoreButton:
        return cls(int(match["game"]))

    async def act(self, interaction: discord.Interaction) -> None:
        stored = await finished_match(interaction, self.game_id)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await send_box_score(interaction, self.game_id, stored)


class LineupsButton(Control[discord.ui.Button], template=LINEUPS_ID):
    """A live card's Line-ups: both line-ups as they stand, visitors first, the ball handler's
    row lit, to whoever asks (they are public, as on the track), in a private message of their
    own: the card itself stays one phone screen tall."""

    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label="Line-ups", custom_id=self.id_for(game=game_id)))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /) -> LineupsButton:
        return cls(int(match["game"]))

    async def act(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        stored = await game_store.load_game(bot.db, self.game_id, game="rollerball2")
        if stored is None or stored.status != "active":
            raise UserError(
                f"Rollerball II match #{self.game_id} is not being played: a finished match's "
                "line-ups are in its box score."
            )
        game: Rb2Match = Match.from_json(bot.matches.adapters["rollerball2"], stored.state).engine
        await interaction.response.defer(ephemeral=True, thinking=True)
        image = await asyncio.to_thread(render_roster, game.engine)
        away, home = (shown(game.engine.team(side).roster.team) for side in (AWAY, HOME))
        await interaction.followup.send(
            f"**Rollerball II #{self.game_id}: line-ups,** {away} (visitors) at {home}.",
            file=discord.File(io.BytesIO(image), filename="lineups.png"),
            ephemeral=True,
        )


class MatchCommands(app_commands.Group, name="match", description="Matches"):
    """`/rollerball2 match ...`: start one, the host's standard commands, a past box score."""

    def __init__(
        self, adapter: Rollerball2Matches, season_lock: Callable[[int], GameLock], **kwargs: Any
    ) -> None:
        super().__init__(**kwargs)
        self.adapter = adapter
        self.season_lock = season_lock  # a season's lock by its id (the league host's)
        add_match_commands(self, adapter, MATCH_WORDS)

    @app_commands.command(
        name="start", description="Start a match: solo, coach against coach, simulated"
    )
    @app_commands.describe(
        home="Home team",
        away="Visiting team",
        mode="solo: you coach both; coaches: their coach accepts; simulate: the bot plays it",
        answer_minutes="coaches: a coach who does not answer in time gets the default coach",
        bot_rolls="coaches: the bot rolls your team's dice, you still decide (a toggle on the card)",
        rated="coaches: rated (default: the result moves both coaches' ratings) or casual (False)",
    )
    @app_commands.choices(
        mode=[app_commands.Choice(name=m, value=m) for m in ("solo", "coaches", "simulate")]
    )
    async def start(
        self,
        interaction: discord.Interaction,
        home: TeamArg,
        away: TeamArg,
        mode: Mode,
        answer_minutes: app_commands.Range[int, 2, 1440] = 30,
        bot_rolls: bool = False,
        rated: bool = True,
    ) -> None:
        """Solo and simulate start at once; coaches posts a challenge the other coach accepts.
        `bot_rolls` (coaches, docs/rules/rollerball2.md "Coaches decide, the bot rolls"): the
        starting coach's dice are the bot's from the first card; the catcher's choice,
        substitutions and the biker or scorer picks still wait for him."""
        bot = bot_of(interaction)
        guild_id = guild_of(interaction)
        home_team, away_team = home, away
        check_coaches(interaction, home_team, away_team, mode.value)
        for team in (home_team, away_team):
            busy = await store.open_match_of(bot.db, team.id)
            if busy is not None:
                raise UserError(busy_text(store.TeamBusy(team.id, busy), home_team, away_team))
        # The season fixture this match is (if any) is read and linked under its season's
        # lock, as its deadline settles it: never both.
        async with fixture_held(bot, self.season_lock, home_team, away_team):
            options = await match_options(bot, home_team, away_team, mode.value)
            add = registrar(guild_id, home_team, away_team, mode.value, options["fixture_id"])
            describe = (
                f"{score_line(shown(away_team.name), None, shown(home_team.name), None)}, "
                f"{MODE_TEXT[mode.value]}"
            )
            if options["fixture_id"] is not None:
                describe += ", a season match"
            user = interaction.user
            try:
                if mode.value == "coaches":
                    names = [
                        await member_name(interaction.guild, t.owner_id, "their coach")
                        for t in (home_team, away_team)
                    ]
                    seat = 0 if user.id == home_team.owner_id else 1
                    mine = (home_team, away_team)[seat]
                    if bot_rolls:
                        describe += f"; the bot rolls {possessive(shown(mine.name))} dice"
                    describe += " (either coach may leave his dice to the bot, or take them back, on the card)"
                    await start_match(
                        bot.matches,
                        interaction,
                        self.adapter,
                        options,
                        players=[home_team.owner_id, away_team.owner_id],
                        names=names,
                        describe=describe,
                        challenged_seat=1 - seat,
                        auto={seat} if bot_rolls else None,
                        remind_minutes=max(1, answer_minutes // 2),
                        takeover_minutes=answer_minutes,
                        on_create=add,
                        rated=rated,
                    )
                elif mode.value == "solo":
                    await start_match(
                        bot.matches,
                        interaction,
                        self.adapter,
                        options,
                        players=[user.id],
                        names=[display_name(user)],
                        describe=describe,
                        on_create=add,
                    )
                else:
                    await start_match(
                        bot.matches,
                        interaction,
                        self.adapter,
                        options,
                        players=[COMPUTER_ID],
                        names=["the bot"],
                        describe=describe,
                        computers={0: DEFAULT_COACH},
                        on_create=add,
                    )
            except store.TeamBusy as error:
                raise UserError(busy_text(error, home_team, away_team)) from None
            except store.FixtureTaken:
                raise UserError(FIXTURE_TAKEN) from None

    @app_commands.command(name="boxscore", description="A finished match's box score again")
    @app_commands.describe(match_id="The match's number (history and results list them)")
    async def boxscore(
        self, interaction: discord.Interaction, match_id: app_commands.Range[int, 1]
    ) -> None:
        """A finished match's box score again: the result line, the three stars and the pages."""
        stored = await finished_match(interaction, match_id)
        await interaction.response.defer(thinking=True)
        await send_box_score(interaction, match_id, stored)
