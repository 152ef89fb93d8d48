"""Stored games of every kind: create, load, save a move (optimistically versioned), look up.

The stored state is the truth. A move is saved with its events in one transaction, and only if the
game is still at the version the move was computed from; otherwise `StaleGameError` says another
move got there first, and nothing is written.
"""

from __future__ import annotations

import datetime as dt
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any

from db import timers as timer_store
from db.database import (
    CommitUnknown,
    Connection,
    Database,
    DatabaseUnavailable,
    IntegrityError,
    Statement,
)

STATUSES = ("pending", "active", "finished", "cancelled")


OPEN = ("pending", "active")


class StaleGameError(Exception):
    """The game changed since it was loaded: the move was computed from an old position."""


class DuplicateGameError(Exception):
    """An open game with the same pair_key exists in this channel (the unique index said so)."""


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
    posted_version: int = 0  # the last version whose turn message was posted
    turn_message_id: int | None = None
    # The match's timers as this version was saved with them (`save_move`), for the card's
    # deadline without reading them back; None: not known here (read them).
    timers: tuple[timer_store.TimerSpec, ...] | None = None

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
    pair_key: str | None = None,
    also: Callable[[Connection, int], Awaitable[None]] | None = None,
) -> int:
    """Insert a game and its seats. With a pair_key, DuplicateGameError when an open game with
    the same key exists in the channel (enforced by a unique index, so simultaneous commands
    cannot both pass). `also(conn, game_id)` runs inside the same transaction (a game's own
    rows that must exist with the match or not at all)."""
    try:
        async with db.transaction() as conn:
            cursor = await conn.execute(
                "INSERT INTO games (game, guild_id, channel_id, thread_id, status, state, version,"
                " pair_key, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, 0, ?, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
                " RETURNING id",
                (game, guild_id, channel_id, thread_id, status, state, pair_key),
            )
            game_id = (await cursor.fetchone())["id"]
            await conn.executemany(
                "INSERT INTO game_players (game_id, seat, user_id) VALUES (?, ?, ?)",
                [(game_id, seat, user_id) for seat, user_id in enumerate(players)],
            )
            if status not in OPEN:  # a seat is open unless said otherwise
                await _close_seats(conn, game_id)
            if also is not None:
                await also(conn, game_id)
    except IntegrityError as error:
        if pair_key is not None and _is_pair_conflict(error):
            raise DuplicateGameError(pair_key) from error
        raise
    return game_id


# The match has ended: its seats leave its players' open matches (/games reads those).
CLOSE_SEATS = "UPDATE game_players SET is_open = 0 WHERE game_id = ?"


async def _close_seats(conn: Connection, game_id: int) -> None:
    await conn.execute(CLOSE_SEATS, (game_id,))


def _is_pair_conflict(error: IntegrityError) -> bool:
    """The refusal came from the "one open game per pair" index (SQLite names its columns,
    PostgreSQL the index)."""
    if error.constraint is not None:
        return error.constraint == "games_one_open_per_pair"
    return "games.pair_key" in str(error)


async def open_game_with_pair(
    db: Database, *, game: str, channel_id: int, pair_key: str
) -> StoredGame | None:
    row = await db.fetch_one(
        "SELECT * FROM games WHERE game = ? AND channel_id = ? AND pair_key = ?"
        " AND status IN ('pending', 'active')",
        (game, channel_id, pair_key),
    )
    return None if row is None else stored_from_row(row, await _players(db, row["id"]))


def stored_from_row(row: Any, players: tuple[int, ...]) -> StoredGame:
    """A `games` row (every column) and its players by seat, as a StoredGame."""
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
        posted_version=row["posted_version"],
        turn_message_id=row["turn_message_id"],
    )


async def _players(db: Database, game_id: int) -> tuple[int, ...]:
    rows = await db.fetch_all(
        "SELECT user_id FROM game_players WHERE game_id = ? ORDER BY seat", (game_id,)
    )
    return tuple(row["user_id"] for row in rows)


