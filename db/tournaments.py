"""Tournaments' storage (db/migrations/021_tournaments.sql, 023_tournament_absences.sql,
024_tournament_rounds_and_totals.sql): the tournament, its entrants, the games of its rounds,
and each player's running totals. The pairing and standings are rules.tournament's, from these
rows: the totals are updated in the transaction that stores each result (`decide`,
`start_round`'s byes), so the standings are a read (`standings`), not a recount of every
game."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

from db import timers as timer_store
from db.database import Connection, Database, IntegrityError
from rules.tournament import (
    Entrant,
    Format,
    Game,
    Knockout,
    Meeting,
    RoundRobin,
    Standing,
    Swiss,
    Tables,
    Totals,
    meetings_of,
    rank,
    record,
    sort_keys,
    tied,
    totals_of,
)
from rules.tournament.standings import SCALE

ADVANCE_EVENT = "tournament_advance"  # a result came in: see whether the round is complete


@dataclass(frozen=True)
class Tournament:
    id: int
    guild_id: int
    channel_id: int
    game: str
    format: str
    rounds: int
    round_minutes: int
    rated: bool
    cap: int
    signup_until: float
    status: str
    round: int
    round_deadline: float | None
    card_message_id: int | None
    created_by: int
    version: int
    absence: str = "both_lose"
    paused_at: float | None = None
    checkin_minutes: int = 0
    table_size: int = 2
    vacation_pauses: bool = False
    round_since: float | None = None  # when the round's time began (its pairing, a resume)
    round_set_deadline: float | None = None  # its deadline before vacations put it off
    totals_built: bool = True

    @property
    def complete(self) -> int:
        """The rounds whose results all count in the standings: every round once it is over,
        else those before the round being played (whose bye, scored at the pairing, would put
        its player ahead of everyone)."""
        return self.round if self.status == "finished" else max(0, self.round - 1)

    @property
    def checkin_opens(self) -> float | None:
        """When the check-in opens (None: this tournament has none)."""
        if not self.checkin_minutes:
            return None
        return self.signup_until - self.checkin_minutes * 60


@dataclass(frozen=True)
class EntrantRow:
    user_id: int
    rating: float
    joined_round: int
    withdrawn_from: int | None
    missed: int = 0
    checked_in: bool = False


@dataclass(frozen=True)
class GameRow:
    id: int
    round: int
    board: int
    seats: tuple[int, ...]
    match_id: int | None
    points: tuple[float, ...] | None
    played: bool
    decided_how: str | None = None


def format_of(tournament: Tournament) -> Format:
    """The rules' format of a stored tournament."""
    if tournament.format == "swiss":
        return Swiss(tournament.rounds)
    if tournament.format == "tables":
        return Tables(tournament.table_size, tournament.rounds)
    if tournament.format == "round_robin":
        return RoundRobin()
    return Knockout(double=tournament.format == "double_elimination")


def entrants_of(rows: list[EntrantRow]) -> list[Entrant]:
    """The rules' entrants of stored entrant rows."""
    return [
        Entrant(str(row.user_id), row.rating, row.joined_round, row.withdrawn_from) for row in rows
    ]


def games_of(rows: list[GameRow]) -> list[Game]:
    """The rules' games of stored game rows."""
    return [
        Game(row.round, tuple(str(seat) for seat in row.seats), row.points, row.played)
        for row in rows
    ]


class TournamentFull(Exception):
    """The cap is reached."""


class TeamTaken(Exception):
    """A cup's team is entered already (by its coach, or by a coach it had before)."""


def _tournament(row: Any) -> Tournament:
    return Tournament(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        game=row["game"],
        format=row["format"],
        rounds=row["rounds"],
        round_minutes=row["round_minutes"],
        rated=bool(row["rated"]),
        cap=row["cap"],
        signup_until=row["signup_until"],
        status=row["status"],
        round=row["round"],
        round_deadline=row["round_deadline"],
        card_message_id=row["card_message_id"],
        created_by=row["created_by"],
        version=row["version"],
        absence=row["absence"],
        paused_at=row["paused_at"],
        checkin_minutes=row["checkin_minutes"],
        table_size=row["table_size"],
        vacation_pauses=bool(row["vacation_pauses"]),
        round_since=row["round_since"],
        round_set_deadline=row["round_set_deadline"],
        totals_built=bool(row["totals_built"]),
    )


