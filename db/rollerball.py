"""Rollerball's (the board game's) own table: finished-game results for /rollerball stats."""

from __future__ import annotations

from dataclasses import dataclass

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
    statistics are stored together or not at all. Computer seats (user id 0) get no row."""
    await conn.executemany(
        "INSERT INTO rollerball_results (game_id, user_id, seat, result, victory_points,"
        " players, computers, edition, how) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (game_id, user_id) DO NOTHING",
        [
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
            for r in results
            if r.user_id != 0
        ],
    )


async def player_stats(db: Database, user_id: int) -> Stats:
    row = await db.fetch_one(
        "SELECT COUNT(*) AS played,"
        " COALESCE(SUM(CASE WHEN result = 'win' THEN 1 ELSE 0 END), 0) AS wins,"
        " COALESCE(SUM(CASE WHEN result = 'draw' THEN 1 ELSE 0 END), 0) AS shared,"
        " COALESCE(SUM(victory_points), 0) AS points,"
        " COALESCE(MAX(victory_points), 0) AS best,"
        " COALESCE(SUM(CASE WHEN computers > 0 THEN 1 ELSE 0 END), 0) AS with_computers"
        " FROM rollerball_results WHERE user_id = ?",
        (user_id,),
    )
    assert row is not None
    return Stats(
        played=row["played"],
        wins=row["wins"],
        shared=row["shared"],
        losses=row["played"] - row["wins"] - row["shared"],
        victory_points=row["points"],
        best_points=row["best"],
        with_computers=row["with_computers"],
    )


async def forget_user(conn: Connection, user_id: int) -> None:
    """/privacy: the user's own result rows go (the others' rows never name them)."""
    await conn.execute("DELETE FROM rollerball_results WHERE user_id = ?", (user_id,))
