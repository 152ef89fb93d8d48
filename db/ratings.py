"""Elo ratings per game, server and player (rules/ratings.py does the arithmetic)."""

from __future__ import annotations

from dataclasses import dataclass

from db.database import Connection, Database
from rules import ratings


@dataclass(frozen=True)
class Rating:
    user_id: int
    rating: float
    played: int


async def _current(conn: Connection, game: str, guild_id: int, user_id: int) -> Rating:
    cursor = await conn.execute(
        "SELECT rating, played FROM ratings WHERE game = ? AND guild_id = ? AND user_id = ?",
        (game, guild_id, user_id),
    )
    row = await cursor.fetchone()
    if row is None:
        return Rating(user_id, ratings.START, 0)
    return Rating(user_id, row["rating"], row["played"])


async def _store(conn: Connection, game: str, guild_id: int, rating: Rating) -> None:
    await conn.execute(
        "INSERT INTO ratings (game, guild_id, user_id, rating, played) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (game, guild_id, user_id) DO UPDATE SET rating = excluded.rating,"
        " played = excluded.played",
        (game, guild_id, rating.user_id, rating.rating, rating.played),
    )


async def record_game(
    conn: Connection,
    *,
    game: str,
    guild_id: int,
    player: int,
    opponent: int | None,
    result: str,
    opponent_rating: float | None = None,
) -> None:
    """Inside the caller's transaction: update `player` (and a human `opponent`) after a game.
    A computer opponent has a fixed `opponent_rating` and no row of its own."""
    points = ratings.RESULT_POINTS[result]
    mine = await _current(conn, game, guild_id, player)
    if opponent is not None:
        theirs = await _current(conn, game, guild_id, opponent)
        await _store(
            conn,
            game,
            guild_id,
            Rating(
                opponent, ratings.updated(theirs.rating, mine.rating, 1 - points), theirs.played + 1
            ),
        )
        against = theirs.rating
    else:
        assert opponent_rating is not None
        against = opponent_rating
    await _store(
        conn,
        game,
        guild_id,
        Rating(player, ratings.updated(mine.rating, against, points), mine.played + 1),
    )


async def leaderboard(db: Database, *, game: str, guild_id: int, limit: int = 10) -> list[Rating]:
    rows = await db.fetch_all(
        "SELECT user_id, rating, played FROM ratings WHERE game = ? AND guild_id = ?"
        " ORDER BY rating DESC LIMIT ?",
        (game, guild_id, limit),
    )
    return [Rating(row["user_id"], row["rating"], row["played"]) for row in rows]


async def forget_user(conn: Connection, user_id: int) -> None:
    await conn.execute("DELETE FROM ratings WHERE user_id = ?", (user_id,))
