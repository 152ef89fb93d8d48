"""`/rollerball2 match ...`: starting a match, the host's standard match commands, a past
match's box score, and what a finished match writes.

Who may start what (docs/rules/rollerball2.md, "On Discord"):
- solo and simulate: the user coaches both teams (owns them, or is a server admin);
- coaches: the user coaches one team; the other team's coach accepts the challenge.
Both teams' saved line-ups are read now; a saved player who may not play this match (injured,
banned, dead) is replaced by the default replacement for it, said in the match's first message
(rules.rollerball2.roster.match_lineup). A team plays one open match at a time (checked in the
transaction that creates the match). If the two teams have an unplayed season fixture with this
home and away team, the match is it.

At the end (on_finished, inside the transaction that saves the last move): the result is
stored, both rosters take the carry-over (injuries, bans, deaths; counted absences tick down),
and the fixture gets its score, once.
"""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from cogs.rollerball2 import texts
from cogs.rollerball2.adapter import Rollerball2Adapter
from cogs.rollerball2.play import Rb2Match
from cogs.rollerball2.teams import (
    NO_MENTIONS,
    Team,
    bot_of,
    find_team,
    guild_of,
    may_manage,
    team_autocomplete,
)
from db import rollerball2 as store
from host import COMPUTER_ID, DELETED_USER_ID, Match
from host.direct import play_out, start_match
from render.rollerball2 import render_box_score_pages
from rules.rollerball2 import (
    AWAY,
    DEFAULT_COACH,
    HOME,
    player_status,
    result,
    roster_after_match,
    roster_to_json,
)
from rules.rollerball2.roster import match_lineup
from rules.rollerball2.stats import score_line, three_stars
from ui import UserError, shown

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
    """The adapter plus what a finished match writes (db/rollerball2.py)."""

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
        return [f"Rollerball II: {teams} team{'s' if teams != 1 else ''} you coach"]


def lineup_for(team: store.Team) -> tuple[dict[str, int | None], list[str]]:
    """The line-up `team` plays now (its saved one, or the default) and, for each saved player
    who may not play, a sentence saying who replaces him (match_lineup's ruling). The sentences
    become the match's first events: plain text, escaped where they are shown."""
    lineup, changes = match_lineup(team.roster, team.lineup)
    numbers = {card.number for card in team.roster.players}
    notes = []
    for change in changes:
        if change.out is None:
            gone = "an empty slot"
        elif change.out in numbers:
            card = team.roster.card(change.out)
            gone = f"#{change.out} {card.name} ({player_status(team.roster, change.out)})"
        else:
            gone = f"#{change.out} (no longer on the roster)"
        if change.replacement is None:
            instead = f"nobody fit is left for {change.slot}, which stays empty"
        else:
            name = team.roster.card(change.replacement).name
            instead = f"#{change.replacement} {name} plays {change.slot} instead"
        notes.append(f"{team.name}'s saved line-up: {gone} cannot play; {instead}.")
    return lineup, notes


async def match_options(
    bot: Ballcourt, home: store.Team, away: store.Team, mode: str
) -> dict[str, Any]:
    """What the adapter's new_state needs; the fixture if these teams have one to play; the
    notes on saved line-ups that had to change (the match's first message says them)."""
    fixture = await store.open_fixture(bot.db, home.id, away.id)
    home_lineup, home_notes = lineup_for(home)
    away_lineup, away_notes = lineup_for(away)
    return {
        "mode": mode,
        "home": roster_to_json(home.roster),
        "away": roster_to_json(away.roster),
        "home_lineup": home_lineup,
        "away_lineup": away_lineup,
        "home_team_id": home.id,
        "away_team_id": away.id,
        "fixture_id": fixture.id if fixture else None,
        "lineup_notes": home_notes + away_notes,
    }


def registrar(guild_id: int, home: store.Team, away: store.Team, mode: str, fixture: int | None):
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


