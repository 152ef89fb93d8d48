"""Tournaments on Discord (docs/rules/tournaments.md "On Discord"): the sign-up, the rounds and
the card, written once for every game; the pairing and standings are rules.tournament's.

A tournament lives in a channel: its card there (standings, the round's pairings with a link to
each match, the deadline) is edited in place. Each pairing is a match of the match host, made
in the tournament's channel with its own thread; the transaction that saves a match's last move
writes the tournament game's result (`Core.finish_listeners`) and a timer due at once that
looks whether the round is complete, so the next round is paired once every result is in, also
after a restart. Durable timers (host/timers.py) open the check-in, close the sign-up and end
each round at its deadline: a game without a result by then is decided by the server's absence
policy (`ABSENCES`), and the next round is paired. An admin extends, pauses and resumes a round,
removes a player and decides a game. Everything that changes a tournament happens under its
lock (host/locks.py), as a league's round does; a match's own lock is taken inside it, never
the other way round.
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
from host import direct, timeouts
from host.locks import GameLock
from host.match import COMPUTER_ID, Match, dice_line
from host.opening import open_play
from rules.tournament import (
    TIE_BREAKS,
    Entrant,
    Format,
    Game,
    Knockout,
    RoundRobin,
    Swiss,
    Tables,
    standings,
)
from ui import UserError, display_name, fit
from ui.client import channel_by_id
from ui.formats import plural, timestamp

if TYPE_CHECKING:
    from db.database import Connection
    from host import HostBot
    from host.adapter import GameAdapter

log = logging.getLogger(__name__)

CLOSE_EVENT = "tournament_signup_close"
CHECKIN_EVENT = "tournament_checkin"
DEADLINE_EVENT = "tournament_deadline"
NO_MENTIONS = discord.AllowedMentions.none()
POINTS = {"win": 1.0, "draw": 0.5, "loss": 0.0}
FORMAT_TITLES = {
    "swiss": "Swiss",
    "round_robin": "Round robin",
    "single_elimination": "Single elimination",
    "double_elimination": "Double elimination",
    "tables": "Tables",
}
STANDINGS_SHOWN = 20  # lines of standings on the card (the rest: "and N more")
# The server's absence policies (docs/rules/tournaments.md "Absences"), as the card says them.
ABSENCES = {
    "forfeit": "the absent lose, the others win",
    "computer": "a computer plays for the absent",
    "both_lose": "everyone at the board loses",
}
MISSES_WITHDRAWN = 2  # rounds missed before a player is withdrawn
HOW_DECIDED = {
    "absent": "decided at the deadline",
    "admin": "decided by an admin",
    "removed": "a player was removed",
}

# A game's options for a tournament match of so many seats and how they read ("first to 2"),
# from its presenter.
MatchOptions = Callable[[int], tuple[dict[str, Any], str]]


def format_of(tournament: store.Tournament) -> Format:
    if tournament.format == "swiss":
        return Swiss(tournament.rounds)
    if tournament.format == "tables":
        return Tables(tournament.table_size, tournament.rounds)
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
        bot.timers.register(CHECKIN_EVENT, self._on_checkin)
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

    async def _on_checkin(self, timer: timer_store.Timer) -> None:
        """The check-in opens: the card shows Check in."""
        tournament_id = int(timer.payload["tournament"])
        async with self.lock(tournament_id):
            tournament = await store.load(self.bot.db, tournament_id)
            # a card not posted yet (the command that creates it is still answering) is
            # posted with its check-in by that command: never a second card
            if (
                tournament is not None
                and tournament.status == "signup"
                and tournament.card_message_id is not None
            ):
                await self.show(tournament)

    async def _on_advance(self, timer: timer_store.Timer) -> None:
        await self.advance(int(timer.payload["tournament"]))

    async def _on_deadline(self, timer: timer_store.Timer) -> None:
        await self.deadline(int(timer.payload["tournament"]), int(timer.payload["round"]))

    # ---- the rounds ----------------------------------------------------------------------------

    async def begin(self, tournament_id: int) -> list[int]:
        """The sign-up closes: the players who did not check in (once the check-in opened)
        leave the list, and round 1 is paired (or the tournament ends, with fewer than two).
        The players dropped."""
        async with self.lock(tournament_id):
            tournament = await store.load(self.bot.db, tournament_id)
            if tournament is None or tournament.status != "signup":
                return []
            dropped: list[int] = []
            opens = tournament.checkin_opens
            if opens is not None and time.time() >= opens:
                dropped = await store.drop_unchecked(self.bot.db, tournament.id)
            await self._next_round(tournament)
            return dropped

    async def advance(self, tournament_id: int) -> None:
        """A result came in: once every game of the round has one, the next round (not while
        an admin has paused the round)."""
        async with self.lock(tournament_id):
            tournament = await store.load(self.bot.db, tournament_id)
            if tournament is None or tournament.status != "running":
                return
            rows = await store.games(self.bot.db, tournament.id)
            complete = all(row.points is not None for row in rows if row.round == tournament.round)
            if complete and tournament.paused_at is None:
                await self._next_round(tournament)
            else:
                await self.show(tournament)

    async def deadline(self, tournament_id: int, round_number: int) -> None:
        """The round's time is up: each game without a result is decided by the absence policy
        (`absent`); the next round is paired, unless a computer now plays for someone, when
        the round waits one more period for those games."""
        async with self.lock(tournament_id):
            tournament = await store.load(self.bot.db, tournament_id)
            if tournament is None or tournament.status != "running":
                return
            if tournament.round != round_number or tournament.paused_at is not None:
                return
            waiting = False
            for row in await store.games(self.bot.db, tournament.id):
                if row.round == round_number and row.points is None:
                    waiting |= await self.absent(tournament, row)
            if waiting:
                later = time.time() + tournament.round_minutes * 60
                await store.set_deadline(self.bot.db, tournament, later, DEADLINE_EVENT)
                tournament = await store.load(self.bot.db, tournament.id) or tournament
                await self.show(tournament)
                return
            await self._next_round(tournament)

    async def absent(self, tournament: store.Tournament, row: store.GameRow) -> bool:
        """A game without a result at its round's deadline, decided by the server's policy
        (docs/rules/tournaments.md "Absences"). Absent are the players the match is waiting
        for, or all of them when nobody has moved (a match not started); each misses the round.
        forfeit: the absent score nothing, the others share the point, and the match ends by
        their forfeit; computer: a computer takes the absent seats and the game goes on (True:
        the round waits for it), once per game (at the next deadline the policy is forfeit);
        both_lose, or nobody present: no points for anyone. Under the caller's tournament
        lock; the match's lock is taken here."""
        found = None
        if row.match_id is not None:
            found = await self._hosted(row.match_id)
        if found is None:  # no match (made): everyone is absent
            await self._decide_absent(tournament, row, list(row.seats), (0.0,) * len(row.seats))
            return False
        adapter, stored = found
        async with self.bot.game_locks(stored.id):
            stored = await game_store.load_game(self.bot.db, stored.id) or stored
            if stored.status != "active":
                return False  # it ended meanwhile: its result is in
            match = Match.from_json(adapter, stored.state)
            seats = await self._absent_seats(adapter, stored, match)
            present = [
                seat
                for seat in range(len(row.seats))
                if seat not in seats and seat not in match.computers
            ]
            policy = tournament.absence
            if policy == "computer" and (match.computers or not adapter.engine.levels):
                policy = "forfeit"  # a computer stands in once; the absent then forfeit
            if not present:
                policy = "both_lose"  # a match is never left to computers alone
            users = [row.seats[seat] for seat in seats]
            if policy == "computer":
                await self._record_missed(tournament, users)
                await timeouts.apply_policy(
                    self.bot.matches, adapter, stored, match, seats, "computer", reason="deadline"
                )
                return True
            if policy == "forfeit":
                share = 1.0 / len(present)
                points = tuple(share if seat in present else 0.0 for seat in range(len(row.seats)))
            else:
                points = (0.0,) * len(row.seats)
            await self._decide_absent(tournament, row, users, points)
            if policy == "forfeit":
                await timeouts.apply_policy(
                    self.bot.matches, adapter, stored, match, seats, "forfeit", reason="deadline"
                )
        return False

    async def _absent_seats(
        self, adapter: GameAdapter, stored: game_store.StoredGame, match: Match
    ) -> list[int]:
        """Who is absent at the deadline: everyone when no player has moved, else the people
        the match waits for."""
        moved = {actor for _, actor, _, _ in await game_store.list_moves(self.bot.db, stored.id)}
        people = [
            seat
            for seat, user in enumerate(stored.players)
            if user != COMPUTER_ID and seat not in match.computers
        ]
        if not moved & {stored.players[seat] for seat in people}:
            return people
        return [seat for seat in sorted(adapter.engine.actors(match.engine)) if seat in people]

    async def _decide_absent(
        self,
        tournament: store.Tournament,
        row: store.GameRow,
        users: list[int],
        points: tuple[float, ...],
    ) -> None:
        async with self.bot.db.transaction() as conn:
            if await store.decide(conn, row.id, points, played=False, how="absent"):
                await store.record_absences(
                    conn, tournament.id, users, tournament.round + 1, MISSES_WITHDRAWN
                )

    async def _record_missed(self, tournament: store.Tournament, users: list[int]) -> None:
        async with self.bot.db.transaction() as conn:
            await store.record_absences(
                conn, tournament.id, users, tournament.round + 1, MISSES_WITHDRAWN
            )

    async def _hosted(self, match_id: int) -> tuple[GameAdapter, game_store.StoredGame] | None:
        stored = await game_store.load_game(self.bot.db, match_id)
        if stored is None or stored.game not in self.bot.matches.adapters:
            return None
        return self.bot.matches.adapters[stored.game], stored

    # ---- what an admin does (cogs/tournament checks who may) -----------------------------------

    async def extend(self, tournament_id: int, hours: float) -> store.Tournament:
        """The running round's deadline put off by `hours`."""
        async with self.lock(tournament_id):
            tournament = await self._running(tournament_id)
            if tournament.paused_at is not None:
                raise UserError("The round is paused: resume it first, or extend it after.")
            assert tournament.round_deadline is not None
            later = tournament.round_deadline + hours * 3600
            await store.set_deadline(self.bot.db, tournament, later, DEADLINE_EVENT)
            return await self._shown(tournament_id)

    async def pause(self, tournament_id: int) -> store.Tournament:
        """The round's clock stops (matches may still be played; no round is paired)."""
        async with self.lock(tournament_id):
            tournament = await self._running(tournament_id)
            if tournament.paused_at is not None:
                raise UserError(f"Tournament #{tournament.id} is already paused.")
            await store.set_deadline(
                self.bot.db,
                tournament,
                tournament.round_deadline,
                DEADLINE_EVENT,
                paused_at=time.time(),
            )
            return await self._shown(tournament_id)

    async def resume(self, tournament_id: int) -> store.Tournament:
        """The round gets back the time it had left when paused (then `advance`: a round
        whose results all came in meanwhile ends)."""
        async with self.lock(tournament_id):
            tournament = await self._running(tournament_id)
            if tournament.paused_at is None or tournament.round_deadline is None:
                raise UserError(f"Tournament #{tournament.id} is not paused.")
            left = max(0.0, tournament.round_deadline - tournament.paused_at)
            await store.set_deadline(self.bot.db, tournament, time.time() + left, DEADLINE_EVENT)
            return await self._loaded(tournament_id)

    async def remove(self, tournament_id: int, user_id: int) -> store.Tournament:
        """The player is withdrawn from the next round on, and a game of theirs without a
        result this round is lost by them (the others share the point); then `advance`."""
        async with self.lock(tournament_id):
            tournament = await self._loaded(tournament_id)
            if tournament.status == "finished":
                raise UserError("This tournament is over.")
            if not await store.withdraw(self.bot.db, tournament.id, user_id, tournament.round + 1):
                raise UserError(f"<@{user_id}> is not playing in this tournament.")
            for row in await store.games(self.bot.db, tournament.id):
                if row.round == tournament.round and row.points is None and user_id in row.seats:
                    others = len(row.seats) - 1
                    points = tuple(0.0 if seat == user_id else 1.0 / others for seat in row.seats)
                    async with self.bot.db.transaction() as conn:
                        await store.decide(conn, row.id, points, played=False, how="removed")
            return tournament

    async def decide_game(
        self, tournament_id: int, board: int, winner: int | None
    ) -> store.Tournament:
        """An admin's result for a board of the running round: `winner` takes the point, or
        (None) everyone at the board loses. It counts as not played over the board. Then
        `advance`."""
        async with self.lock(tournament_id):
            tournament = await self._running(tournament_id)
            row = next(
                (
                    row
                    for row in await store.games(self.bot.db, tournament.id)
                    if row.round == tournament.round and row.board == board and len(row.seats) > 1
                ),
                None,
            )
            if row is None:
                raise UserError(
                    f"Round {tournament.round} has no board {board}: the card lists its boards."
                )
            if row.points is not None:
                raise UserError(f"Board {board} already has its result.")
            if winner is not None and winner not in row.seats:
                raise UserError(f"<@{winner}> does not play on board {board}.")
            points = tuple(1.0 if seat == winner else 0.0 for seat in row.seats)
            async with self.bot.db.transaction() as conn:
                await store.decide(conn, row.id, points, played=False, how="admin")
            return tournament

    async def _loaded(self, tournament_id: int) -> store.Tournament:
        tournament = await store.load(self.bot.db, tournament_id)
        if tournament is None:
            raise UserError("That tournament no longer exists.")
        return tournament

    async def _running(self, tournament_id: int) -> store.Tournament:
        tournament = await self._loaded(tournament_id)
        if tournament.status != "running":
            raise UserError(f"Tournament #{tournament.id} has no round being played.")
        return tournament

    async def _shown(self, tournament_id: int) -> store.Tournament:
        """The tournament as it is now, its card made so (under its lock: cards are edited
        in the order of the changes)."""
        tournament = await self._loaded(tournament_id)
        await self.show(tournament)
        return tournament

    async def _next_round(self, tournament: store.Tournament) -> None:
        """Pair the next round and make its matches, or end the tournament."""
        fmt = format_of(tournament)
        entrants = entrants_of(await store.entrants(self.bot.db, tournament.id))
        games = games_of(await store.games(self.bot.db, tournament.id))
        played = tournament.round
        while True:
            active = [e for e in entrants if e.active_in(played + 1)]
            if len(active) < 2 or fmt.finished(entrants, games, played):
                await self._finish(tournament)
                return
            pairing = fmt.pair(entrants, games, played + 1)
            if not pairing.tables and pairing.bye is None:
                # a knockout round of walkovers only (withdrawn players): on to the next, but
                # never past the most rounds the format can take
                played += 1
                if played > fmt.rounds(entrants):
                    await self._finish(tournament)
                    return
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

    async def _finish(self, tournament: store.Tournament) -> None:
        """The tournament ends: its card shows the final standings, and the podium is posted
        below it, the players on it mentioned (once: only the process that ended it posts)."""
        ended = await store.finish(self.bot.db, tournament)
        tournament = await store.load(self.bot.db, tournament.id) or tournament
        await self.show(tournament)
        if not ended:
            return
        entrants = entrants_of(await store.entrants(self.bot.db, tournament.id))
        games = games_of(await store.games(self.bot.db, tournament.id))
        order = standings(entrants, games, tournament.round) if tournament.round else []
        if not order:
            return
        medals = ("🥇", "🥈", "🥉")
        podium = [
            f"{medals[place]} <@{standing.entrant.id}> ({_points(standing.score)})"
            for place, standing in enumerate(order[:3])
        ]
        channel = await channel_by_id(self.bot, tournament.channel_id)
        await channel.send(
            f"**{self._game_title(tournament)} tournament #{tournament.id} is over.**\n"
            + "\n".join(podium),
            allowed_mentions=discord.AllowedMentions(
                users=[discord.Object(int(s.entrant.id)) for s in order[:3]]
            ),
        )

    async def make_matches(self, tournament: store.Tournament) -> None:
        """The matches of the round's tables that have none yet (all of them just after the
        pairing; after a crash in between, those it did not make)."""
        adapter = self.bot.matches.adapters.get(tournament.game)
        if adapter is None or tournament.status != "running":
            return
        channel = await channel_by_id(self.bot, tournament.channel_id)
        guild = self.bot.get_guild(tournament.guild_id)
        for row in await store.games(self.bot.db, tournament.id):
            if row.round != tournament.round or row.match_id is not None or len(row.seats) < 2:
                continue
            players = list(row.seats)
            options, describe = self.match_options[tournament.game](len(players))
            names = [await self._name(guild, user_id) for user_id in players]
            match, events = self.bot.matches.new_match(
                adapter,
                options,
                names,
                auto=await direct.rolled_for(self.bot.matches, adapter, players),
                rated=tournament.rated,
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
            await open_play(self.bot.matches, adapter, stored, match, events, message)

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
        """The card as players read it on a phone: one line each, the round's pairings with
        each player's rating and a link to each match, the deadline (or the pause), the
        absence policy, the standings with their tie-breaks."""
        entrant_rows = await store.entrants(self.bot.db, tournament.id)
        game_rows = await store.games(self.bot.db, tournament.id)
        fmt = format_of(tournament)
        entrants = entrants_of(entrant_rows)
        title = FORMAT_TITLES[tournament.format]
        if tournament.format == "tables":
            title += f" of {tournament.table_size}"
        if tournament.format in ("swiss", "tables"):
            title += f", {plural(tournament.rounds):round}"
        rated = "rated" if tournament.rated else "casual"
        lines = [
            f"## {self._game_title(tournament)} tournament #{tournament.id}",
            f"{title}, {rated}. At the deadline: {ABSENCES[tournament.absence]}.",
        ]
        active = [row for row in entrant_rows if row.withdrawn_from is None]
        if tournament.status == "signup":
            lines.append(
                f"Sign-up open until {timestamp(tournament.signup_until, 'R')}: "
                f"{len(active)} of {tournament.cap} players. Press **Join** to play."
            )
            opens = tournament.checkin_opens
            checking = opens is not None and time.time() >= opens
            if opens is not None:
                when = "now" if checking else f"from {timestamp(opens, 'R')}"
                lines.append(
                    f"Check-in {when}: press **Check in**; who has not checked in when it "
                    "starts does not play."
                )
            lines += [
                f"- <@{row.user_id}> ({row.rating:.0f})"
                + (" ✅" if checking and row.checked_in else "")
                for row in active
            ]
            return fit("\n".join(lines))
        rounds_total = fmt.rounds(entrants)
        ratings = {row.user_id: row.rating for row in entrant_rows}
        if tournament.status == "running":
            assert tournament.round_deadline is not None
            if tournament.paused_at is not None:
                left = plural(
                    max(1, round((tournament.round_deadline - tournament.paused_at) / 60))
                )
                when = f"**paused** by an admin ({left:minute} left)"
            else:
                when = f"deadline {timestamp(tournament.round_deadline, 'R')}"
            lines.append(f"**Round {tournament.round}** of {rounds_total}, {when}:")
            for row in game_rows:
                if row.round != tournament.round:
                    continue
                lines.append(await self._game_line(row, ratings))
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

    async def _game_line(self, row: store.GameRow, ratings: dict[int, float]) -> str:
        """A board: its players with their ratings, and its match's thread (a link that opens
        it) or its result and how it was decided."""
        if len(row.seats) == 1:
            return f"- Bye: <@{row.seats[0]}> (a point)"
        players = " vs ".join(f"<@{seat}> ({ratings.get(seat, 0):.0f})" for seat in row.seats)
        if row.points is not None:
            result = "–".join(_points(points) for points in row.points)
            how = "" if row.played else f" ({HOW_DECIDED.get(row.decided_how or '', 'not played')})"
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
