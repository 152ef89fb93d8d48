"""A user's notification settings and a server's defaults for new matches (docs/async-play.md).

Nothing here is required: a user without a row is pinged in the thread unless they acted in the
match in the last 5 minutes, a server without one uses each game's own defaults. Every setter writes one row with ON CONFLICT, so two
changes at once never make two rows.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field, replace
from typing import Any

from db import timers as timer_store
from db.database import Connection, Database

PING_MODES = ("every_turn", "away", "dm", "never")
TIMEOUT_POLICIES = ("computer", "forfeit", "wait")


@dataclass(frozen=True)
class UserSettings:
    user_id: int
    # The default is the match host's own rule: no ping for someone who acted in the match in
    # the last few minutes (they are looking at its card).
    ping: str = "away"
    away_minutes: int = 5
    time_zone: str = "UTC"
    quiet_start: int | None = None  # minute of the local day
    quiet_end: int | None = None
    digest_minute: int | None = None  # minute of the local day of the daily DM; None: none
    # A roll with no choice in it (Rocketball's d4) is the bot's as the turn begins, unless
    # the user presses it themselves (GameAdapter.rolls_for_players).
    roll_myself: bool = False
    stored: bool = False  # False: nothing stored, these are the defaults

    @property
    def has_quiet_hours(self) -> bool:
        return (
            self.quiet_start is not None
            and self.quiet_end is not None
            and self.quiet_start != self.quiet_end
        )


def _user(row: Any) -> UserSettings:
    return UserSettings(
        user_id=row["user_id"],
        ping=row["ping"],
        away_minutes=row["away_minutes"],
        time_zone=row["time_zone"],
        quiet_start=row["quiet_start"],
        quiet_end=row["quiet_end"],
        digest_minute=row["digest_minute"],
        roll_myself=bool(row["roll_myself"]),
        stored=True,
    )


async def user_settings(db: Database, user_id: int) -> UserSettings:
    row = await db.fetch_one("SELECT * FROM user_settings WHERE user_id = ?", (user_id,))
    return UserSettings(user_id) if row is None else _user(row)


async def users_settings(db: Database, user_ids: list[int]) -> dict[int, UserSettings]:
    """Several users' settings in one query (everyone a turn or a reminder is for)."""
    wanted = sorted(set(user_ids))
    found = {user_id: UserSettings(user_id) for user_id in wanted}
    if not wanted:
        return found
    marks = ", ".join("?" for _ in wanted)
    rows = await db.fetch_all(f"SELECT * FROM user_settings WHERE user_id IN ({marks})", wanted)
    for row in rows:
        found[row["user_id"]] = _user(row)
    return found


DIGEST_EVENT = "user_digest"  # a user's daily DM; its timer's payload is {"user_id": N}


async def save_user_settings(
    db: Database, settings: UserSettings, *, digest_due: float | None = None
) -> UserSettings:
    """Save the user's settings and, in the same transaction, their digest's timer: due at
    `digest_due` (the next time of `settings.digest_minute`), or none. Requests at the same
    moment are saved one after the other, so the last one's settings and digest stand."""
    if settings.ping not in PING_MODES:
        raise ValueError(f"unknown ping mode {settings.ping!r}")
    now = time.time()
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO user_settings (user_id, ping, away_minutes, time_zone, quiet_start,"
            " quiet_end, digest_minute, roll_myself, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET ping = excluded.ping,"
            " away_minutes = excluded.away_minutes, time_zone = excluded.time_zone,"
            " quiet_start = excluded.quiet_start, quiet_end = excluded.quiet_end,"
            " digest_minute = excluded.digest_minute, roll_myself = excluded.roll_myself,"
            " updated_at = excluded.updated_at",
            (
                settings.user_id,
                settings.ping,
                settings.away_minutes,
                settings.time_zone,
                settings.quiet_start,
                settings.quiet_end,
                settings.digest_minute,
                int(settings.roll_myself),
                now,
            ),
        )
        await replace_digest(conn, settings.user_id, digest_due, now=now)
    return replace(settings, stored=True)


