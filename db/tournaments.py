"""Tournaments' storage (db/migrations/021_tournaments.sql): the tournament, its entrants and
the games of its rounds. The pairing and standings are rules.tournament's, from these rows."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from db import timers as timer_store
from db.database import Connection, Database, IntegrityError

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


@dataclass(frozen=True)
class EntrantRow:
    user_id: int
    rating: float
    joined_round: int
    withdrawn_from: int | None


@dataclass(frozen=True)
class GameRow:
    id: int
    round: int
    board: int
    seats: tuple[int, ...]
    match_id: int | None
    points: tuple[float, ...] | None
    played: bool


class TournamentFull(Exception):
    """The cap is reached."""


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
) -> int:
    """A new tournament open for sign-up, and the timer that closes its sign-up, together."""
    now = time.time()
    async with db.transaction() as conn:
        cursor = await conn.execute(
            "INSERT INTO tournaments (guild_id, channel_id, game, format, rounds, round_minutes,"
            " rated, cap, signup_until, status, created_by, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'signup', ?, ?) RETURNING id",
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
            ),
        )
        tournament_id = (await cursor.fetchone())["id"]
        await timer_store.insert_timer(
            conn,
            timer_store.TimerSpec(close_timer, signup_until, {"tournament": tournament_id}),
            now=now,
        )
    return tournament_id


async def load(db: Database, tournament_id: int) -> Tournament | None:
    row = await db.fetch_one("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
    return _tournament(row) if row is not None else None


async def set_card(db: Database, tournament_id: int, message_id: int) -> None:
    async with db.transaction() as conn:
        await conn.execute(
            "UPDATE tournaments SET card_message_id = ? WHERE id = ?", (message_id, tournament_id)
        )


async def entrants(db: Database, tournament_id: int) -> list[EntrantRow]:
    rows = await db.fetch_all(
        "SELECT user_id, rating, joined_round, withdrawn_from FROM tournament_entrants"
        " WHERE tournament_id = ? ORDER BY user_id",
        (tournament_id,),
    )
    return [
        EntrantRow(row["user_id"], row["rating"], row["joined_round"], row["withdrawn_from"])
        for row in rows
    ]


async def join(
    db: Database, tournament: Tournament, user_id: int, rating: float, joined_round: int
) -> bool:
    """Enter `user_id` (back in, if they had withdrawn during the sign-up); False when already
    in. TournamentFull at the cap (counted in the same transaction)."""
    async with db.transaction() as conn:
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
                "UPDATE tournament_entrants SET withdrawn_from = NULL"
                " WHERE tournament_id = ? AND user_id = ?",
                (tournament.id, user_id),
            )
            return True
        try:
            await conn.execute(
                "INSERT INTO tournament_entrants (tournament_id, user_id, rating, joined_round)"
                " VALUES (?, ?, ?, ?)",
                (tournament.id, user_id, rating, joined_round),
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
            " version = version + 1 WHERE id = ? AND version = ?",
            (round_number, deadline, tournament.id, tournament.version),
        )
        if cursor.rowcount != 1:
            return False
        board = 0
        for board, seats in enumerate(tables, start=1):
            await conn.execute(
                "INSERT INTO tournament_games (tournament_id, round, board, seats)"
                " VALUES (?, ?, ?, ?)",
                (tournament.id, round_number, board, json.dumps(list(seats))),
            )
        for offset, (user_id, points) in enumerate(byes, start=board + 1):
            await conn.execute(
                "INSERT INTO tournament_games (tournament_id, round, board, seats, points, played)"
                " VALUES (?, ?, ?, ?, ?, 0)",
                (tournament.id, round_number, offset, json.dumps([user_id]), json.dumps([points])),
            )
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
    conn: Connection, game_id: int, points: tuple[float, ...], *, played: bool
) -> bool:
    """Inside the caller's transaction: the game's result, unless it already has one (a
    result set at the deadline stands); True when written."""
    cursor = await conn.execute(
        "UPDATE tournament_games SET points = ?, played = ? WHERE id = ? AND points IS NULL",
        (json.dumps(list(points)), int(played), game_id),
    )
    return cursor.rowcount == 1


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
    await conn.execute(
        "UPDATE tournaments SET created_by = ? WHERE created_by = ?", (anonymous, user_id)
    )
    cursor = await conn.execute(
        "SELECT id, seats FROM tournament_games WHERE seats LIKE ?", (f"%{user_id}%",)
    )
    for row in await cursor.fetchall():
        seats = [anonymous if seat == user_id else seat for seat in json.loads(row["seats"])]
        await conn.execute(
            "UPDATE tournament_games SET seats = ? WHERE id = ?", (json.dumps(seats), row["id"])
        )