def _game(row: Any) -> GameRow:
    points = json.loads(row["points"]) if row["points"] is not None else None
    return GameRow(
        id=row["id"],
        round=row["round"],
        board=row["board"],
        seats=tuple(json.loads(row["seats"])),
        match_id=row["match_id"],
        points=tuple(points) if points is not None else None,
        played=bool(row["played"]),
        decided_how=row["decided_how"],
    )


async def create(
    db: Database,
    *,
    guild_id: int,
    channel_id: int,
    game: str,
    format: str,
    rounds: int,
    round_minutes: int,
    rated: bool,
    cap: int,
    signup_until: float,
    created_by: int,
    close_timer: str,
    absence: str = "forfeit",
    checkin_minutes: int = 0,
    checkin_timer: str | None = None,
    table_size: int = 2,
    vacation_pauses: bool = False,
) -> int:
    """A new tournament open for sign-up, and the timers that open its check-in and close its
    sign-up, together."""
    now = time.time()
    async with db.transaction() as conn:
        cursor = await conn.execute(
            "INSERT INTO tournaments (guild_id, channel_id, game, format, rounds, round_minutes,"
            " rated, cap, signup_until, status, created_by, created_at, absence,"
            " checkin_minutes, table_size, vacation_pauses)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'signup', ?, ?, ?, ?, ?, ?) RETURNING id",
            (
                guild_id,
                channel_id,
                game,
                format,
                rounds,
                round_minutes,
                int(rated),
                cap,
                signup_until,
                created_by,
                now,
                absence,
                checkin_minutes,
                table_size,
                int(vacation_pauses),
            ),
        )
        tournament_id = (await cursor.fetchone())["id"]
        await timer_store.insert_timer(
            conn,
            timer_store.TimerSpec(close_timer, signup_until, {"tournament": tournament_id}),
            now=now,
        )
        opens = signup_until - checkin_minutes * 60
        if checkin_minutes and checkin_timer is not None and opens > now:
            # (a check-in open from the start is on the card the command posts)
            await timer_store.insert_timer(
                conn,
                timer_store.TimerSpec(checkin_timer, opens, {"tournament": tournament_id}),
                now=now,
            )
    return tournament_id