def busy_text(error: store.TeamBusy, *teams: store.Team) -> str:
    name = next((shown(t.name) for t in teams if t.id == error.team_id), "A team")
    return (
        f"{name} is playing match #{error.game_id} already: a team plays one match at a time "
        "(its injuries carry into the next). Finish that one first. Nothing was started."
    )


async def display_name(interaction: discord.Interaction, user_id: int) -> str:
    guild = interaction.guild
    member = guild.get_member(user_id) if guild else None
    if member is None and guild is not None:
        try:
            member = await guild.fetch_member(user_id)
        except discord.HTTPException:
            member = None
    return member.display_name if member else "their coach"


async def begin(
    bot: Ballcourt,
    interaction: discord.Interaction,
    home_name: str,
    away_name: str,
    mode: str,
    answer_minutes: int,
) -> None:
    adapter = bot.matches.adapters["rollerball2"]
    guild_id = guild_of(interaction)
    home = await find_team(bot, interaction, home_name)
    away = await find_team(bot, interaction, away_name)
    if home.id == away.id:
        raise UserError(f"{shown(home.name)} cannot play itself: pick two different teams.")
    user = interaction.user
    if mode in ("solo", "simulate"):
        for team in (home, away):
            if not may_manage(interaction, team):
                raise UserError(
                    f"{shown(team.name)} is coached by <@{team.owner_id}>: a {mode} match needs "
                    "you to coach both teams. Play it coach against coach (`mode: coaches`) and "
                    "they accept."
                )
    else:
        if user.id not in (home.owner_id, away.owner_id):
            raise UserError(
                "In a coaches match you coach one of the two teams: you coach neither. Pick "
                "your own team (`/rollerball2 team create` makes one)."
            )
        if home.owner_id == away.owner_id:
            raise UserError("You coach both teams: play them `mode: solo` instead.")
        if DELETED_USER_ID in (home.owner_id, away.owner_id):
            raise UserError(
                "One of the teams has no coach any more: a server admin may play it solo."
            )
    for team in (home, away):
        busy = await store.open_match_of(bot.db, team.id)
        if busy is not None:
            raise UserError(busy_text(store.TeamBusy(team.id, busy), home, away))
    options = await match_options(bot, home, away, mode)
    add = registrar(guild_id, home, away, mode, options["fixture_id"])
    describe = f"{score_line(shown(away.name), None, shown(home.name), None)}, {MODE_TEXT[mode]}"
    if options["fixture_id"] is not None:
        describe += ", a season match"
    try:
        if mode == "coaches":
            names = [await display_name(interaction, t.owner_id) for t in (home, away)]
            challenged = 1 if user.id == home.owner_id else 0
            await start_match(
                bot.matches,
                interaction,
                adapter,
                options,
                players=[home.owner_id, away.owner_id],
                names=names,
                describe=describe,
                challenged_seat=challenged,
                remind_minutes=max(1, answer_minutes // 2),
                takeover_minutes=answer_minutes,
                on_create=add,
            )
        elif mode == "solo":
            await start_match(
                bot.matches,
                interaction,
                adapter,
                options,
                players=[user.id],
                names=[user.display_name],
                describe=describe,
                on_create=add,
            )
        else:
            await start_match(
                bot.matches,
                interaction,
                adapter,
                options,
                players=[COMPUTER_ID],
                names=["the bot"],
                describe=describe,
                computers={0: DEFAULT_COACH},
                on_create=add,
            )
    except store.TeamBusy as error:
        raise UserError(busy_text(error, home, away)) from None


async def simulate_fixture(
    bot: Ballcourt,
    adapter: Rollerball2Matches,
    fixture: store.Fixture,
    season: store.Season,
) -> tuple[int, Rb2Match] | None:
    """A season fixture nobody played by its deadline, simulated by the default coaches and
    stored finished at once (the saved line-ups, a player who may not play replaced as in any
    match: lineup_for). None if one of its teams is busy or gone."""
    home = await store.load_team(bot.db, fixture.home_team_id)
    away = await store.load_team(bot.db, fixture.away_team_id)
    if home is None or away is None:
        return None
    options = await match_options(bot, home, away, "simulate")
    options["fixture_id"] = fixture.id
    try:
        game_id, match = await play_out(
            bot.matches,
            adapter,
            options,
            guild_id=season.guild_id,
            channel_id=season.channel_id,
            names=["the bot"],
            on_create=registrar(season.guild_id, home, away, "simulate", fixture.id),
        )
    except store.TeamBusy:
        return None
    return game_id, match.engine


async def box_score(bot: Ballcourt, interaction: discord.Interaction, game_id: int) -> None:
    """A finished match's box score again: the result line, the three stars and the pages."""
    stored = await store.stored_result(bot.db, guild_of(interaction), game_id)
    if stored is None:
        raise UserError(
            f"Match #{game_id} is not a finished Rollerball II match of this server: "
            "`/rollerball2 history team:` lists a team's matches with their numbers."
        )
    await interaction.response.defer(thinking=True)
    res = stored.result
    pages = await asyncio.to_thread(render_box_score_pages, res)
    home, away = shown(res.home.team), shown(res.away.team)
    score = score_line(away, res.away_score, home, res.home_score)
    lines = [f"**Rollerball II #{game_id}: {score}.** {texts.verdict(res)}"]
    stars = three_stars(res)
    if stars:
        lines.append(
            "Three stars: "
            + ", ".join(
                f"{shown(res.home.team if side == 'home' else res.away.team)} #{line.number} "
                f"{shown(line.name)}"
                for side, line in stars
            )
        )
    lines.append(f"Finished {texts.when(stored.finished_at)}.")
    await interaction.followup.send(
        "\n".join(lines),
        files=[
            discord.File(io.BytesIO(page), filename=f"box-score-{index}.png")
            for index, page in enumerate(pages, start=1)
        ],
        allowed_mentions=NO_MENTIONS,
    )


Mode = app_commands.Choice[str]


class MatchCommands(app_commands.Group, name="match", description="Matches"):
    """`/rollerball2 match ...`: start one, the host's standard commands, a past box score."""

    @app_commands.command(
        name="start", description="Start a match: solo, coach against coach, simulated"
    )
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
    async def start(
        self,
        interaction: discord.Interaction,
        home: Team,
        away: Team,
        mode: Mode,
        answer_minutes: app_commands.Range[int, 2, 1440] = 30,
    ) -> None:
        await begin(bot_of(interaction), interaction, home, away, mode.value, answer_minutes)

    @app_commands.command(name="record", description="A match's game record, verifiable at the end")
    async def record(self, interaction: discord.Interaction, id: int | None = None) -> None:
        bot = bot_of(interaction)
        await bot.matches.record(interaction, bot.matches.adapters["rollerball2"], id)

    @app_commands.command(name="board", description="Post the match here again, with its buttons")
    async def board(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        await bot.matches.board(interaction, bot.matches.adapters["rollerball2"])

    @app_commands.command(name="move", description="Type a move: next, until, sub home Skater2 31")
    async def move(
        self, interaction: discord.Interaction, move: app_commands.Range[str, 1, 60]
    ) -> None:
        bot = bot_of(interaction)
        await bot.matches.move_text(interaction, bot.matches.adapters["rollerball2"], move)

    @app_commands.command(name="resign", description="Hand your bench to the default coach")
    async def resign(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        await bot.matches.resign(interaction, bot.matches.adapters["rollerball2"])

    @app_commands.command(name="boxscore", description="A finished match's box score again")
    @app_commands.describe(id="The match's number (history and results list them)")
    async def boxscore(
        self, interaction: discord.Interaction, id: app_commands.Range[int, 1]
    ) -> None:
        await box_score(bot_of(interaction), interaction, id)
