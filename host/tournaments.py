"""Tournaments on Discord (docs/rules/tournaments.md "On Discord"): the sign-up, the rounds and
the card, written once for every game; the pairing and standings are rules.tournament's.

A tournament lives in a channel: its card there (standings, the round's pairings with a link to
each match, the deadline) is edited in place. Each pairing is a match of the match host, made
in the tournament's channel with its own thread; the transaction that saves a match's last move
writes the tournament game's result (`Core.finish_listeners`) and a timer due at once that
looks whether the round is complete, so the next round is paired once every result is in, also
after a restart. Durable timers (host/timers.py) open the check-in and close the sign-up.

A tournament's rounds run on the league host (host/leagues/, `TournamentRounds` its
`LeagueAdapter`), as a league's rounds do: its lock, each round's deadline timer (a game without
a result by then is decided by the server's absence policy, `ABSENCES`, and the next round is
paired), an admin's extension, pause and resume, the players' vacations that put a deadline off
where the tournament lets them (docs/rules/tournaments.md "Vacations"), the start-up repair and
the lines of /games. An admin also removes a player and decides a game. Everything that changes
a tournament happens under its lock (host/locks.py); a match's own lock is taken inside it,
never the other way round.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from db import games as game_store
from db import timers as timer_store
from db import tournament_podiums as podium_marks
from db import tournaments as store
from host import podium, starting, timeouts, tournament_images
from host.leagues import LeagueHost, Outcome, Round
from host.listing import Entry, server_name
from host.locks import GameLock
from host.match import COMPUTER_ID, Match, dice_line
from host.notify import channel_link
from host.opening import open_play
from rules.periods import counted_deadline, time_left
from ui import UserError, fit
from ui.client import channel_by_id, member_name
from ui.formats import plural, timestamp

if TYPE_CHECKING:
    from db.database import Connection
    from host import HostBot
    from host.adapter import GameAdapter

    # A game's options for a tournament match of these players (user ids, in seat order), how
    # they read, and what the match adds to the game's own tables in the transaction that
    # creates it; None when it cannot be made now.
    MatchSetup = Callable[
        [store.Tournament, list[int]],
        Awaitable[tuple[dict[str, Any], str, Callable[[Connection, int], Awaitable[None]]] | None],
    ]

log = logging.getLogger(__name__)

CLOSE_EVENT = "tournament_signup_close"
CHECKIN_EVENT = "tournament_checkin"
DEADLINE_EVENT = "tournament_deadline"
NO_MENTIONS = discord.AllowedMentions.none()
GONE = "That tournament no longer exists."  # the refusal when a tournament is gone
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


class Tournaments:
    """`bot.tournaments`: runs every tournament (set up by the tournament extension)."""

    def __init__(self, bot: HostBot) -> None:
        self.bot = bot
        self.match_options: dict[str, MatchOptions] = {}
        # A game whose matches are made from what the players entered with (a Rollerball II
        # cup's teams), from its presenter: it replaces `match_options`.
        self.match_setups: dict[str, MatchSetup] = {}
        # The card's buttons (Join, Withdraw, Start), from the presenter (cogs/tournament).
        self.card_view: Callable[[store.Tournament], discord.ui.View | None] = lambda _: None
        bot.timers.register(CLOSE_EVENT, self._on_close)
        bot.timers.register(CHECKIN_EVENT, self._on_checkin)
        bot.timers.register(store.ADVANCE_EVENT, self._on_advance)
        bot.matches.finish_listeners.append(self.match_finished)
        # the rounds' deadlines, pause, vacations, repair and /games (the module docstring)
        self.rounds = TournamentRounds(self)
        self.host: LeagueHost[store.Tournament] = LeagueHost(bot, self.rounds)

    def lock(self, tournament_id: int) -> GameLock:
        """The tournament's lock (the league host's): one change of it at a time (a round, a
        sign-up)."""
        return self.host.lock(tournament_id)

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

    async def round_over(self, tournament: store.Tournament) -> None:
        """Under the lock, at the round's deadline (the league host's `play`): each game
        without a result is decided by the absence policy (`absent`); the next round is
        paired, unless a computer now plays for someone, when the round waits one more period
        for those games."""
        waiting = False
        for row in await store.games(self.bot.db, tournament.id):
            if row.round == tournament.round and row.points is None:
                waiting |= await self.absent(tournament, row)
        if waiting:
            now = time.time()
            await self.rounds.arm(
                tournament, since=now, set_deadline=now + tournament.round_minutes * 60
            )
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
        both_lose, or nobody present: no points for anyone (and in a cup everyone at the board
        forfeits the match, docs/rules/tournaments.md "A Rollerball II cup"). Under the
        caller's tournament lock; the match's lock is taken here."""
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
            elif tournament.game in self.match_setups:
                # A match made from what the players entered with (a cup's teams) holds it:
                # a team plays one match at a time, so left open it would keep the team that
                # goes through from its next round's match. Everyone at the board forfeits it
                # as the game has a forfeit end (Rollerball II: the default coach plays both
                # benches to the final whistle); its result changes nothing here.
                everyone = [seat for seat in range(len(row.seats)) if seat not in match.computers]
                await timeouts.apply_policy(
                    self.bot.matches, adapter, stored, match, everyone, "forfeit", reason="deadline"
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
        """The running round's deadline put off by `hours` (on the league host; the card shows
        it)."""

        async def apply(tournament: store.Tournament) -> store.Tournament:
            self._check_running(tournament)
            if tournament.paused_at is not None:
                raise UserError("The round is paused: resume it first, or extend it after.")
            since, set_deadline = self.rounds.round_time(tournament)
            await self.rounds.arm(tournament, since=since, set_deadline=set_deadline + hours * 3600)
            return await self.loaded(tournament.id)

        return await self.host.change(tournament_id, apply)

    async def pause(self, tournament_id: int) -> store.Tournament:
        """The round's clock stops (matches may still be played; no round is paired)."""

        async def apply(tournament: store.Tournament) -> store.Tournament:
            self._check_running(tournament)
            if tournament.paused_at is not None:
                raise UserError(f"Tournament #{tournament.id} is already paused.")
            since, set_deadline = self.rounds.round_time(tournament)
            await store.set_deadline(
                self.bot.db,
                tournament,
                tournament.round_deadline,
                DEADLINE_EVENT,
                since=since,
                set_deadline=set_deadline,
                paused_at=time.time(),
            )
            return await self.loaded(tournament.id)

        return await self.host.change(tournament_id, apply)

    async def resume(self, tournament_id: int) -> store.Tournament:
        """The round gets back the time it had left when paused (its players' vacations not
        counted, where they count); then the caller's `advance`: a round whose results all
        came in meanwhile ends."""

        async def apply(tournament: store.Tournament) -> store.Tournament:
            self._check_running(tournament)
            if tournament.paused_at is None or tournament.round_deadline is None:
                raise UserError(f"Tournament #{tournament.id} is not paused.")
            since, set_deadline = self.rounds.round_time(tournament)
            since = min(since, tournament.paused_at)  # a round paired before it was stored
            periods = await self.rounds.away(tournament, since)
            left = time_left(since, set_deadline, tournament.paused_at, periods)
            now = time.time()
            await self.rounds.arm(tournament, since=now, set_deadline=now + left)
            return await self.loaded(tournament.id)

        return await self.host.change(tournament_id, apply, shown=False)

    async def remove(self, tournament_id: int, user_id: int) -> store.Tournament:
        """The player is withdrawn from the next round on, and a game of theirs without a
        result this round is lost by them (the others share the point); then `advance`."""
        async with self.lock(tournament_id):
            tournament = await self.loaded(tournament_id)
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

    async def loaded(self, tournament_id: int) -> store.Tournament:
        """The tournament as stored, or a private refusal saying it is gone."""
        tournament = await store.load(self.bot.db, tournament_id)
        if tournament is None:
            raise UserError(GONE)
        return tournament

    async def _running(self, tournament_id: int) -> store.Tournament:
        return self._check_running(await self.loaded(tournament_id))

    @staticmethod
    def _check_running(tournament: store.Tournament) -> store.Tournament:
        if tournament.status != "running":
            raise UserError(f"Tournament #{tournament.id} has no round being played.")
        return tournament

    async def _next_round(self, tournament: store.Tournament) -> None:
        """Pair the next round and make its matches, or end the tournament."""
        fmt = store.format_of(tournament)
        entrants = store.entrants_of(await store.entrants(self.bot.db, tournament.id))
        games = store.games_of(await store.games(self.bot.db, tournament.id))
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
        below it, the players on it mentioned, once (host/podium.py: also after a crash)."""
        await store.finish(self.bot.db, tournament)
        tournament = await store.load(self.bot.db, tournament.id) or tournament
        await self.show(tournament)
        await podium.post(self, tournament)

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
            register = None
            setup = self.match_setups.get(tournament.game)
            if setup is None:
                options, describe = self.match_options[tournament.game](len(players))
            else:
                made = await setup(tournament, players)
                if made is None:
                    continue  # it cannot be played now: the deadline decides it (its absences)
                options, describe, register = made
            names = [await self.name_of(guild, user_id) for user_id in players]
            match, events = self.bot.matches.new_match(
                adapter,
                options,
                names,
                auto=await starting.rolled_for(self.bot.matches, adapter, players),
                rated=tournament.rated,
            )

            async def link(
                conn: Connection, match_id: int, game_row: int = row.id, register=register
            ) -> None:
                await store.link_match(conn, game_row, match_id)
                if register is not None:
                    await register(conn, match_id)

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

    async def name_of(self, guild: discord.Guild | None, user_id: int) -> str:
        return await member_name(guild, user_id, f"Player {user_id}")

    # ---- the card ------------------------------------------------------------------------------

    async def card_text(self, tournament: store.Tournament) -> str:
        """The card as players read it on a phone: one line each, the round's pairings with
        each player's rating and a link to each match, the deadline (or the pause), the
        absence policy, the standings with their tie-breaks."""
        entrant_rows = await store.entrants(self.bot.db, tournament.id)
        game_rows = await store.games(self.bot.db, tournament.id)
        fmt = store.format_of(tournament)
        entrants = store.entrants_of(entrant_rows)
        title = FORMAT_TITLES[tournament.format]
        if tournament.format == "tables":
            title += f" of {tournament.table_size}"
        if tournament.format in ("swiss", "tables"):
            title += f", {plural(tournament.rounds):round}"
        rated = "rated" if tournament.rated else "casual"
        lines = [
            f"## {self.game_title(tournament)} tournament #{tournament.id}",
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
        # the standings of the rounds complete (a read of the stored totals)
        order = await store.standings(self.bot.db, tournament, entrants, top=STANDINGS_SHOWN)
        if tournament.status == "finished" and order:
            lines.append(f"🏆 <@{order[0].entrant.id}> wins.")
        lines.append("**Standings**")
        for standing in order[:STANDINGS_SHOWN]:
            out = " (withdrew)" if standing.entrant.withdrawn_from is not None else ""
            lines.append(
                f"{standing.rank}. <@{standing.entrant.id}>{out}: **{score_text(standing.score)}**"
                f" · Bh {score_text(standing.buchholz)} · SB {score_text(standing.sonneborn_berger)}"
            )
        if len(entrants) > STANDINGS_SHOWN:
            lines.append(f"…and {len(entrants) - STANDINGS_SHOWN} more.")
        lines.append(f"-# Ties: {tournament_images.TIES}.")
        return fit("\n".join(lines))

    def game_title(self, tournament: store.Tournament) -> str:
        adapter = self.bot.matches.adapters.get(tournament.game)
        return adapter.title if adapter is not None else tournament.game

    async def _game_line(self, row: store.GameRow, ratings: dict[int, float]) -> str:
        """A board: its players with their ratings, and its match's thread (a link that opens
        it) or its result and how it was decided."""
        if len(row.seats) == 1:
            return f"- Bye: <@{row.seats[0]}> (a point)"
        players = " vs ".join(f"<@{seat}> ({ratings.get(seat, 0):.0f})" for seat in row.seats)
        if row.points is not None:
            result = "–".join(score_text(points) for points in row.points)
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
        files = await tournament_images.card_images(self, tournament)
        channel = await channel_by_id(self.bot, tournament.channel_id)
        if tournament.card_message_id is not None:
            try:
                await channel.get_partial_message(tournament.card_message_id).edit(
                    content=text, view=view, attachments=files, allowed_mentions=NO_MENTIONS
                )
                return
            except discord.NotFound:
                log.info("tournament %s's card is gone: posting it again", tournament.id)
            files = await tournament_images.card_images(self, tournament)  # (read once sent)
        if view is None:
            message = await channel.send(text, files=files, allowed_mentions=NO_MENTIONS)
        else:
            message = await channel.send(text, view=view, files=files, allowed_mentions=NO_MENTIONS)
        await store.set_card(self.bot.db, tournament.id, message.id)


class TournamentRounds:
    """A tournament's rounds on the league host (host/leagues/league_host.py `LeagueAdapter`): a
    round is the league's round, its deadline timer the league's; at the deadline the round's
    games without a result are decided by the absence policy and the next round is paired
    (`Tournaments.round_over`, which posts the new round's matches and the card under the lock,
    in the order of the changes). Where the tournament was made with `vacations:True`, the
    round's time inside the vacation of a player whose game of the round has no result is not
    counted (docs/rules/tournaments.md "Vacations")."""

    lock_name = "tournament"
    deadline_event = DEADLINE_EVENT
    title = "the tournaments"
    gone = GONE
    retry_seconds: float | None = None  # a round that failed to end waits for the restart

    def __init__(self, tournaments: Tournaments) -> None:
        self.tournaments = tournaments
        self.bot = tournaments.bot

    async def load_league(self, league_id: int) -> store.Tournament | None:
        return await store.load(self.bot.db, league_id)

    def refusal(self, league: store.Tournament, user_id: int) -> str | None:
        return None  # a tournament's controls check their own players (its matches' seats)

    def timer_target(self, payload: dict[str, Any]) -> tuple[int, Round]:
        return int(payload["tournament"]), (int(payload["round"]),)

    def round_of(self, league: store.Tournament) -> Round:
        return (league.round,)

    def deadline_runs(self, league: store.Tournament) -> bool:
        return league.status == "running" and league.paused_at is None

    def vacations_count(self, league: store.Tournament) -> bool:
        return league.vacation_pauses

    # ---- the round's time ----------------------------------------------------------------------

    @staticmethod
    def round_time(tournament: store.Tournament) -> tuple[float, float]:
        """When the round's time began and its deadline before vacations (a round paired
        before they were stored: its deadline in force, counted from itself)."""
        assert tournament.round_deadline is not None
        set_deadline = tournament.round_set_deadline or tournament.round_deadline
        since = tournament.round_since if tournament.round_since is not None else set_deadline
        return since, set_deadline

    async def away(self, tournament: store.Tournament, since: float) -> list[tuple[float, float]]:
        """The vacations, from `since`, of the players whose game of the round has no result,
        where the tournament lets them count."""
        if not tournament.vacation_pauses:
            return []
        users = sorted(
            {
                seat
                for row in await store.games(self.bot.db, tournament.id)
                if row.round == tournament.round and row.points is None
                for seat in row.seats
            }
        )
        found = await self.tournaments.host.vacations(users, since)
        return [period for periods in found.values() for period in periods]

    async def arm(
        self, tournament: store.Tournament, *, since: float, set_deadline: float
    ) -> float:
        """Under the lock: the round's time from `since` to `set_deadline`, its deadline in
        force (vacations not counted) saved with its timer. Returns the deadline in force."""
        periods = await self.away(tournament, since)
        moment = counted_deadline(since, set_deadline, periods)
        await store.set_deadline(
            self.bot.db,
            tournament,
            moment,
            DEADLINE_EVENT,
            since=since,
            set_deadline=set_deadline,
        )
        self.bot.timers.wake()
        return moment

    async def _moved(self, tournament: store.Tournament) -> float | None:
        """The deadline in force from the vacations as they are now, when it differs from the
        one stored (None: it does not)."""
        since, set_deadline = self.round_time(tournament)
        moment = counted_deadline(since, set_deadline, await self.away(tournament, since))
        if abs(moment - (tournament.round_deadline or 0)) < 1:
            return None
        return moment

    async def waits(self, league: store.Tournament, now: float) -> bool:
        """The deadline has come: it waits while a player whose game has no result is (or
        was, during the round) on vacation, and moves to when it falls due."""
        moment = await self._moved(league)
        if moment is None or moment <= now + 1:
            return False  # nothing saved: the round is played from the league as loaded
        since, set_deadline = self.round_time(league)
        await self.arm(league, since=since, set_deadline=set_deadline)
        return True

    async def play(self, league: store.Tournament, now: float) -> None:
        await self.tournaments.round_over(league)

    async def unsettled(self, league: store.Tournament) -> list[str]:
        return []  # the absence policy decides every game without a result (play)

    async def next_round(self, league: store.Tournament, now: float) -> None:
        pass  # paired by play, with the round's decisions (Tournaments.round_over)

    async def retry_at(self, league: store.Tournament, moment: float) -> None:
        since, set_deadline = self.round_time(league)
        await store.set_deadline(
            self.bot.db, league, moment, DEADLINE_EVENT, since=since, set_deadline=set_deadline
        )
        self.bot.timers.wake()

    async def recount(self, league: store.Tournament) -> bool:
        if await self._moved(league) is None:
            return False
        since, set_deadline = self.round_time(league)
        await self.arm(league, since=since, set_deadline=set_deadline)
        return True

    async def waiting_for(self, user_id: int) -> list[int]:
        return await store.waiting_for(self.bot.db, user_id)

    # ---- start-up ------------------------------------------------------------------------------

    async def league_ids(self) -> list[int]:
        return await store.running(self.bot.db)

    async def held_back(self, guild_id: int) -> list[int]:
        """A finished tournament's podium a missing permission refused (its card is edited to
        the current round at every change: nothing of it waits)."""
        return await podium_marks.unposted(self.bot.db, guild_id)

    async def repair(self, league: store.Tournament) -> None:
        """At start-up: a running round whose deadline timer is gone gets it back (an overdue
        one fires at once)."""
        if await store.deadline_timer_exists(self.bot.db, league, DEADLINE_EVENT):
            return
        since, set_deadline = self.round_time(league)
        await self.arm(league, since=since, set_deadline=set_deadline)
        log.info("tournament %s: its deadline timer was written again", league.id)

    async def published(self, league_id: int, outcome: Outcome) -> None:
        """The card made current once the deadline moved or an admin changed the round; at
        start-up, the round's matches a crash left unmade are made (after the pairing was
        saved) and the card is made current. A round played at its deadline was posted under
        the lock."""
        if outcome == "played":
            return
        async with self.tournaments.lock(league_id):
            tournament = await store.load(self.bot.db, league_id)
            if tournament is None:
                return
            if outcome == "repaired":
                await self.tournaments.make_matches(tournament)
            await self.tournaments.show(tournament)
            if outcome == "repaired":
                await podium.post(self.tournaments, tournament)  # once: only if not out yet

    # ---- /games --------------------------------------------------------------------------------

    async def games_entries(self, user_id: int, now: float) -> list[Entry]:
        """/games: a line per tournament the user is in and that is not over: the sign-up (and
        whether they still have to check in), or the round being played with their board (its
        match is listed as a match) and the round's deadline; a link to its card."""
        found = []
        for tournament in await store.of_user(self.bot.db, user_id):
            title = f"{self.tournaments.game_title(tournament)} tournament #{tournament.id}"
            link = channel_link(
                tournament.guild_id, tournament.channel_id, tournament.card_message_id
            )
            where = server_name(self.bot, tournament.guild_id)
            if tournament.status == "signup":
                opens = tournament.checkin_opens
                checking = opens is not None and now >= opens
                checked = await store.checked_in(self.bot.db, tournament.id, user_id)
                state = "**check in**" if checking and not checked else "signed up"
                found.append(
                    Entry(
                        checking and not checked,
                        title,
                        where,
                        "",
                        state,
                        link,
                        tournament.signup_until,
                        "starts",
                    )
                )
                continue
            board = next(
                (
                    row
                    for row in await store.games(self.bot.db, tournament.id)
                    if row.round == tournament.round and user_id in row.seats
                ),
                None,
            )
            if board is None:
                state = f"round {tournament.round}: not paired this round"
            elif len(board.seats) == 1:
                state = f"round {tournament.round}: a bye"
            elif board.points is not None:
                state = f"round {tournament.round}: your game is decided"
            else:
                state = f"round {tournament.round}, board {board.board}: your match to play"
            if tournament.paused_at is not None:
                state += " · paused by an admin"
            found.append(
                Entry(
                    False,
                    title,
                    where,
                    "",
                    state,
                    link,
                    tournament.round_deadline if tournament.paused_at is None else None,
                    "deadline",
                )
            )
        return found


def score_text(value: float) -> str:
    """1, 1.5, 0.25: a score as players write it."""
    return f"{value:g}"