async def load(db: Database, tournament_id: int) -> Tournament | None:
    row = await db.fetch_one("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
    return _tournament(row) if row is not None else None


async def in_guild(db: Database, guild_id: int, limit: int = 25) -> list[Tournament]:
    """The server's tournaments, those not finished first, the newest first."""
    rows = await db.fetch_all(
        "SELECT * FROM tournaments WHERE guild_id = ?"
        " ORDER BY CASE WHEN status = 'finished' THEN 1 ELSE 0 END, id DESC LIMIT ?",
        (guild_id, limit),
    )
    return [_tournament(row) for row in rows]


async def set_card(db: Database, tournament_id: int, message_id: int) -> None:
    async with db.transaction() as conn:
        await conn.execute(
            "UPDATE tournaments SET card_message_id = ? WHERE id = ?", (message_id, tournament_id)
        )


async def entrants(db: Database, tournament_id: int) -> list[EntrantRow]:
    rows = await db.fetch_all(
        "SELECT user_id, rating, joined_round, withdrawn_from, missed, checked_in"
        " FROM tournament_entrants WHERE tournament_id = ? ORDER BY user_id",
        (tournament_id,),
    )
    return [
        EntrantRow(
            row["user_id"],
            row["rating"],
            row["joined_round"],
            row["withdrawn_from"],
            row["missed"],
            bool(row["checked_in"]),
        )
        for row in rows
    ]


async def join(
    db: Database,
    tournament: Tournament,
    user_id: int,
    rating: float,
    joined_round: int,
    *,
    checked_in: bool = False,
    team_id: int | None = None,
) -> bool:
    """Enter `user_id` (back in, if they had withdrawn during the sign-up), `checked_in` when
    they join while the check-in is open, with `team_id` in a Rollerball II cup (stored in the
    same transaction: an entrant of a cup always has a team); False when already in.
    TournamentFull at the cap, TeamTaken when the team is entered already (both counted in the
    same transaction; a team is entered once, migration 029)."""
    try:
        async with db.transaction() as conn:
            entered = await _join(conn, tournament, user_id, rating, joined_round, checked_in)
            if entered and team_id is not None:
                await _enter_team(conn, tournament.id, user_id, team_id)
    except IntegrityError:  # a coach's double click on two teams: one of them is in
        raise TeamTaken from None
    return entered


async def _enter_team(conn: Connection, tournament_id: int, user_id: int, team_id: int) -> None:
    cursor = await conn.execute(
        "SELECT user_id FROM tournament_teams WHERE tournament_id = ? AND team_id = ?"
        " AND user_id <> ?",
        (tournament_id, team_id, user_id),
    )
    if await cursor.fetchone() is not None:
        raise TeamTaken  # the transaction is rolled back: the coach is not entered either
    await conn.execute(  # a coach back in after withdrawing may come with another team
        "DELETE FROM tournament_teams WHERE tournament_id = ? AND user_id = ?",
        (tournament_id, user_id),
    )
    await conn.execute(
        "INSERT INTO tournament_teams (tournament_id, user_id, team_id) VALUES (?, ?, ?)",
        (tournament_id, user_id, team_id),
    )


async def _join(
    conn: Connection,
    tournament: Tournament,
    user_id: int,
    rating: float,
    joined_round: int,
    checked_in: bool,
) -> bool:
    """`join` inside its transaction: the entrant's row."""
    cursor = await conn.execute(
        "SELECT COUNT(*) AS n FROM tournament_entrants"
        " WHERE tournament_id = ? AND withdrawn_from IS NULL",
        (tournament.id,),
    )
    if (await cursor.fetchone())["n"] >= tournament.cap:
        raise TournamentFull
    cursor = await conn.execute(
        "SELECT withdrawn_from FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?",
        (tournament.id, user_id),
    )
    row = await cursor.fetchone()
    if row is not None:
        if row["withdrawn_from"] is None or tournament.status != "signup":
            return False
        await conn.execute(
            "UPDATE tournament_entrants SET withdrawn_from = NULL, checked_in = ?"
            " WHERE tournament_id = ? AND user_id = ?",
            (int(checked_in), tournament.id, user_id),
        )
        return True
    try:
        await conn.execute(
            "INSERT INTO tournament_entrants"
            " (tournament_id, user_id, rating, joined_round, checked_in)"
            " VALUES (?, ?, ?, ?, ?)",
            (tournament.id, user_id, rating, joined_round, int(checked_in)),
        )
    except IntegrityError:  # a double click: the other one entered them
        return False
    return True


async def withdraw(db: Database, tournament_id: int, user_id: int, from_round: int) -> bool:
    """`user_id` is no longer paired from `from_round` on; False when not in (or already out)."""
    async with db.transaction() as conn:
        cursor = await conn.execute(
            "UPDATE tournament_entrants SET withdrawn_from = ?"
            " WHERE tournament_id = ? AND user_id = ? AND withdrawn_from IS NULL",
            (from_round, tournament_id, user_id),
        )
    return cursor.rowcount == 1


async def check_in(db: Database, tournament_id: int, user_id: int) -> str:
    """`user_id` checks in: "in" (done now), "already" (done before) or "out" (not playing)."""
    async with db.transaction() as conn:
        cursor = await conn.execute(
            "UPDATE tournament_entrants SET checked_in = 1 WHERE tournament_id = ?"
            " AND user_id = ? AND withdrawn_from IS NULL AND checked_in = 0",
            (tournament_id, user_id),
        )
        if cursor.rowcount == 1:
            return "in"
        cursor = await conn.execute(
            "SELECT 1 FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?"
            " AND withdrawn_from IS NULL",
            (tournament_id, user_id),
        )
        return "already" if await cursor.fetchone() is not None else "out"


async def checked_in(db: Database, tournament_id: int, user_id: int) -> bool:
    row = await db.fetch_one(
        "SELECT checked_in FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?",
        (tournament_id, user_id),
    )
    return row is not None and bool(row["checked_in"])


async def drop_unchecked(db: Database, tournament_id: int) -> list[int]:
    """At the start: the players who did not check in leave the list (they never played)."""
    async with db.transaction() as conn:
        cursor = await conn.execute(
            "SELECT user_id FROM tournament_entrants WHERE tournament_id = ? AND checked_in = 0"
            " AND withdrawn_from IS NULL ORDER BY user_id",
            (tournament_id,),
        )
        dropped = [row["user_id"] for row in await cursor.fetchall()]
        await conn.execute(
            "DELETE FROM tournament_entrants WHERE tournament_id = ? AND checked_in = 0",
            (tournament_id,),
        )
    return dropped


async def record_absences(
    conn: Connection, tournament_id: int, user_ids: list[int], from_round: int, limit: int
) -> list[int]:
    """Inside the caller's transaction: each of `user_ids` missed a round; those who have now
    missed `limit` are withdrawn from `from_round` on. The players withdrawn now."""
    withdrawn = []
    for user_id in user_ids:
        await conn.execute(
            "UPDATE tournament_entrants SET missed = missed + 1"
            " WHERE tournament_id = ? AND user_id = ?",
            (tournament_id, user_id),
        )
        cursor = await conn.execute(
            "UPDATE tournament_entrants SET withdrawn_from = ? WHERE tournament_id = ?"
            " AND user_id = ? AND missed >= ? AND withdrawn_from IS NULL",
            (from_round, tournament_id, user_id, limit),
        )
        if cursor.rowcount == 1:
            withdrawn.append(user_id)
    return withdrawn


async def set_deadline(
    db: Database,
    tournament: Tournament,
    deadline: float | None,
    deadline_timer: str,
    *,
    since: float | None,
    set_deadline: float | None,
    paused_at: float | None = None,
) -> bool:
    """The running round's deadline in force becomes `deadline` and its timer with it (an
    extension, a resumption, a vacation counted, a computer's game waited for), its time
    counted from `since` to `set_deadline` before vacations; or the round is paused at
    `paused_at` (its deadline kept to measure the time left, and no timer). False if the
    tournament moved on since it was read (the version), and nothing is written."""
    now = time.time()
    async with db.transaction() as conn:
        cursor = await conn.execute(
            "UPDATE tournaments SET round_deadline = ?, paused_at = ?, round_since = ?,"
            " round_set_deadline = ?, version = version + 1 WHERE id = ? AND version = ?",
            (deadline, paused_at, since, set_deadline, tournament.id, tournament.version),
        )
        if cursor.rowcount != 1:
            return False
        payload = {"tournament": tournament.id, "round": tournament.round}
        due = None if paused_at is not None else deadline
        await timer_store.replace_timer(conn, deadline_timer, payload, due, now=now)
    return True


async def deadline_timer_exists(db: Database, tournament: Tournament, deadline_timer: str) -> bool:
    """The running round's deadline timer is still a row (start-up repair writes it again if
    not)."""
    payload = json.dumps({"round": tournament.round, "tournament": tournament.id}, sort_keys=True)
    row = await db.fetch_one(
        "SELECT 1 AS found FROM timers WHERE event = ? AND payload = ?", (deadline_timer, payload)
    )
    return row is not None


async def running(db: Database) -> list[int]:
    """The tournaments with a round being played."""
    rows = await db.fetch_all("SELECT id FROM tournaments WHERE status = 'running' ORDER BY id")
    return [row["id"] for row in rows]


async def waiting_for(db: Database, user_id: int) -> list[int]:
    """The running tournaments that let a vacation put their deadline off, where `user_id` has
    a game of the round without a result."""
    rows = await db.fetch_all(
        "SELECT t.id, g.seats FROM tournaments t JOIN tournament_games g"
        " ON g.tournament_id = t.id AND g.round = t.round"
        " WHERE t.status = 'running' AND t.vacation_pauses = 1 AND g.points IS NULL"
        " AND g.seats LIKE ?",
        (f"%{user_id}%",),
    )
    return sorted({row["id"] for row in rows if user_id in json.loads(row["seats"])})


async def of_user(db: Database, user_id: int) -> list[Tournament]:
    """The tournaments `user_id` is still in (signed up, or playing), the newest first."""
    rows = await db.fetch_all(
        "SELECT t.* FROM tournaments t JOIN tournament_entrants e ON e.tournament_id = t.id"
        " WHERE e.user_id = ? AND e.withdrawn_from IS NULL AND t.status <> 'finished'"
        " ORDER BY t.id DESC",
        (user_id,),
    )
    return [_tournament(row) for row in rows]


async def games(db: Database, tournament_id: int) -> list[GameRow]:
    rows = await db.fetch_all(
        "SELECT * FROM tournament_games WHERE tournament_id = ? ORDER BY round, board",
        (tournament_id,),
    )
    return [_game(row) for row in rows]


async def start_round(
    db: Database,
    tournament: Tournament,
    round_number: int,
    tables: list[tuple[int, ...]],
    byes: list[tuple[int, float]],
    deadline: float,
    deadline_timer: str,
) -> bool:
    """Round `round_number` begins with these tables (their matches made later, one by one)
    and byes, and its deadline timer; False if another process moved the tournament on
    since it was read (the version), and nothing is written."""
    now = time.time()
    async with db.transaction() as conn:
        cursor = await conn.execute(
            "UPDATE tournaments SET status = 'running', round = ?, round_deadline = ?,"
            " round_set_deadline = ?, round_since = ?, paused_at = NULL,"
            " version = version + 1 WHERE id = ? AND version = ?",
            (round_number, deadline, deadline, now, tournament.id, tournament.version),
        )
        if cursor.rowcount != 1:
            return False
        # the rounds before this one are complete: their totals are the standings shown
        await conn.execute(
            "UPDATE tournament_totals SET done_score = score, done_unplayed = unplayed,"
            " done_games = games, done_rounds = rounds_played, done_opponents = opponents,"
            " done_weighted = weighted WHERE tournament_id = ?",
            (tournament.id,),
        )
        board = 0
        for board, seats in enumerate(tables, start=1):
            await conn.execute(
                "INSERT INTO tournament_games (tournament_id, round, board, seats)"
                " VALUES (?, ?, ?, ?)",
                (tournament.id, round_number, board, json.dumps(list(seats))),
            )
        for offset, (user_id, points) in enumerate(byes, start=board + 1):
            cursor = await conn.execute(
                "INSERT INTO tournament_games (tournament_id, round, board, seats, points, played)"
                " VALUES (?, ?, ?, ?, ?, 0) RETURNING id",
                (tournament.id, round_number, offset, json.dumps([user_id]), json.dumps([points])),
            )
            game_id = (await cursor.fetchone())["id"]
            if tournament.totals_built:
                bye = Game(round_number, (str(user_id),), (points,), played=False)
                await _count(conn, tournament.id, game_id, bye)
        payload = {"tournament": tournament.id, "round": round_number}
        await timer_store.insert_timer(
            conn, timer_store.TimerSpec(deadline_timer, deadline, payload), now=now
        )
    return True


async def finish(db: Database, tournament: Tournament) -> bool:
    async with db.transaction() as conn:
        cursor = await conn.execute(
            "UPDATE tournaments SET status = 'finished', round_deadline = NULL,"
            " version = version + 1 WHERE id = ? AND version = ?",
            (tournament.id, tournament.version),
        )
    return cursor.rowcount == 1


async def link_match(conn: Connection, game_id: int, match_id: int) -> None:
    """Inside the transaction that creates the match: the game is played as `match_id`."""
    await conn.execute("UPDATE tournament_games SET match_id = ? WHERE id = ?", (match_id, game_id))


async def decide(
    conn: Connection,
    game_id: int,
    points: tuple[float, ...],
    *,
    played: bool,
    how: str | None = None,
) -> bool:
    """Inside the caller's transaction: the game's result (`how` it was decided when not over
    the board: 'absent', 'admin', 'removed'), unless it already has one (a result set at the
    deadline stands); True when written."""
    cursor = await conn.execute(
        "UPDATE tournament_games SET points = ?, played = ?, decided_how = ?"
        " WHERE id = ? AND points IS NULL",
        (json.dumps(list(points)), int(played), how, game_id),
    )
    if cursor.rowcount != 1:
        return False
    cursor = await conn.execute(
        "SELECT g.tournament_id, g.round, g.seats, t.totals_built FROM tournament_games g"
        " JOIN tournaments t ON t.id = g.tournament_id WHERE g.id = ?",
        (game_id,),
    )
    row = await cursor.fetchone()
    if row["totals_built"]:  # else they are counted from every game when first read
        seats = tuple(str(seat) for seat in json.loads(row["seats"]))
        game = Game(row["round"], seats, points, played)
        await _count(conn, row["tournament_id"], game_id, game)
    return True


# ---- the running totals (rules/tournament/standings.py) ----------------------------------------

TOTALS = ("score", "unplayed", "games", "rounds_played", "last_round", "opponents", "weighted")
DONE = (
    "done_score",
    "done_unplayed",
    "done_games",
    "done_rounds",
    "last_round",
    "done_opponents",
    "done_weighted",
)


def _totals(row: Any, columns: tuple[str, ...] = TOTALS) -> Totals:
    return Totals(*(row[column] for column in columns))


def _meeting(row: Any) -> Meeting:
    return Meeting(
        row["game_id"],
        row["round"],
        str(row["user_id"]),
        str(row["opponent_id"]),
        row["points"],
        row["share"],
    )


async def _count(conn: Connection, tournament_id: int, game_id: int, game: Game) -> None:
    """Inside the transaction that stores a result: the game on the running totals
    (rules.tournament `record`): its seats' and their earlier opponents' totals, and who met
    whom in it."""
    marks = ", ".join("?" * len(game.seats))
    seats = [int(seat) for seat in game.seats]
    cursor = await conn.execute(
        f"SELECT * FROM tournament_meetings WHERE tournament_id = ? AND opponent_id IN ({marks})",
        (tournament_id, *seats),
    )
    met = [_meeting(row) for row in await cursor.fetchall()]
    users = sorted({*seats, *(int(m.user) for m in met)})
    cursor = await conn.execute(
        "SELECT * FROM tournament_totals WHERE tournament_id = ?"
        f" AND user_id IN ({', '.join('?' * len(users))})",
        (tournament_id, *users),
    )
    totals = {str(row["user_id"]): _totals(row) for row in await cursor.fetchall()}
    changed, meetings = record(totals, met, game, game_id)
    await _write_totals(conn, tournament_id, changed)
    await _write_meetings(conn, tournament_id, meetings)


async def _write_totals(
    conn: Connection,
    tournament_id: int,
    totals: dict[str, Totals],
    done: dict[str, Totals] | None = None,
) -> None:
    """The players' totals as they now are (and, from a recount, those of the rounds
    complete)."""
    if done is None:
        await conn.executemany(
            f"INSERT INTO tournament_totals (tournament_id, user_id, {', '.join(TOTALS)})"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (tournament_id, user_id) DO UPDATE"
            " SET " + ", ".join(f"{column} = excluded.{column}" for column in TOTALS),
            [
                (tournament_id, int(user), *(getattr(t, c) for c in TOTALS))
                for user, t in totals.items()
            ],
        )
        return
    columns = TOTALS + tuple(column for column in DONE if column != "last_round")
    await conn.executemany(
        f"INSERT INTO tournament_totals (tournament_id, user_id, {', '.join(columns)})"
        f" VALUES (?, ?, {', '.join('?' * len(columns))})",
        [
            (
                tournament_id,
                int(user),
                *(getattr(t, c) for c in TOTALS),
                *(getattr(done.get(user) or Totals(), c) for c in TOTALS if c != "last_round"),
            )
            for user, t in totals.items()
        ],
    )


async def _write_meetings(conn: Connection, tournament_id: int, meetings: list[Meeting]) -> None:
    await conn.executemany(
        "INSERT INTO tournament_meetings"
        " (tournament_id, game_id, round, user_id, opponent_id, points, share)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        [
            (tournament_id, m.game, m.round, int(m.user), int(m.opponent), m.points, m.share)
            for m in meetings
        ],
    )