async def replace_digest(
    conn: Connection, user_id: int, due_at: float | None, *, now: float
) -> None:
    """Inside the caller's transaction: the user's one digest timer is due at `due_at` (None:
    there is none)."""
    await timer_store.replace_timer(conn, DIGEST_EVENT, {"user_id": user_id}, due_at, now=now)


async def set_digest(db: Database, user_id: int, due_at: float | None) -> None:
    """The user's next digest (after one was sent)."""
    async with db.transaction() as conn:
        await replace_digest(conn, user_id, due_at, now=time.time())


# --- servers ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameDefaults:
    """A server's defaults for one game's new matches; None: the game's own."""

    remind_minutes: int | None = None
    timeout_minutes: int | None = None
    on_timeout: str | None = None  # computer | forfeit | wait
    clock_minutes: int | None = None  # the bank each player starts with; None: no clock
    increment_minutes: int | None = None
    cap_minutes: int | None = None

    def is_empty(self) -> bool:
        return self == GameDefaults()


@dataclass(frozen=True)
class ServerSettings:
    guild_id: int
    match_channel_id: int | None = None
    admin_role_id: int | None = None
    disabled_games: frozenset[str] = frozenset()
    games: dict[str, GameDefaults] = field(default_factory=dict)


@dataclass(frozen=True)
class MatchDefaults:
    """What a new match of `game` on a server starts from (`defaults_for`)."""

    game: str
    enabled: bool = True
    channel_id: int | None = None  # where new matches are posted; None: where asked
    admin_role_id: int | None = None
    game_defaults: GameDefaults = GameDefaults()


