"""The seats of a match that is still a lobby: players join and leave before it starts."""

from __future__ import annotations

from db.database import Connection


async def replace_seats(conn: Connection, game_id: int, players: list[int]) -> None:
    """Inside the caller's transaction (the versioned save of the lobby): the game's seats become
    `players`, in seat order (0 for a computer player)."""
    await conn.execute("DELETE FROM game_players WHERE game_id = ?", (game_id,))
    await conn.executemany(
        "INSERT INTO game_players (game_id, seat, user_id) VALUES (?, ?, ?)",
        [(game_id, seat, user_id) for seat, user_id in enumerate(players)],
    )