async def recount(conn: Connection, tournament: Tournament) -> None:
    """Inside the caller's transaction: the tournament's totals and meetings counted again from
    every game (one made before the totals were kept; a player forgotten)."""
    await conn.execute("DELETE FROM tournament_totals WHERE tournament_id = ?", (tournament.id,))
    await conn.execute("DELETE FROM tournament_meetings WHERE tournament_id = ?", (tournament.id,))
    cursor = await conn.execute(
        "SELECT * FROM tournament_games WHERE tournament_id = ? AND points IS NOT NULL"
        " ORDER BY round, id",
        (tournament.id,),
    )
    rows = [_game(row) for row in await cursor.fetchall()]
    cursor = await conn.execute(
        "SELECT user_id FROM tournament_entrants WHERE tournament_id = ?", (tournament.id,)
    )
    entrants = [Entrant(str(row["user_id"]), 0.0) for row in await cursor.fetchall()]
    games = [Game(r.round, tuple(map(str, r.seats)), r.points, r.played) for r in rows]
    done = [game for game in games if game.round <= tournament.complete]
    await _write_totals(conn, tournament.id, totals_of(entrants, games), totals_of(entrants, done))
    ids = [row.id for row in rows]
    await _write_meetings(
        conn,
        tournament.id,
        [
            Meeting(ids[m.game], m.round, m.user, m.opponent, m.points, m.share)
            for m in meetings_of(games)
        ],
    )
    await conn.execute("UPDATE tournaments SET totals_built = 1 WHERE id = ?", (tournament.id,))


