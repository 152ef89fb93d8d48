"""Starting a match (`/rollerball2 match`) and what a finished one writes.

Who may start what (docs/rules/rollerball2.md, "On Discord"):
- solo and simulate: the user coaches both teams (owns them, or is a server admin);
- coaches: the user coaches one team; the other team's coach accepts the challenge.
Both teams' saved line-ups are read now and must be legal (nobody injured, banned or dead);
a team plays one open match at a time (checked in the transaction that creates the match).
If the two teams have an unplayed season fixture with this home and away team, the match is it.

At the end (on_finished, inside the transaction that saves the last move): the result is
stored, both rosters take the carry-over (injuries, bans, deaths; counted absences tick down),
and the fixture gets its score, once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from cogs.rollerball2.adapter import DEFAULT_COACH, Rollerball2Adapter
from cogs.rollerball2.lineup import current_lineup
from cogs.rollerball2.play import Rb2Match
from cogs.rollerball2.teams import find_team, guild_of, may_manage
from db import rollerball2 as store
from host import COMPUTER_ID, DELETED_USER_ID, Match
from host.direct import play_out, start_match
from rules.rollerball2 import (
    AWAY,
    HOME,
    RollerballError,
    result,
    roster_after_match,
    roster_to_json,
    validate_lineup,
)
from ui import UserError

if TYPE_CHECKING:
    import aiosqlite

    from bot import Ballcourt
    from db.games import StoredGame

MODE_TEXT = {
    "solo": "solo, one coach for both teams",
    "coaches": "coach against coach",
    "simulate": "simulated",
}


class Rollerball2Matches(Rollerball2Adapter):
    """The adapter plus what a finished match writes (db/rollerball2.py)."""

    async def on_finished(
        self, conn: aiosqlite.Connection, stored: StoredGame, match: Match
    ) -> None:
        game: Rb2Match = match.engine
        res = result(game.engine)
        rosters = {}
        for side, team_id in ((HOME, game.home_team_id), (AWAY, game.away_team_id)):
            roster = await store.roster_in(conn, team_id)
            if roster is not None:
                rosters[team_id] = roster_after_match(roster, res.carry_over[side])
        how = "simulated" if game.mode == "simulate" else "played"
        await store.record_result(conn, stored.id, res, rosters, how=how)

    async def forget_user(self, conn: aiosqlite.Connection, user_id: int, anonymous: int) -> None:
        await store.forget_owner(conn, user_id, anonymous)

    async def describe_user(self, db: Any, user_id: int) -> list[str]:
        teams = await store.teams_owned(db, user_id)
        if not teams:
            return []
        return [f"Rollerball II: {teams} team{'s' if teams != 1 else ''} you coach"]


def checked_lineup(team: store.Team) -> dict[str, int | None]:
    """The team's saved (or default) line-up; UserError saying who cannot play and how to fix
    it."""
    lineup = current_lineup(team)
    try:
        validate_lineup(team.roster, lineup)
    except RollerballError as error:
        raise UserError(
            f"{team.name}'s line-up cannot play: {error} Its coach fixes it with "
            f"`/rollerball2 team lineup team:{team.name}` (or presses Use the default "
            "line-up there). Nothing was started."
        ) from None
    return lineup


async def match_options(
    bot: Ballcourt, home: store.Team, away: store.Team, mode: str
) -> dict[str, Any]:
    """What the adapter's new_state needs; the fixture if these teams have one to play."""
    fixture = await store.open_fixture(bot.db, home.id, away.id)
    return {
        "mode": mode,
        "home": roster_to_json(home.roster),
        "away": roster_to_json(away.roster),
        "home_lineup": checked_lineup(home),
        "away_lineup": checked_lineup(away),
        "home_team_id": home.id,
        "away_team_id": away.id,
        "fixture_id": fixture.id if fixture else None,
    }


def registrar(guild_id: int, home: store.Team, away: store.Team, mode: str, fixture: int | None):
    async def add(conn: aiosqlite.Connection, game_id: int) -> None:
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


async def busy_text(bot: Ballcourt, error: store.TeamBusy, *teams: store.Team) -> str:
    name = next((t.name for t in teams if t.id == error.team_id), "A team")
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


async def start(
    bot: Ballcourt,
    adapter: Rollerball2Matches,
    interaction: discord.Interaction,
    home_name: str,
    away_name: str,
    mode: str,
    answer_minutes: int,
) -> None:
    guild_id = guild_of(interaction)
    home = await find_team(bot, interaction, home_name)
    away = await find_team(bot, interaction, away_name)
    if home.id == away.id:
        raise UserError(f"{home.name} cannot play itself: pick two different teams.")
    user = interaction.user
    if mode in ("solo", "simulate"):
        for team in (home, away):
            if not may_manage(interaction, team):
                raise UserError(
                    f"{team.name} is coached by <@{team.owner_id}>: a {mode} match needs you to "
                    "coach both teams. Play it coach against coach (`mode: coaches`) and they "
                    "accept."
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
            raise UserError(await busy_text(bot, store.TeamBusy(team.id, busy), home, away))
    options = await match_options(bot, home, away, mode)
    add = registrar(guild_id, home, away, mode, options["fixture_id"])
    describe = f"{away.name} at {home.name}, {MODE_TEXT[mode]}"
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
        raise UserError(await busy_text(bot, error, home, away)) from None


async def simulate_fixture(
    bot: Ballcourt,
    adapter: Rollerball2Matches,
    fixture: store.Fixture,
    season: store.Season,
) -> tuple[int, Rb2Match] | None:
    """A season fixture nobody played by its deadline, simulated by the default coaches and
    stored finished at once (saved line-ups when legal, else the default ones). None if one
    of its teams is busy or gone."""
    home = await store.load_team(bot.db, fixture.home_team_id)
    away = await store.load_team(bot.db, fixture.away_team_id)
    if home is None or away is None:
        return None
    options = {
        "mode": "simulate",
        "home": roster_to_json(home.roster),
        "away": roster_to_json(away.roster),
        "home_team_id": home.id,
        "away_team_id": away.id,
        "fixture_id": fixture.id,
    }
    for side, team in (("home", home), ("away", away)):
        try:
            options[f"{side}_lineup"] = checked_lineup(team)
        except UserError:
            options[f"{side}_lineup"] = None  # the default line-up of fit players
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
