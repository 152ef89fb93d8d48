"""Stored games of every kind: create, load, save a move (optimistically versioned), look up.

The stored state is the truth. A move is saved with its events in one transaction, and only if the
game is still at the version the move was computed from; otherwise `StaleGameError` says another
move got there first, and nothing is written.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import aiosqlite

from db.database import Database

STATUSES = ("pending", "active", "finished", "cancelled")


class StaleGameError(Exception):
    """The game changed since it was loaded: the move was computed from an old position."""


@dataclass(frozen=True)
class StoredGame:
    id: int
    game: str
    guild_id: int | None
    channel_id: int
    thread_id: int | None
    status: str
    state: str
    version: int
    players: tuple[int, ...]  # user ids by seat; 0 is a computer player

    def state_json(self) -> Any:
        return json.loads(self.state)


async def create_game(
    db: Database,
    *,
    game: str,
    guild_id: int | None,
    channel_id: int,
    players: list[int],
    state: str,
    status: str = "pending",
    thread_id: int | None = None,
) -> int:
    async with db.transaction() as conn:
        cursor = await conn.execute(
            "INSERT INTO games (game, guild_id, channel_id, thread_id, status, state, version,"
            " created_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, 0, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)",
            (game, guild_id, channel_id, thread_id, status, state),
        )
        game_id = cursor.lastrowid
        await conn.executemany(
            "INSERT INTO game_players (game_id, seat, user_id) VALUES (?, ?, ?)",
            [(game_id, seat, user_id) for seat, user_id in enumerate(players)],
        )
    assert game_id is not None
    return game_id


def _stored(row: Any, players: tuple[int, ...]) -> StoredGame:
    return StoredGame(
        id=row["id"],
        game=row["game"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        thread_id=row["thread_id"],
        status=row["status"],
        state=row["state"],
        version=row["version"],
        players=players,
    )


async def _players(db: Database, game_id: int) -> tuple[int, ...]:
    rows = await db.fetch_all(
        "SELECT user_id FROM game_players WHERE game_id = ? ORDER BY seat", (game_id,)
    )
    return tuple(row["user_id"] for row in rows)


async def load_game(db: Database, game_id: int, *, game: str | None = None) -> StoredGame | None:
    row = await db.fetch_one("SELECT * FROM games WHERE id = ?", (game_id,))
    if row is None or (game is not None and row["game"] != game):
        return None
    return _stored(row, await _players(db, game_id))


async def save_move(
    db: Database,
    stored: StoredGame,
    *,
    state: str,
    actor_id: int,
    action: str,
    events: list[str],
    status: str | None = None,
    thread_id: int | None = None,
    also: Callable[[aiosqlite.Connection], Awaitable[None]] | None = None,
) -> StoredGame:
    """Write the new state and the move's events, if nobody saved a move since `stored` was read.

    `also` runs inside the same transaction (e.g. a finished game's statistics), so the move and
    what follows from it are stored together or not at all."""
    new_version = stored.version + 1
    new_status = status or stored.status
    new_thread = thread_id if thread_id is not None else stored.thread_id
    async with db.transaction() as conn:
        cursor = await conn.execute(
            "UPDATE games SET state = ?, version = ?, status = ?, thread_id = ?,"
            " updated_at = CURRENT_TIMESTAMP WHERE id = ? AND version = ?",
            (state, new_version, new_status, new_thread, stored.id, stored.version),
        )
        if cursor.rowcount != 1:
            raise StaleGameError(f"game {stored.id} is no longer at version {stored.version}")
        await conn.execute(
            "INSERT INTO game_moves (game_id, version, actor_id, action, events, created_at)"
            " VALUES (?, ?, ?, ?, ?, CURRENT_TIMESTAMP)",
            (stored.id, new_version, actor_id, action, json.dumps(events)),
        )
        if also is not None:
            await also(conn)
    return StoredGame(
        id=stored.id,
        game=stored.game,
        guild_id=stored.guild_id,
        channel_id=stored.channel_id,
        thread_id=new_thread,
        status=new_status,
        state=state,
        version=new_version,
        players=stored.players,
    )


async def set_thread(db: Database, game_id: int, thread_id: int) -> None:
    """Remember the thread a match is played in (it is opened after the game row exists)."""
    async with db.transaction() as conn:
        await conn.execute("UPDATE games SET thread_id = ? WHERE id = ?", (thread_id, game_id))


async def find_games(
    db: Database,
    *,
    game: str,
    user_id: int | None = None,
    channel_id: int | None = None,
    statuses: tuple[str, ...] = ("pending", "active"),
) -> list[StoredGame]:
    """Games of one kind, filtered by a player, a channel (or thread) and statuses; newest first."""
    placeholders = ", ".join("?" for _ in statuses)
    sql = f"SELECT * FROM games WHERE game = ? AND status IN ({placeholders})"
    parameters: list[object] = [game, *statuses]
    if user_id is not None:
        sql += " AND id IN (SELECT game_id FROM game_players WHERE user_id = ?)"
        parameters.append(user_id)
    if channel_id is not None:
        sql += " AND (channel_id = ? OR thread_id = ?)"
        parameters.extend([channel_id, channel_id])
    sql += " ORDER BY id DESC"
    rows = await db.fetch_all(sql, parameters)
    return [_stored(row, await _players(db, row["id"])) for row in rows]


async def list_moves(db: Database, game_id: int) -> list[tuple[int, int, str, list[str]]]:
    """(version, actor id, action, events) of every saved move, in order."""
    rows = await db.fetch_all(
        "SELECT version, actor_id, action, events FROM game_moves WHERE game_id = ? ORDER BY version",
        (game_id,),
    )
    return [
        (row["version"], row["actor_id"], row["action"], json.loads(row["events"])) for row in rows
    ]
