"""/games: every match and league of yours on every server, in one private list (lichess's
correspondence list, Board Game Arena's "your turn"), and the daily DM digest of what waits for
you (/settings me). Works in DMs with the bot too (docs/async-play.md)."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from db import clocks as clock_store
from db import settings as settings_store
from db import timers as timer_store
from db.player_games import finished_games_of, open_games_of
from host import clocks, notify, results, timeouts
from host import replays as replays_of
from host.listing import Entry, ListsGames, ListsReplays, server_name
from host.lobby import Lobby, is_lobby
from host.match import COMPUTER_ID, Match
from render.replay import replayable
from rules.clocks import remaining
from rules.games import title_of
from ui import fit, shown
from ui.formats import plural, possessive, span
from ui.items import view_of

if TYPE_CHECKING:
    from bot import Ballcourt
    from db.games import StoredGame

log = logging.getLogger(__name__)

DIGEST_EVENT = settings_store.DIGEST_EVENT
EVERYWHERE = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)
BOTH_INSTALLS = app_commands.AppInstallationType(guild=True, user=True)
SHOWN_AT_MOST = 20  # lines in one list (an embed's description holds 4096 characters)
FINISHED_SHOWN = 5  # finished matches listed, one Replay button each: one row of buttons


def names_of(state_json: str) -> list[str]:
    try:
        names = json.loads(state_json).get("names")
    except (ValueError, AttributeError):
        return []
    return [str(name) for name in names] if isinstance(names, list) else []


def rated_of(state_json: str) -> bool:
    """Is the stored match (or table) rated? Both keep the choice as "rated" (rated by
    default, as before the choice existed)."""
    try:
        return json.loads(state_json).get("rated", True) is not False
    except (ValueError, AttributeError):
        return True


def joined(names: Sequence[str], *, escaped: bool = False) -> str:
    """Names as a list in prose, each shown as text (`escaped`: they already are)."""
    names = list(names) if escaped else [shown(name) for name in names]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


class GameList:
    """What waits for a user, built from the database (the host's matches, the leagues)."""

    def __init__(self, bot: Ballcourt) -> None:
        self.bot = bot

    async def entries(self, user_id: int, now: float) -> list[Entry]:
        games = await open_games_of(self.bot.db, user_id)
        timers = await clock_store.timers_of_games(self.bot.db, [g.id for g in games])
        by_game: dict[int, list[clock_store.TimerRow]] = {}
        for timer in timers:
            if timer.game_id is not None:
                by_game.setdefault(timer.game_id, []).append(timer)
        vacation = await clock_store.vacations(self.bot.db, user_id, since=now - 90 * 86400)
        rating_of = await self.ratings_by_game(games)
        found = []
        for stored in games:
            try:
                entry = self.match_entry(
                    stored, user_id, by_game.get(stored.id, []), vacation, now, rating_of
                )
            except Exception:  # one unreadable match must not hide the others
                log.exception("/games could not show match %s", stored.id)
                continue
            if entry is not None:
                found.append(entry)
        found += await self.league_entries(user_id, now)
        return sorted(found, key=lambda e: (not e.your_turn, e.deadline or 1e18, -e.sort_key))

    async def ratings_by_game(self, games: Sequence[StoredGame]) -> dict[int, dict[int, str]]:
        """Every player's rating in each match's server as lines show it: one look-up per
        game and server, however many matches."""
        wanted: dict[tuple[str, int], set[int]] = {}
        for stored in games:
            if stored.guild_id is not None and stored.game in self.bot.matches.adapters:
                wanted.setdefault((stored.game, stored.guild_id), set()).update(stored.players)
        found = {
            (game, guild_id): await results.seat_ratings(
                self.bot.matches, self.bot.matches.adapters[game], guild_id, sorted(users)
            )
            for (game, guild_id), users in wanted.items()
        }
        return {
            stored.id: found.get((stored.game, stored.guild_id or 0), {})
            if rated_of(stored.state)
            else {}
            for stored in games
        }

    def where(self, guild_id: int | None) -> str:
        return server_name(self.bot, guild_id)

    @staticmethod
    def versus(
        stored: StoredGame, user_id: int, rating_of: dict[int, dict[int, str]] | None = None
    ) -> str:
        """Whom the user plays in a match, as its line says it: "vs Bob (1500), rated (you:
        1480)", "vs Bob, casual", "solo"."""
        names = names_of(stored.state)
        ratings_here = (rating_of or {}).get(stored.id, {})
        others = [
            results.with_rating(shown(names[s]) if s < len(names) else "?", player, ratings_here)
            for s, player in enumerate(stored.players)
            if player != user_id
        ]
        versus = f"vs {joined(others, escaped=True)}" if others else "solo"
        if ratings_here and user_id in ratings_here:
            versus += f", rated (you: {ratings_here[user_id]})"
        elif others and not rated_of(stored.state):
            versus += ", casual"
        return versus

    async def finished(self, user_id: int) -> list[tuple[int, Entry]]:
        """The user's latest finished matches that have a replay, (match, its line under its
        result), newest first (a line that cannot be read is left out, logged)."""
        adapters = self.bot.matches.adapters
        games = tuple(name for name in adapters if replayable(name))
        found = []
        for stored in await finished_games_of(self.bot.db, user_id, games, limit=FINISHED_SHOWN):
            try:
                adapter = adapters[stored.game]
                result = adapter.result_text(Match.from_json(adapter, stored.state))
            except Exception:  # one unreadable match must not hide the others
                log.exception("/games could not show finished match %s", stored.id)
                continue
            title = f"{title_of(stored.game)} #{stored.id}"
            where, versus = self.where(stored.guild_id), self.versus(stored, user_id)
            found.append(
                (stored.id, Entry(False, title, where, versus, result, notify.jump_url(stored)))
            )
        return found

    def match_entry(
        self,
        stored: StoredGame,
        user_id: int,
        timers: list[clock_store.TimerRow],
        vacation: list[tuple[float, float]],
        now: float,
        rating_of: dict[int, dict[int, str]] | None = None,
    ) -> Entry | None:
        adapter = self.bot.matches.adapters.get(stored.game)
        title = f"{title_of(stored.game)} #{stored.id}"
        names = names_of(stored.state)
        seat = stored.players.index(user_id)
        versus = self.versus(stored, user_id, rating_of)
        link = notify.jump_url(stored)
        where = self.where(stored.guild_id)
        if stored.status == "pending":
            if is_lobby(stored.state):
                lobby = Lobby.from_json(stored.state)
                free = lobby.seats - len(stored.players)
                mine = lobby.creator == user_id
                state = (
                    f"your table: {plural(free):seat} free, Start when ready"
                    if mine
                    else "waiting for the table's host to start"
                )
                return Entry(mine and free == 0, title, where, "table", state, link)
            if adapter is None:
                return None
            match = Match.from_json(adapter, stored.state)
            challenged = stored.players[match.challenged_seat]
            state = (
                "challenge for you: Accept or Decline"
                if challenged == user_id
                else f"waiting for {joined([names[match.challenged_seat]])} to accept"
            )
            return Entry(
                challenged == user_id, title, where, versus, state, link, sort_key=stored.id
            )
        if adapter is None:
            return None
        match = Match.from_json(adapter, stored.state)
        acting = sorted(adapter.engine.actors(match.engine))
        mine = seat in acting and seat not in match.computers
        waiting_for = [
            names[s] if s < len(names) else "?"
            for s in acting
            if s != seat and stored.players[s] != COMPUTER_ID
        ]
        if mine:
            state = "**your move**"
        elif seat in match.computers:
            state = "a computer plays your seat (Take my seat back in the match)"
        elif waiting_for:
            state = (
                f"{possessive(joined(waiting_for))} move"
                if len(waiting_for) == 1
                else (f"waiting for {joined(waiting_for)}")
            )
        else:
            state = "the computer is moving"
        clock_line = ""
        clock = clocks.clock_of(match)
        if clock is not None:
            on_vacation = any(a <= now < b for a, b in vacation)
            left = remaining(clock, seat, now, vacation)
            clock_line = f"your clock: {span(left)} left" + (
                " (paused: you're on vacation)" if on_vacation and seat in clock.since else ""
            )
        found = timeouts.deadline_of(timers)
        deadline = found.due_at if found else None
        what = "" if found is None else "time runs out" if found.final else "reminder"
        return Entry(mine, title, where, versus, state, link, deadline, what, clock_line, stored.id)

    async def league_replays(self, user_id: int) -> list[tuple[Any, Entry]]:
        """The user's leagues' latest played matches with their Replay buttons (host/listing.py
        ListsReplays), after the hosted ones: a row of buttons of their own."""
        found: list[tuple[Any, Entry]] = []
        for cog in self.bot.cogs.values():
            if isinstance(cog, ListsReplays):
                try:
                    found += await cog.replay_entries(user_id)
                except Exception:  # one league cog failing must not hide the rest
                    log.exception("/games could not list the replays of %s", type(cog).__name__)
        return found

    async def league_entries(self, user_id: int, now: float) -> list[Entry]:
        """What the game cogs that run leagues list for the user (host/listing.py)."""
        found: list[Entry] = []
        for cog in self.bot.cogs.values():
            if isinstance(cog, ListsGames):
                try:
                    found += await cog.games_entries(user_id, now)
                except Exception:  # one league cog failing must not hide the rest
                    log.exception("/games could not list the leagues of %s", type(cog).__name__)
        return found


def render(entries: list[Entry], *, heading: str, finished: Sequence[Entry] = ()) -> discord.Embed:
    mine = [e for e in entries if e.your_turn]
    others = [e for e in entries if not e.your_turn]
    lines: list[str] = []
    if mine:
        lines.append(f"__Waiting for you ({len(mine)})__")
        lines += [f"• {e.line()}" for e in mine[:SHOWN_AT_MOST]]
    if others:
        room = max(0, SHOWN_AT_MOST - len(mine))
        lines.append(f"__Waiting for others ({len(others)})__")
        lines += [f"• {e.line()}" for e in others[:room]]
    hidden = max(0, len(entries) - SHOWN_AT_MOST)
    if hidden:
        lines.append(f"…and {hidden} more.")
    if finished:
        lines.append(f"__Finished lately: watch them again ({len(finished)})__")
        lines += [f"• {e.line()}" for e in finished]
    embed = discord.Embed(title=heading, description=fit("\n".join(lines), 4000), colour=0x0072B2)
    embed.set_footer(text="Only you see this. /settings me: how and when you are pinged.")
    return embed


class Games(commands.Cog):
    def __init__(self, bot: Ballcourt) -> None:
        self.bot = bot
        self.list = GameList(bot)
        bot.timers.register(DIGEST_EVENT, self.on_digest_timer)

    @app_commands.command(
        name="games", description="Your matches and leagues on every server: whose turn, deadlines"
    )
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.allowed_installs(guilds=True, users=True)
    async def games(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        entries = await self.list.entries(interaction.user.id, time.time())
        finished = await self.list.finished(interaction.user.id)
        leagues = await self.list.league_replays(interaction.user.id)
        if not entries and not finished and not leagues:
            await interaction.followup.send(
                "You have no matches or leagues going. `/help` shows how to start one.",
                ephemeral=True,
            )
            return
        waiting = sum(e.your_turn for e in entries)
        # each finished match's replay, privately, from its set-up (host/replays.py)
        replays: list[discord.ui.Item[Any]] = [
            replays_of.opener(game_id, f"Replay #{game_id}") for game_id, _ in finished
        ]
        replays += [button for button, _ in leagues]
        embed = render(
            entries,
            heading=f"Your games: {waiting} waiting for you, {len(entries) - waiting} for others",
            finished=[entry for _, entry in finished] + [entry for _, entry in leagues],
        )
        if replays:
            await interaction.followup.send(embed=embed, view=view_of(replays), ephemeral=True)
        else:
            await interaction.followup.send(embed=embed, ephemeral=True)

    # ---- the daily digest ------------------------------------------------------------------------------

    async def on_digest_timer(self, timer: timer_store.Timer) -> None:
        user_id = int(timer.payload["user_id"])
        settings = await settings_store.user_settings(self.bot.db, user_id)
        if settings.digest_minute is None:
            return  # switched off since
        now = time.time()
        try:
            entries = [e for e in await self.list.entries(user_id, now) if e.your_turn]
            # what they follow that waited for the digest (host/follow.py)
            news = await self.bot.matches.follows.digest_lines(user_id)
            if entries or news:
                await notify.send_dms(self.bot, [user_id], _digest_text(entries, news))
        finally:
            # the fired timer becomes the next one (the database allows one per user)
            due = notify.next_local(settings, now + 60, settings.digest_minute)
            await settings_store.set_digest(self.bot.db, user_id, due)


def _digest_text(entries: list[Entry], news: list[str]) -> str:
    count = len(entries)
    lines = ["Good day!"]
    if entries:
        lines[0] += f" {count} of your games {plural(count):waits|wait!} for you:"
        lines += [f"• {entry.line()}" for entry in entries[:SHOWN_AT_MOST]]
    if len(entries) > SHOWN_AT_MOST:
        lines.append(f"…and {len(entries) - SHOWN_AT_MOST} more: `/games` lists them all.")
    lines += news
    lines.append("(`/settings me digest:off` stops this DM.)")
    return fit("\n".join(lines))


async def setup(bot: Ballcourt) -> None:
    await bot.add_cog(Games(bot))