# Ids a statement names at once: far below SQLite's and PostgreSQL's bound parameters
# (32,766 and 65,535), so start-up repair reads any number of matches.
IDS_AT_ONCE = 500


async def _seats_of(db: Database, game_ids: list[int]) -> dict[int, tuple[int, ...]]:
    """The seats of these games by id, in seat order. By id, never by a second look at the
    games' status: on PostgreSQL each statement sees its own snapshot, so a match that ended
    between the two reads would come back with no seats."""
    seats: dict[int, list[int]] = {}
    for start in range(0, len(game_ids), IDS_AT_ONCE):
        chunk = game_ids[start : start + IDS_AT_ONCE]
        marks = ", ".join("?" for _ in chunk)
        for seat in await db.fetch_all(
            f"SELECT game_id, user_id FROM game_players WHERE game_id IN ({marks})"
            " ORDER BY game_id, seat",
            tuple(chunk),
        ):
            seats.setdefault(seat["game_id"], []).append(seat["user_id"])
    return {game_id: tuple(users) for game_id, users in seats.items()}


async def load_game(db: Database, game_id: int, *, game: str | None = None) -> StoredGame | None:
    row = await db.fetch_one("SELECT * FROM games WHERE id = ?", (game_id,))
    if row is None or (game is not None and row["game"] != game):
        return None
    return stored_from_row(row, await _players(db, game_id))


# A game's row but its state (`load_games(states=False)`): "" stands for it.
WITHOUT_STATE = (
    "id, game, guild_id, channel_id, thread_id, status, '' AS state, version, posted_version,"
    " turn_message_id"
)


async def load_games(
    db: Database, game_ids: list[int], *, states: bool = True
) -> dict[int, StoredGame]:
    """Several games by id in two queries (a batch of timers naming their matches); ids not
    found are left out. `states=False`: without their states (the largest column), for a
    caller that reads none (reminders that carry their text)."""
    wanted = sorted(set(game_ids))
    if not wanted:
        return {}
    marks = ", ".join("?" for _ in wanted)
    columns = "*" if states else WITHOUT_STATE
    rows = await db.fetch_all(f"SELECT {columns} FROM games WHERE id IN ({marks})", wanted)
    seats = await _seats_of(db, [row["id"] for row in rows])
    return {row["id"]: stored_from_row(row, seats.get(row["id"], ())) for row in rows}


def match_key(game_id: int) -> str:
    """The key of a transaction that writes only this match's own rows (its game row, moves,
    seats and timers): it runs beside other matches' (db/database.py `transaction`)."""
    return f"game:{game_id}"


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
    timers: list[timer_store.TimerSpec] | None = None,
    also: Callable[[Connection], Awaitable[None]] | None = None,
) -> StoredGame:
    """Write the new state and the move's events, if nobody saved a move since `stored` was read.

    The game's timers become `timers` (none when not given) in the same transaction, and `also`
    runs inside it too (e.g. a finished game's statistics), so the move and what follows from it
    are stored together or not at all. The transaction is the match's own (its key, db/database.py
    `transaction`) unless `also` writes what other matches share (ratings, totals)."""
    new_version = stored.version + 1
    new_status = status or stored.status
    new_thread = thread_id if thread_id is not None else stored.thread_id
    closes = new_status not in OPEN and stored.status in OPEN
    try:
        async with db.transaction(key=None if also else match_key(stored.id)) as conn:
            # One batch (one hand-over to SQLite's thread), stopped at the version check.
            saved = await conn.execute_all(
                [
                    Statement(
                        "UPDATE games SET state = ?, version = ?, status = ?, thread_id = ?,"
                        " updated_at = CURRENT_TIMESTAMP WHERE id = ? AND version = ?",
                        (state, new_version, new_status, new_thread, stored.id, stored.version),
                        changes=True,
                    ),
                    Statement(
                        "INSERT INTO game_moves"
                        " (game_id, version, actor_id, action, events, created_at)"
                        " VALUES (?, ?, ?, ?, ?, CURRENT_TIMESTAMP)",
                        (stored.id, new_version, actor_id, action, json.dumps(events)),
                    ),
                    *([Statement(CLOSE_SEATS, (stored.id,))] if closes else []),
                    *timer_store.replacing(stored.id, timers or [], now=time.time()),
                ]
            )
            if saved[0].rowcount != 1:
                raise StaleGameError(f"game {stored.id} is no longer at version {stored.version}")
            for timer in timers or []:
                conn.timer_written(timer.due_at)
            if also is not None:
                await also(conn)
    except CommitUnknown:
        # The server went away while committing: the move is stored or not. Read it back to
        # tell the truth; if even that fails, the player hears it may have been saved.
        if not await _move_stored(db, stored.id, new_version, actor_id, action, events):
            raise DatabaseUnavailable("the move's commit failed: it was not stored") from None
    return replace(
        stored,
        thread_id=new_thread,
        status=new_status,
        state=state,
        version=new_version,
        timers=tuple(timers or ()),
    )


