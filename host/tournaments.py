"""Tournaments on Discord (docs/rules/tournaments.md "On Discord"): the sign-up, the rounds and
the card, written once for every game; the pairing and standings are rules.tournament's.

A tournament lives in a channel: its card there (standings, the round's pairings with a link to
each match, the deadline) is edited in place. Each pairing is a match of the match host, made
in the tournament's channel with its own thread; the transaction that saves a match's last move
writes the tournament game's result (`MatchHost.finish_listeners`) and a timer due at once that
looks whether the round is complete, so the next round is paired once every result is in, also
after a restart. Durable timers (host/timers.py) close the sign-up and end each round at its
deadline: a game not finished by then is lost by both players (the absence policy) and the
next round is paired. Everything that changes a tournament happens under its lock
(host/locks.py), as a league's round does.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord

from db import games as game_store
from db import timers as timer_store
from db import tournaments as store
from host import direct
from host.locks import GameLock
from host.match import Match, dice_line
from rules.tournament import (
    TIE_BREAKS,
    Entrant,
    Format,
    Game,
    Knockout,
    RoundRobin,
    Swiss,
    standings,
)
from ui import display_name, fit
from ui.client import channel_by_id
from ui.formats import plural, timestamp

if TYPE_CHECKING:
    from db.database import Connection
    from host import HostBot
    from host.adapter import GameAdapter

log = logging.getLogger(__name__)

CLOSE_EVENT = "tournament_signup_close"
DEADLINE_EVENT = "tournament_deadline"
NO_MENTIONS = discord.AllowedMentions.none()
POINTS = {"win": 1.0, "draw": 0.5, "loss": 0.0}
FORMAT_TITLES = {
    "swiss": "Swiss",
    "round_robin": "Round robin",
    "single_elimination": "Single elimination",
    "double_elimination": "Double elimination",
}
STANDINGS_SHOWN = 20  # lines of standings on the card (the rest: "and N more")

# A game's options for a tournament match and how they read ("first to 2"), from its presenter.
MatchOptions = Callable[[], tuple[dict[str, Any], str]]


def format_of(tournament: store.Tournament) -> Format:
    if tournament.format == "swiss":
        return Swiss(tournament.rounds)
    if tournament.format == "round_robin":
        return RoundRobin()
    return Knockout(double=tournament.format == "double_elimination")


def entrants_of(rows: list[store.EntrantRow]) -> list[Entrant]:
    return [
        Entrant(str(row.user_id), row.rating, row.joined_round, row.withdrawn_from) for row in rows
    ]


def games_of(rows: list[store.GameRow]) -> list[Game]:
    return [
        Game(row.round, tuple(str(seat) for seat in row.seats), row.points, row.played)
        for row in rows
    ]


class Tournaments:
    """`bot.tournaments`: runs every tournament (set up by the tournament extension)."""

    def __init__(self, bot: HostBot) -> None:
        self.bot = bot
        self.match_options: dict[str, MatchOptions] = {}
        # The card's buttons (Join, Withdraw, Start), from the presenter (cogs/tournament).
        self.card_view: Callable[[store.Tournament], discord.ui.View | None] = lambda _: None
        bot.timers.register(CLOSE_EVENT, self._on_close)
        bot.timers.register(DEADLINE_EVENT, self._on_deadline)
        bot.timers.register(store.ADVANCE_EVENT, self._on_advance)
        bot.matches.finish_listeners.append(self.match_finished)

    def lock(self, tournament_id: int) -> GameLock:
        """The tournament's lock: one change of it at a time (a round, a sign-up)."""
        return self.bot.game_locks(("tournament", tournament_id))

    # ---- what the match host tells -------------------------------------------------------------

    async def match_finished(
        self, conn: Connection, stored: game_store.StoredGame, match: Match, adapter: GameAdapter
    ) -> None:
        """Inside the transaction of a match's last move: a tournament game's result."""
        outcome = adapter.engine.outcome(match.engine)
        await store.match_finished(conn, stored.id, tuple(POINTS[seat] for seat in outcome))

    # ---- timers --------------------------------------------------------------------------------

    async def _on_close(self, timer: timer_store.Timer) -> None:
        await self.begin(int(timer.payload["tournament"]))

    async def _on_advance(self, timer: timer_store.Timer) -> None:
        await self.advance(int(timer.payload["tournament"]))

    async def _on_deadline(self, timer: timer_store.Timer) -> None:
        await self.deadline(int(timer.payload["tournament"]), int(timer.payload["round"]))

    # ---- the rounds ----------------------------------------------------------------------------

    async def begin(self, tournament_id: int) -> None:
        """The sign-up closes: round 1 is paired (or the tournament ends, with fewer than two)."""
        async with self.lock(tournament_id):
            tournament = await store.load(self.bot.db, tournament_id)
            if tournament is None or tournament.status != "signup":
                return
            await self._next_round(tournament)

    async def advance(self, tournament_id: int) -> None:
        """A result came in: once every game of the round has one, the next round."""
        async with self.lock(tournament_id):
            tournament = await store.load(self.bot.db, tournament_id)
            if tournament is None or tournament.status != "running":
                return
            rows = await store.games(self.bot.db, tournament.id)
            if all(row.points is not None for row in rows if row.round == tournament.round):
                await self._next_round(tournament)
            else:
                await self.show(tournament)

    async def deadline(self, tournament_id: int, round_number: int) -> None:
        """The round's time is up: a game without a result is lost by both (the absence
        policy, docs/rules/tournaments.md "On Discord"), and the next round is paired."""
        async with self.lock(tournament_id):
            tournament = await store.load(self.bot.db, tournament_id)
            if tournament is None or tournament.status != "running":
                return
            if tournament.round != round_number:
                return
            rows = await store.games(self.bot.db, tournament.id)
            async with self.bot.db.transaction() as conn:
                for row in rows:
                    if row.round == round_number and row.points is None:
                        await store.decide(conn, row.id, (0.0,) * len(row.seats), played=False)
            await self._next_round(tournament)

    async def _next_round(self, tournament: store.Tournament) -> None:
        """Pair the next round and make its matches, or end the tournament."""
        fmt = format_of(tournament)
        entrants = entrants_of(await store.entrants(self.bot.db, tournament.id))
        games = games_of(await store.games(self.bot.db, tournament.id))
        played = tournament.round
        while True:
            active = [e for e in entrants if e.active_in(played + 1)]
            if len(active) < 2 or fmt.finished(entrants, games, played):
                await store.finish(self.bot.db, tournament)
                break
            pairing = fmt.pair(entrants, games, played + 1)
            if not pairing.tables and pairing.bye is None:
                # a knockout round of walkovers only (withdrawn players): on to the next, but
                # never past the most rounds the format can take
                played += 1
                if played > fmt.rounds(entrants):
                    await store.finish(self.bot.db, tournament)
                    break
                continue
            deadline = time.time() + tournament.round_minutes * 60
            byes = [(int(pairing.bye), 1.0)] if pairing.bye is not None else []
            tables = [tuple(int(seat) for seat in table) for table in pairing.tables]
            if not await store.start_round(
                self.bot.db, tournament, played + 1, tables, byes, deadline, DEADLINE_EVENT
            ):
                return  # another process paired it
            break
        tournament = await store.load(self.bot.db, tournament.id) or tournament
        await self.make_matches(tournament)
        await self.show(tournament)

    async def make_matches(self, tournament: store.Tournament) -> None:
        """The matches of the round's tables that have none yet (all of them just after the
        pairing; after a crash in between, those it did not make)."""
        adapter = self.bot.matches.adapters.get(tournament.game)
        if adapter is None or tournament.status != "running":
            return
        options, describe = self.match_options[tournament.game]()
        channel = await channel_by_id(self.bot, tournament.channel_id)
        guild = self.bot.get_guild(tournament.guild_id)
        for row in await store.games(self.bot.db, tournament.id):
            if row.round != tournament.round or row.match_id is not None or len(row.seats) < 2:
                continue
            players = list(row.seats)
            names = [await self._name(guild, user_id) for user_id in players]
            match, events = self.bot.matches.new_match(
                adapter,
                options,
                names,
                auto=await direct.rolled_for(self.bot.matches, adapter, players),
            )

            async def link(conn: Connection, match_id: int, game_row: int = row.id) -> None:
                await store.link_match(conn, game_row, match_id)

            match_id = await game_store.create_game(
                self.bot.db,
                game=tournament.game,
                guild_id=tournament.guild_id,
                channel_id=tournament.channel_id,
                players=players,
                state=match.to_json(adapter),
                status="active",
                also=link,
            )
            labels = " vs ".join(adapter.seat_label(match, seat) for seat in range(len(players)))
            message = await channel.send(
                fit(
                    f"Tournament #{tournament.id}, round {tournament.round}, board {row.board}: "
                    f"{adapter.title} match #{match_id} ({describe}): {labels}. "
                    + " ".join(f"<@{user_id}>" for user_id in players)
                    + "\n"
                    + dice_line(match.commitment, adapter.command("record"))
                ),
                allowed_mentions=discord.AllowedMentions(
                    users=[discord.Object(user_id) for user_id in players]
                ),
            )
            stored = await game_store.load_game(self.bot.db, match_id)
            assert stored is not None
            await self.bot.matches.open_play(adapter, stored, match, events, message)

    async def _name(self, guild: discord.Guild | None, user_id: int) -> str:
        member = guild.get_member(user_id) if guild is not None else None
        if member is None and guild is not None:
            try:
                member = await guild.fetch_member(user_id)
            except discord.HTTPException:
                member = None
        return display_name(member) if member is not None else f"Player {user_id}"

    # ---- the card ------------------------------------------------------------------------------

    async def card_text(self, tournament: store.Tournament) -> str:
        """The card as players read it on a phone: one line each, the round's pairings with a
        link to each match, the deadline, the standings with their tie-breaks."""
        entrant_rows = await store.entrants(self.bot.db, tournament.id)
        game_rows = await store.games(self.bot.db, tournament.id)
        fmt = format_of(tournament)
        entrants = entrants_of(entrant_rows)
        title = FORMAT_TITLES[tournament.format]
        if tournament.format == "swiss":
            title += f", {plural(tournament.rounds):round}"
        lines = [f"## {self._game_title(tournament)} tournament #{tournament.id}", f"{title}."]
        active = [row for row in entrant_rows if row.withdrawn_from is None]
        if tournament.status == "signup":
            lines.append(
                f"Sign-up open until {timestamp(tournament.signup_until, 'R')}: "
                f"{len(active)} of {tournament.cap} players. Press **Join** to play."
            )
            lines += [f"- <@{row.user_id}> ({row.rating:.0f})" for row in active]
            return fit("\n".join(lines))
        rounds_total = fmt.rounds(entrants)
        if tournament.status == "running":
            assert tournament.round_deadline is not None
            lines.append(
                f"**Round {tournament.round}** of {rounds_total}, "
                f"deadline {timestamp(tournament.round_deadline, 'R')}:"
            )
            for row in game_rows:
                if row.round != tournament.round:
                    continue
                lines.append(await self._game_line(row))
        else:
            lines.append(f"**Finished** after {plural(tournament.round):round}.")
        # the standings of the rounds complete: a round being played counts when it is over
        # (its bye, scored at the pairing, would otherwise put its player ahead of everyone)
        complete = tournament.round if tournament.status == "finished" else tournament.round - 1
        done = [game for game in games_of(game_rows) if game.round <= complete]
        order = standings(entrants, done, complete)
        if tournament.status == "finished" and order:
            lines.append(f"🏆 <@{order[0].entrant.id}> wins.")
        lines.append("**Standings**")
        for standing in order[:STANDINGS_SHOWN]:
            out = " (withdrew)" if standing.entrant.withdrawn_from is not None else ""
            lines.append(
                f"{standing.rank}. <@{standing.entrant.id}>{out}: **{_points(standing.score)}**"
                f" · Bh {_points(standing.buchholz)} · SB {_points(standing.sonneborn_berger)}"
            )
        if len(order) > STANDINGS_SHOWN:
            lines.append(f"…and {len(order) - STANDINGS_SHOWN} more.")
        lines.append("-# Ties: " + ", then ".join(name for name, _ in TIE_BREAKS) + ".")
        return fit("\n".join(lines))

    def _game_title(self, tournament: store.Tournament) -> str:
        adapter = self.bot.matches.adapters.get(tournament.game)
        return adapter.title if adapter is not None else tournament.game

    async def _game_line(self, row: store.GameRow) -> str:
        """A board: its players, and its match's thread (a link that opens it) or its result."""
        if len(row.seats) == 1:
            return f"- Bye: <@{row.seats[0]}> (a point)"
        players = " vs ".join(f"<@{seat}>" for seat in row.seats)
        if row.points is not None:
            result = "–".join(_points(points) for points in row.points)
            how = "" if row.played else " (not played by the deadline)"
            return f"- Board {row.board}: {players}, {result}{how}"
        if row.match_id is None:
            return f"- Board {row.board}: {players}, starting"
        stored = await game_store.load_game(self.bot.db, row.match_id)
        thread = stored.thread_id if stored is not None else None
        where = f" in <#{thread}>" if thread is not None else ""
        return f"- Board {row.board}: {players}, match #{row.match_id}{where}"

    async def show(self, tournament: store.Tournament) -> None:
        """The card made current: edited in place, or posted (and remembered) when it has none
        or its message is gone."""
        text = await self.card_text(tournament)
        view = self.card_view(tournament)
        channel = await channel_by_id(self.bot, tournament.channel_id)
        if tournament.card_message_id is not None:
            try:
                await channel.get_partial_message(tournament.card_message_id).edit(
                    content=text, view=view, allowed_mentions=NO_MENTIONS
                )
                return
            except discord.NotFound:
                log.info("tournament %s's card is gone: posting it again", tournament.id)
        if view is None:
            message = await channel.send(text, allowed_mentions=NO_MENTIONS)
        else:
            message = await channel.send(text, view=view, allowed_mentions=NO_MENTIONS)
        await store.set_card(self.bot.db, tournament.id, message.id)


def _points(value: float) -> str:
    """1, 1.5, 0.25: a score as players write it."""
    return f"{value:g}"