async def standings(
    db: Database, tournament: Tournament, entrants: list[Entrant], top: int | None = None
) -> list[Standing]:
    """The standings of the rounds complete (`Tournament.complete`): the players' stored
    totals ranked, and the meetings among those level after the tie-breaks read for head to
    head; counted from every game first if they were not kept yet. `top`: only the first `top`
    places (what the card, its image and the podium show), ranked among the players whose score
    reaches the `top`-th best score (found on the index by score, migration 029): everyone
    placed above any of them is one of them, so their places are those of the whole list."""
    if not tournament.totals_built:
        async with db.transaction() as conn:
            await recount(conn, tournament)
    columns = TOTALS if tournament.status == "finished" else DONE
    score = columns[0]
    read = f"SELECT user_id, {', '.join(columns)} FROM tournament_totals WHERE tournament_id = ?"
    if top is not None and top < len(entrants):
        row = await db.fetch_one(
            f"SELECT {score} AS score FROM tournament_totals WHERE tournament_id = ?"
            f" ORDER BY {score} DESC LIMIT 1 OFFSET ?",
            (tournament.id, top - 1),
        )
        # an entrant with no totals yet has no points: below the cut only if it is above 0
        if row is not None and round(row["score"] * SCALE) > 0:
            # a score level with the cut's in billionths of a point (`sort_keys`) is in
            cut = row["score"] - 1 / SCALE
            rows = await db.fetch_all(f"{read} AND {score} >= ?", (tournament.id, cut))
            named = {entrant.id: entrant for entrant in entrants}
            near = [named[user] for user in map(str, map(itemgetter(0), rows)) if user in named]
            if len(near) >= top:  # else a row of someone no longer entered took a place
                return (await _ranked(db, tournament, rows, near))[:top]
    rows = await db.fetch_all(read, (tournament.id,))
    order = await _ranked(db, tournament, rows, entrants)
    return order if top is None else order[:top]