async def _move_stored(
    db: Database, game_id: int, version: int, actor_id: int, action: str, events: list[str]
) -> bool:
    """Whether this move is the game's stored move at `version` (CommitUnknown if the
    database cannot say)."""
    try:
        row = await db.fetch_one(
            "SELECT actor_id, action, events FROM game_moves WHERE game_id = ? AND version = ?",
            (game_id, version),
        )
    except DatabaseUnavailable as error:
        raise CommitUnknown(str(error)) from error
    return row is not None and (row["actor_id"], row["action"], json.loads(row["events"])) == (
        actor_id,
        action,
        events,
    )


async def set_thread(db: Database, game_id: int, thread_id: int) -> None:
    """Remember the thread a match is played in (it is opened after the game row exists)."""
    async with db.transaction(key=match_key(game_id)) as conn:
        await conn.execute("UPDATE games SET thread_id = ? WHERE id = ?", (thread_id, game_id))


async def mark_posted(db: Database, game_id: int, version: int, message_id: int | None) -> None:
    """The turn message of `version` is in the channel (as `message_id`, the one with buttons)."""
    async with db.transaction(key=match_key(game_id)) as conn:
        await conn.execute(
            "UPDATE games SET posted_version = ?, turn_message_id = ?"
            " WHERE id = ? AND posted_version < ?",
            (version, message_id, game_id, version),
        )


async def set_card(db: Database, game_id: int, message_id: int) -> None:
    """The match's live card is now `message_id` (a new card replaced the old one)."""
    async with db.transaction(key=match_key(game_id)) as conn:
        await conn.execute(
            "UPDATE games SET turn_message_id = ? WHERE id = ?", (message_id, game_id)
        )


def game_here_query(*, game: str, channel_id: int) -> tuple[str, tuple[object, ...]]:
    """Open games of one kind played in a channel or in a thread, newest first: two indexed
    lookups (an OR of the two columns could use no index)."""
    sql = (
        "SELECT * FROM games WHERE status IN ('pending', 'active') AND game = ? AND channel_id = ?"
        " UNION"
        " SELECT * FROM games WHERE thread_id = ? AND status IN ('pending', 'active') AND game = ?"
        " ORDER BY id DESC LIMIT 25"
    )
    return sql, (game, channel_id, channel_id, game)


async def games_here(db: Database, *, game: str, channel_id: int) -> list[StoredGame]:
    sql, parameters = game_here_query(game=game, channel_id=channel_id)
    rows = await db.fetch_all(sql, parameters)
    seats = await _seats_of(db, [row["id"] for row in rows])
    return [stored_from_row(row, seats.get(row["id"], ())) for row in rows]