async def server_settings(db: Database, guild_id: int) -> ServerSettings:
    row = await db.fetch_one("SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,))
    rows = await db.fetch_all(
        "SELECT * FROM guild_game_settings WHERE guild_id = ? ORDER BY game", (guild_id,)
    )
    games = {
        game_row["game"]: GameDefaults(
            remind_minutes=game_row["remind_minutes"],
            timeout_minutes=game_row["timeout_minutes"],
            on_timeout=game_row["on_timeout"],
            clock_minutes=game_row["clock_minutes"],
            increment_minutes=game_row["increment_minutes"],
            cap_minutes=game_row["cap_minutes"],
        )
        for game_row in rows
    }
    if row is None:
        return ServerSettings(guild_id, games=games)
    return ServerSettings(
        guild_id=guild_id,
        match_channel_id=row["match_channel_id"],
        admin_role_id=row["admin_role_id"],
        disabled_games=frozenset(_games_list(row["disabled_games"])),
        games=games,
    )


def _games_list(text: str | None) -> list[str]:
    try:
        value = json.loads(text or "[]")
    except ValueError:
        return []
    return [str(game) for game in value] if isinstance(value, list) else []


async def defaults_for(db: Database, guild_id: int | None, game: str) -> MatchDefaults:
    """What a new `game` match on the server starts from: switched on or off, the channel new
    matches go to, and the game's reminder, timeout and clock defaults. Outside a server (None)
    everything is the game's own."""
    if guild_id is None:
        return MatchDefaults(game)
    server = await server_settings(db, guild_id)
    return MatchDefaults(
        game=game,
        enabled=game not in server.disabled_games,
        channel_id=server.match_channel_id,
        admin_role_id=server.admin_role_id,
        game_defaults=server.games.get(game, GameDefaults()),
    )


async def game_enabled(db: Database, guild_id: int | None, game: str) -> bool:
    """False when the server's admins switched the game off (one indexed read)."""
    if guild_id is None:
        return True
    row = await db.fetch_one(
        "SELECT disabled_games FROM guild_settings WHERE guild_id = ?", (guild_id,)
    )
    return row is None or game not in _games_list(row["disabled_games"])


async def _ensure_server_row(conn: Connection, guild_id: int) -> None:
    await conn.execute(
        "INSERT INTO guild_settings (guild_id, updated_at) VALUES (?, ?)"
        " ON CONFLICT (guild_id) DO NOTHING",
        (guild_id, time.time()),
    )


async def set_match_channel(db: Database, guild_id: int, channel_id: int | None) -> None:
    async with db.transaction() as conn:
        await _ensure_server_row(conn, guild_id)
        await conn.execute(
            "UPDATE guild_settings SET match_channel_id = ?, updated_at = ? WHERE guild_id = ?",
            (channel_id, time.time(), guild_id),
        )


async def set_admin_role(db: Database, guild_id: int, role_id: int | None) -> None:
    async with db.transaction() as conn:
        await _ensure_server_row(conn, guild_id)
        await conn.execute(
            "UPDATE guild_settings SET admin_role_id = ?, updated_at = ? WHERE guild_id = ?",
            (role_id, time.time(), guild_id),
        )


async def set_game_enabled(db: Database, guild_id: int, game: str, enabled: bool) -> None:
    """Switch a game on or off; read and written in one transaction, so two admins switching
    two games at once both count."""
    async with db.transaction() as conn:
        await _ensure_server_row(conn, guild_id)
        cursor = await conn.execute(
            "SELECT disabled_games FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        disabled = set(_games_list((await cursor.fetchone())["disabled_games"]))
        if enabled:
            disabled.discard(game)
        else:
            disabled.add(game)
        await conn.execute(
            "UPDATE guild_settings SET disabled_games = ?, updated_at = ? WHERE guild_id = ?",
            (json.dumps(sorted(disabled)), time.time(), guild_id),
        )


async def save_game_defaults(
    db: Database, guild_id: int, game: str, defaults: GameDefaults
) -> None:
    """The server's defaults for `game` become `defaults` (all of them; None: the game's own).
    Only matches made from now on read them."""
    if defaults.on_timeout is not None and defaults.on_timeout not in TIMEOUT_POLICIES:
        raise ValueError(f"unknown timeout policy {defaults.on_timeout!r}")
    async with db.transaction() as conn:
        if defaults.is_empty():
            await conn.execute(
                "DELETE FROM guild_game_settings WHERE guild_id = ? AND game = ?",
                (guild_id, game),
            )
            return
        await conn.execute(
            "INSERT INTO guild_game_settings (guild_id, game, remind_minutes, timeout_minutes,"
            " on_timeout, clock_minutes, increment_minutes, cap_minutes, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (guild_id, game) DO UPDATE SET"
            " remind_minutes = excluded.remind_minutes,"
            " timeout_minutes = excluded.timeout_minutes, on_timeout = excluded.on_timeout,"
            " clock_minutes = excluded.clock_minutes,"
            " increment_minutes = excluded.increment_minutes,"
            " cap_minutes = excluded.cap_minutes, updated_at = excluded.updated_at",
            (
                guild_id,
                game,
                defaults.remind_minutes,
                defaults.timeout_minutes,
                defaults.on_timeout,
                defaults.clock_minutes,
                defaults.increment_minutes,
                defaults.cap_minutes,
                time.time(),
            ),
        )


async def claim_welcome(db: Database, guild_id: int) -> bool:
    """True exactly once per server: whoever claims first posts the welcome (several processes
    may each see the bot join during a re-shard)."""
    now = time.time()
    async with db.transaction() as conn:
        await _ensure_server_row(conn, guild_id)
        cursor = await conn.execute(
            "UPDATE guild_settings SET welcomed_at = ? WHERE guild_id = ? AND welcomed_at IS NULL",
            (now, guild_id),
        )
    return cursor.rowcount == 1


# --- /privacy -----------------------------------------------------------------------------------


async def forget_user(conn: Connection, user_id: int) -> None:
    """Inside the caller's transaction: the user's notification settings and digest go."""
    await conn.execute("DELETE FROM user_settings WHERE user_id = ?", (user_id,))
    await replace_digest(conn, user_id, None, now=time.time())