async def _ranked(
    db: Database, tournament: Tournament, rows: list[Any], entrants: list[Entrant]
) -> list[Standing]:
    """`entrants` ranked from their totals `rows`, the meetings among the level read."""
    # whole-list passes in C (the user id, the totals after it), not a Python loop per row
    users = map(str, map(itemgetter(0), rows))
    totals = dict(zip(users, map(Totals._make, map(itemgetter(slice(1, None)), rows)), strict=True))
    rounds = tournament.complete
    keys = sort_keys(entrants, totals, rounds)
    level = [user for group in tied(entrants, totals, rounds, keys) for user in group]
    meetings: list[Meeting] = []
    for start in range(0, len(level), 500):  # a statement's parameters are bounded
        chunk = [int(user) for user in level[start : start + 500]]
        marks = ", ".join("?" * len(chunk))
        found = await db.fetch_all(
            "SELECT * FROM tournament_meetings WHERE tournament_id = ? AND round <= ?"
            f" AND user_id IN ({marks})",
            (tournament.id, rounds, *chunk),
        )
        meetings += [_meeting(row) for row in found]
    return rank(entrants, totals, rounds, meetings, keys)


async def match_finished(conn: Connection, match_id: int, points: tuple[float, ...]) -> None:
    """Inside the transaction that saves a match's last move: if it is a tournament game, its
    result, and a timer due now that looks whether its round is complete."""
    cursor = await conn.execute(
        "SELECT id, tournament_id FROM tournament_games WHERE match_id = ?", (match_id,)
    )
    row = await cursor.fetchone()
    if row is None:
        return
    if await decide(conn, row["id"], points, played=True):
        now = time.time()
        spec = timer_store.TimerSpec(ADVANCE_EVENT, now, {"tournament": row["tournament_id"]})
        await timer_store.insert_timer(conn, spec, now=now)