async def latest_game_of(
    db: Database, *, game: str, user_id: int, statuses: tuple[str, ...]
) -> StoredGame | None:
    """A player's newest game of one kind in the given statuses (one indexed query)."""
    placeholders = ", ".join("?" for _ in statuses)
    row = await db.fetch_one(
        "SELECT g.* FROM games g JOIN game_players p ON p.game_id = g.id"
        f" WHERE p.user_id = ? AND g.game = ? AND g.status IN ({placeholders})"
        " ORDER BY g.id DESC LIMIT 1",
        (user_id, game, *statuses),
    )
    return None if row is None else stored_from_row(row, await _players(db, row["id"]))


async def open_games(db: Database, games: tuple[str, ...]) -> list[StoredGame]:
    """Every active game of these kinds in the servers of this process's shards (start-up
    recovery: with several processes, each repairs its own servers' games): the games, then
    the seats of those games, a query for every 500."""
    if not games:
        return []
    placeholders = ", ".join("?" for _ in games)
    shard_sql, shard_parameters = db.on_own_shards("guild_id")
    where = f"status = 'active' AND game IN ({placeholders}) AND {shard_sql}"
    parameters = (*games, *shard_parameters)
    rows = await db.fetch_all(f"SELECT * FROM games WHERE {where} ORDER BY id", parameters)
    seats = await _seats_of(db, [row["id"] for row in rows])
    return [stored_from_row(row, seats.get(row["id"], ())) for row in rows]


IN_PLAY_HERE = "guild_id = ? AND status = 'active'"


async def count_in_play_in_guild(db: Database, guild_id: int) -> int:
    row = await db.fetch_one(f"SELECT COUNT(*) AS n FROM games WHERE {IN_PLAY_HERE}", (guild_id,))
    return int(row["n"]) if row is not None else 0


async def in_play_in_guild(
    db: Database, guild_id: int, *, limit: int, offset: int = 0
) -> list[tuple[StoredGame, float]]:
    """A page of the server's matches in play, the most recently moved first, each with when
    it last changed (`updated_at`: a move, or the match's start) (/live). Two queries however
    long the page."""
    rows = await db.fetch_all(
        f"SELECT * FROM games WHERE {IN_PLAY_HERE} ORDER BY updated_at DESC, id DESC"
        " LIMIT ? OFFSET ?",
        (guild_id, limit, offset),
    )
    seats = await _seats_of(db, [row["id"] for row in rows])
    return [
        (stored_from_row(row, seats.get(row["id"], ())), _moment(row["updated_at"])) for row in rows
    ]


def _moment(text: object) -> float:
    """A CURRENT_TIMESTAMP stored as text, in seconds since the epoch: SQLite writes UTC
    without a zone ("2026-11-29 05:55:49"), PostgreSQL with its offset ("...49.12+00")."""
    moment = dt.datetime.fromisoformat(str(text))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.UTC)
    return moment.timestamp()


async def games_with_timers(db: Database) -> set[int]:
    """The games that have at least one timer (start-up repair: one query)."""
    rows = await db.fetch_all("SELECT DISTINCT game_id FROM timers WHERE game_id IS NOT NULL")
    return {row["game_id"] for row in rows}


async def unshown_finished(db: Database, games: tuple[str, ...]) -> list[StoredGame]:
    """The finished games of these kinds, in the servers of this process's shards, whose last
    saved move was never shown (a crash or a refusal between the save and the card), without
    their seats: one query on an index holding only games with a move not shown."""
    if not games:
        return []
    placeholders = ", ".join("?" for _ in games)
    shard_sql, shard_parameters = db.on_own_shards("guild_id")
    rows = await db.fetch_all(
        "SELECT * FROM games WHERE status = 'finished' AND posted_version < version"
        f" AND game IN ({placeholders}) AND {shard_sql} ORDER BY id",
        (*games, *shard_parameters),
    )
    return [stored_from_row(row, ()) for row in rows]


