"""A player's matches across every server (/games, the daily digest) and when they last moved in
one (who counts as away when a turn comes to them)."""

from __future__ import annotations

import json
from collections import defaultdict
from datetime import UTC, datetime
from typing import Any

from db.database import Database
from db.games import StoredGame, stored_from_row

LIMIT = 100  # the most open matches /games reads; nobody plays more at once


async def open_games_of(db: Database, user_id: int, *, limit: int = LIMIT) -> list[StoredGame]:
    """The user's pending and active matches on every server, newest first: their open seats
    by the game_players_open_by_user index (however many matches they finished), then each
    match by its key; the seats of all of them in one more query."""
    rows = await db.fetch_all(
        "SELECT g.* FROM game_players p JOIN games g ON g.id = p.game_id"
        " WHERE p.user_id = ? AND p.is_open = 1 AND g.status IN ('pending', 'active')"
        " ORDER BY p.game_id DESC LIMIT ?",
        (user_id, limit),
    )
    if not rows:
        return []
    seats = await _seats_of([row["id"] for row in rows], db)
    games = {}
    for row in rows:  # a user in two seats of one match (a lobby can't, a solo match can) once
        games.setdefault(row["id"], stored_from_row(row, seats[row["id"]]))
    return list(games.values())


async def finished_games_of(
    db: Database, user_id: int, games: tuple[str, ...], *, limit: int
) -> list[StoredGame]:
    """The user's latest `limit` finished matches of these kinds on every server, newest first
    (/games' replays): their closed seats by the game_players_open_by_user index, newest
    match first, however many they played; the seats of all of them in one more query."""
    if not games:
        return []
    marks = ", ".join("?" for _ in games)
    rows = await db.fetch_all(
        "SELECT g.* FROM game_players p JOIN games g ON g.id = p.game_id"
        " WHERE p.user_id = ? AND p.is_open = 0 AND g.status = 'finished'"
        f" AND g.game IN ({marks}) ORDER BY p.game_id DESC LIMIT ?",
        (user_id, *games, limit),
    )
    if not rows:
        return []
    seats = await _seats_of([row["id"] for row in rows], db)
    found: dict[int, StoredGame] = {}
    for row in rows:  # a user in two seats of one match once
        found.setdefault(row["id"], stored_from_row(row, seats[row["id"]]))
    return list(found.values())


async def _seats_of(game_ids: list[int], db: Database) -> dict[int, tuple[int, ...]]:
    marks = ", ".join("?" for _ in game_ids)
    rows = await db.fetch_all(
        f"SELECT game_id, seat, user_id FROM game_players WHERE game_id IN ({marks})"
        " ORDER BY game_id, seat",
        game_ids,
    )
    seats: dict[int, list[int]] = defaultdict(list)
    for row in rows:
        seats[row["game_id"]].append(row["user_id"])
    return {game_id: tuple(seats[game_id]) for game_id in game_ids}


def parse_stamp(text: Any) -> float | None:
    """A CURRENT_TIMESTAMP stored as text (SQLite: '2024-05-01 12:00:00' in UTC; PostgreSQL:
    with fractions and an offset) as seconds since the epoch."""
    if text is None:
        return None
    if isinstance(text, datetime):
        moment = text
    else:
        try:
            moment = datetime.fromisoformat(str(text))
        except ValueError:
            return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()


async def last_moves(db: Database, game_id: int, user_ids: list[int]) -> dict[int, float | None]:
    """When each user last made a move in the match (None: never), one query over the match's
    moves (their (game_id, version) key)."""
    wanted = sorted(set(user_ids))
    found: dict[int, float | None] = {user_id: None for user_id in wanted}
    if not wanted:
        return found
    marks = ", ".join("?" for _ in wanted)
    rows = await db.fetch_all(
        f"SELECT actor_id, MAX(created_at) AS at FROM game_moves WHERE game_id = ?"
        f" AND actor_id IN ({marks}) GROUP BY actor_id",
        (game_id, *wanted),
    )
    for row in rows:
        found[row["actor_id"]] = parse_stamp(row["at"])
    return found


async def position_started(db: Database, game_id: int, version: int) -> float | None:
    """When the match reached `version` (its move was saved; version 0: the match was made)."""
    if version > 0:
        row = await db.fetch_one(
            "SELECT created_at FROM game_moves WHERE game_id = ? AND version = ?",
            (game_id, version),
        )
    else:
        row = await db.fetch_one("SELECT created_at FROM games WHERE id = ?", (game_id,))
    return None if row is None else parse_stamp(row["created_at"])


async def saves_of(db: Database, game_id: int) -> list[tuple[float, list[str]]]:
    """When each of the match's moves was saved and the event texts saved with it, in order
    (a replay's clock: rules/replay.py `step_times`)."""
    rows = await db.fetch_all(
        "SELECT created_at, events FROM game_moves WHERE game_id = ? ORDER BY version",
        (game_id,),
    )
    saves = []
    for row in rows:
        when = parse_stamp(row["created_at"])
        if when is not None:
            saves.append((when, [str(text) for text in json.loads(row["events"])]))
    return saves
