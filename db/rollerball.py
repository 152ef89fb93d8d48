"""Rollerball's (the board game's) own table: finished-game results for /rollerball stats."""

from __future__ import annotations

from dataclasses import dataclass

from db import totals
from db.database import Connection, Database


@dataclass(frozen=True)
class SeatResult:
    user_id: int
    seat: int
    result: str  # win, loss or draw (a shared win)
    victory_points: int
    players: int
    computers: int
    edition: str
    how: str


@dataclass(frozen=True)
class Stats:
    played: int
    wins: int
    shared: int
    losses: int
    victory_points: int
    best_points: int
    with_computers: int


async def record_results(conn: Connection, game_id: int, results: list[SeatResult]) -> None:
    """Inside the caller's transaction (the one that saves the last move): the game and its
    statistics are stored together or not at all, and added to each player's totals
    (db/totals.py). Computer seats (user id 0) get no row."""
    people = {r.user_id: r for r in reversed(results) if r.user_id != 0}  # a user's first seat
    await totals.record(
        conn,
        results="rollerball_results",
        totals="rollerball_totals",
        game_id=game_id,
        rows=[
            (
                game_id,
                r.user_id,
                r.seat,
                r.result,
                r.victory_points,
                r.players,
                r.computers,
                r.edition,
                r.how,
            )
            for r in people.values()
        ],
        insert="INSERT INTO rollerball_results (game_id, user_id, seat, result, victory_points,"
        " players, computers, edition, how) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        shares={
            user_id: {
                "played": 1,
                "wins": int(r.result == "win"),
                "shared": int(r.result == "draw"),
                "victory_points": r.victory_points,
                "best_points": r.victory_points,
                "with_computers": int(r.computers > 0),
            }
            for user_id, r in people.items()
        },
        highest=("best_points",),
    )


async def player_stats(db: Database, user_id: int) -> Stats:
    """One row of the player's totals, however many games they finished."""
    row = await db.fetch_one("SELECT * FROM rollerball_totals WHERE user_id = ?", (user_id,))
    if row is None:
        return Stats(0, 0, 0, 0, 0, 0, 0)
    return Stats(
        played=row["played"],
        wins=row["wins"],
        shared=row["shared"],
        losses=row["played"] - row["wins"] - row["shared"],
        victory_points=row["victory_points"],
        best_points=row["best_points"],
        with_computers=row["with_computers"],
    )


async def forget_user(conn: Connection, user_id: int) -> None:
    """/privacy: the user's own result rows and totals go (the others' rows never name them)."""
    await conn.execute("DELETE FROM rollerball_results WHERE user_id = ?", (user_id,))
    await conn.execute("DELETE FROM rollerball_totals WHERE user_id = ?", (user_id,))