async def restore_timers(
    db: Database, wanted: dict[int, tuple[int, list[timer_store.TimerSpec]]]
) -> list[int]:
    """Start-up repair of games that lost their timers, in one transaction: game id ->
    (the version the timers were computed for, the timers). A game that has timers again, or
    has moved on, meanwhile (a click got there first) is left alone. Returns the games whose
    timers were written."""
    if not wanted:
        return []
    now = time.time()
    async with db.transaction() as conn:
        cursor = await conn.execute("SELECT DISTINCT game_id FROM timers WHERE game_id IS NOT NULL")
        has_timers = {row["game_id"] for row in await cursor.fetchall()}
        cursor = await conn.execute("SELECT id, version FROM games WHERE status = 'active'")
        versions = {row["id"]: row["version"] for row in await cursor.fetchall()}
        written = [
            game_id
            for game_id, (version, _specs) in wanted.items()
            if game_id not in has_timers and versions.get(game_id) == version
        ]
        await timer_store.insert_timers(
            conn,
            [(game_id, spec) for game_id in written for spec in wanted[game_id][1]],
            now=now,
        )
    return written


async def last_action(db: Database, game_id: int) -> str | None:
    row = await db.fetch_one(
        "SELECT action FROM game_moves WHERE game_id = ? ORDER BY version DESC LIMIT 1",
        (game_id,),
    )
    return None if row is None else row["action"]


async def list_moves(db: Database, game_id: int) -> list[tuple[int, int, str, list[str]]]:
    """(version, actor id, action, events) of every saved move, in order."""
    rows = await db.fetch_all(
        "SELECT version, actor_id, action, events FROM game_moves WHERE game_id = ? ORDER BY version",
        (game_id,),
    )
    return [
        (row["version"], row["actor_id"], row["action"], json.loads(row["events"])) for row in rows
    ]


async def set_timers(db: Database, game_id: int, specs: list[timer_store.TimerSpec]) -> None:
    """Write a game's timers on their own (start-up repair of a game that lost them)."""
    async with db.transaction(key=match_key(game_id)) as conn:
        await timer_store.replace_for_game(conn, game_id, specs, now=time.time())


async def user_footprint(db: Database, user_id: int) -> dict[str, int]:
    """How many matches (open and finished) a user has a seat in, by status (/privacy)."""
    rows = await db.fetch_all(
        "SELECT g.status, COUNT(*) AS n FROM games g JOIN game_players p ON p.game_id = g.id"
        " WHERE p.user_id = ? GROUP BY g.status",
        (user_id,),
    )
    return {row["status"]: row["n"] for row in rows}


@dataclass(frozen=True)
class Forgotten:
    """What forget_user did: the games the user had a seat in, and the names those showed."""

    games: int
    names: set[str]


async def forget_user(
    conn: Connection,
    user_id: int,
    anonymous: int,
    rename: Callable[[str, int], str],
    name_of: Callable[[str, int], str | None],
) -> Forgotten:
    """Inside the caller's transaction: the user's seats and moves become `anonymous`,
    `rename(state, seat)` removes their name from each stored state (`name_of` read it first),
    and their games' pair keys go (they name the players; only an open game needs one, and the
    deletion waits for those)."""
    cursor = await conn.execute(
        "SELECT g.id, g.state, p.seat FROM games g JOIN game_players p ON p.game_id = g.id"
        " WHERE p.user_id = ?",
        (user_id,),
    )
    rows = list(await cursor.fetchall())
    names: set[str] = set()
    for row in rows:
        name = name_of(row["state"], row["seat"])
        if name:
            names.add(name)
        await conn.execute(
            "UPDATE games SET state = ? WHERE id = ?",
            (rename(row["state"], row["seat"]), row["id"]),
        )
    await conn.execute(
        "UPDATE game_players SET user_id = ? WHERE user_id = ?", (anonymous, user_id)
    )
    await conn.execute(
        "UPDATE game_moves SET actor_id = ? WHERE actor_id = ?", (anonymous, user_id)
    )
    await conn.executemany(
        "UPDATE games SET pair_key = NULL WHERE id = ? AND status NOT IN ('pending', 'active')",
        [(row["id"],) for row in rows],
    )
    return Forgotten(len(rows), names)