async def rating_of(db: Database, game: str, guild_id: int, user_id: int) -> float:
    """The player's rating in this server's game (db/ratings.py), what a newcomer starts at
    without one: the number the pairing and the seeding read."""
    from rules.ratings import START

    row = await db.fetch_one(
        "SELECT rating FROM ratings WHERE game = ? AND guild_id = ? AND user_id = ?",
        (game, guild_id, user_id),
    )
    return float(row["rating"]) if row is not None else START


async def user_lines(db: Database, user_id: int) -> int:
    """How many tournaments `user_id` entered (/privacy)."""
    row = await db.fetch_one(
        "SELECT COUNT(*) AS n FROM tournament_entrants WHERE user_id = ?", (user_id,)
    )
    return int(row["n"]) if row is not None else 0


async def forget_user(conn: Connection, user_id: int, anonymous: int) -> None:
    """/privacy: the user leaves every tournament's list; in the games already paired their
    seat becomes `anonymous`, so the others' results and tie-breaks stand."""
    await conn.execute("DELETE FROM tournament_entrants WHERE user_id = ?", (user_id,))
    await conn.execute("DELETE FROM tournament_totals WHERE user_id = ?", (user_id,))
    await conn.execute(
        "DELETE FROM tournament_meetings WHERE user_id = ? OR opponent_id = ?", (user_id, user_id)
    )
    await conn.execute(
        "UPDATE tournaments SET created_by = ? WHERE created_by = ?", (anonymous, user_id)
    )
    cursor = await conn.execute(
        "SELECT id, tournament_id, seats FROM tournament_games WHERE seats LIKE ?",
        (f"%{user_id}%",),
    )
    touched = set()
    for row in await cursor.fetchall():
        seats = json.loads(row["seats"])
        if user_id not in seats:
            continue
        seats = [anonymous if seat == user_id else seat for seat in seats]
        await conn.execute(
            "UPDATE tournament_games SET seats = ? WHERE id = ?", (json.dumps(seats), row["id"])
        )
        touched.add(row["tournament_id"])
    # their totals and meetings go; the others' are counted again without them
    for tournament_id in sorted(touched):
        cursor = await conn.execute("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
        found = await cursor.fetchone()
        if found is not None:
            await recount(conn, _tournament(found))
