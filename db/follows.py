"""What users follow (a match, a player, a team, a league), the milestones each follower has
been sent (each once), and how followed news reaches them (docs/async-play.md "Following").

A followed thing is a (kind, target) pair: ("match", "12"), ("player", "<user id>"),
("team", "rollerball2:7"), ("league", "volleyball:3"). A user follows at most FOLLOWS_AT_MOST
things: the limit is checked inside the transaction that adds one, so many clicks at once never
pass it.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from db.database import Connection, Database

FOLLOWS_AT_MOST = 50  # things one user follows: a screenful of /settings follows
KINDS = ("match", "player", "team", "league")
NEWS_MODES = ("mention", "dm", "digest")


class TooManyFollows(Exception):
    """The user follows FOLLOWS_AT_MOST things already."""


@dataclass(frozen=True)
class Follow:
    user_id: int
    kind: str
    target: str
    guild_id: int | None
    label: str  # as the user reads it: "Rocketball match #12", "Bob", "team Falcons"
    created_at: float


def _follow(row: Any) -> Follow:
    return Follow(
        row["user_id"], row["kind"], row["target"], row["guild_id"], row["label"], row["created_at"]
    )


async def follow(
    db: Database, user_id: int, kind: str, target: str, guild_id: int | None, label: str
) -> bool:
    """Follow (kind, target); False if the user follows it already. TooManyFollows past the
    limit."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind of follow {kind!r}")
    async with db.transaction() as conn:
        cursor = await conn.execute(
            "SELECT COUNT(*) AS n, SUM(CASE WHEN kind = ? AND target = ? THEN 1 ELSE 0 END) AS here"
            " FROM follows WHERE user_id = ?",
            (kind, target, user_id),
        )
        row = await cursor.fetchone()
        if row["here"]:
            return False
        if row["n"] >= FOLLOWS_AT_MOST:
            raise TooManyFollows
        await conn.execute(
            "INSERT INTO follows (user_id, kind, target, guild_id, label, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, kind, target) DO NOTHING",
            (user_id, kind, target, guild_id, label, time.time()),
        )
    return True


async def unfollow(db: Database, user_id: int, kind: str, target: str) -> bool:
    """Stop following (kind, target); False if the user did not follow it."""
    async with db.transaction() as conn:
        cursor = await conn.execute(
            "DELETE FROM follows WHERE user_id = ? AND kind = ? AND target = ?",
            (user_id, kind, target),
        )
        return cursor.rowcount > 0


async def follows_of(db: Database, user_id: int) -> list[Follow]:
    """What the user follows, the oldest first."""
    rows = await db.fetch_all(
        "SELECT * FROM follows WHERE user_id = ? ORDER BY created_at, kind, target", (user_id,)
    )
    return [_follow(row) for row in rows]


async def is_following(db: Database, user_id: int, kind: str, target: str) -> bool:
    row = await db.fetch_one(
        "SELECT 1 FROM follows WHERE user_id = ? AND kind = ? AND target = ?",
        (user_id, kind, target),
    )
    return row is not None


def _any_of(things: Sequence[tuple[str, str]]) -> tuple[str, list[object]]:
    where = " OR ".join("(kind = ? AND target = ?)" for _ in things)
    return where, [part for thing in things for part in thing]


async def followers(
    db: Database, things: Sequence[tuple[str, str]], guild_id: int | None
) -> list[int]:
    """Everyone who follows any of `things` on the server `guild_id` (a player or a team is
    followed on one server), each once, in a steady order."""
    if not things:
        return []
    where, parameters = _any_of(things)
    rows = await db.fetch_all(
        f"SELECT DISTINCT user_id FROM follows WHERE ({where})"
        " AND (guild_id IS NULL OR guild_id = ?) ORDER BY user_id",
        [*parameters, guild_id],
    )
    return [int(row["user_id"]) for row in rows]


# ---- news: each milestone once per follower ---------------------------------------------------


async def record_news(db: Database, user_ids: Iterable[int], key: str) -> list[int]:
    """Note that milestone `key` goes to each of `user_ids`; returns those it had not gone to
    before (the others heard of it already: a card shown again after a restart). A sent
    milestone keeps only its key: its text (which names players) is kept while it waits."""
    new: list[int] = []
    now = time.time()
    async with db.transaction() as conn:
        for user_id in user_ids:
            cursor = await conn.execute(
                "INSERT INTO follow_news (user_id, news_key, text, created_at, sent_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id, news_key) DO NOTHING",
                (user_id, key, "", now, now),
            )
            if cursor.rowcount > 0:
                new.append(user_id)
    return new


async def hold_news(db: Database, user_id: int, key: str, text: str) -> None:
    """The milestone waits, with its text, for the user's digest or the end of their quiet
    hours."""
    async with db.transaction() as conn:
        await conn.execute(
            "UPDATE follow_news SET sent_at = NULL, text = ? WHERE user_id = ? AND news_key = ?",
            (text, user_id, key),
        )


async def take_waiting(db: Database, user_id: int) -> list[str]:
    """The milestones waiting for the user, oldest first, marked sent in the same transaction
    (two timers firing at once cannot both send them)."""
    async with db.transaction() as conn:
        cursor = await conn.execute(
            "SELECT news_key, text FROM follow_news WHERE user_id = ? AND sent_at IS NULL"
            " ORDER BY created_at, news_key",
            (user_id,),
        )
        rows = list(await cursor.fetchall())
        if rows:
            await conn.execute(
                "UPDATE follow_news SET sent_at = ?, text = '' WHERE user_id = ?"
                " AND sent_at IS NULL",
                (time.time(), user_id),
            )
    return [row["text"] for row in rows]


# ---- how news reaches a user -------------------------------------------------------------------


async def news_mode(db: Database, user_ids: Iterable[int]) -> dict[int, str]:
    """The users who chose how followed news reaches them (/settings follows), and how."""
    wanted = sorted(set(user_ids))
    if not wanted:
        return {}
    marks = ", ".join("?" for _ in wanted)
    rows = await db.fetch_all(
        f"SELECT user_id, news FROM follow_settings WHERE user_id IN ({marks})", wanted
    )
    return {int(row["user_id"]): row["news"] for row in rows}


async def set_news_mode(db: Database, user_id: int, news: str | None) -> None:
    """How followed news reaches the user; None: as their turns are pinged."""
    if news is not None and news not in NEWS_MODES:
        raise ValueError(f"unknown news mode {news!r}")
    async with db.transaction() as conn:
        if news is None:
            await conn.execute("DELETE FROM follow_settings WHERE user_id = ?", (user_id,))
            return
        await conn.execute(
            "INSERT INTO follow_settings (user_id, news, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET news = excluded.news,"
            " updated_at = excluded.updated_at",
            (user_id, news, time.time()),
        )


# ---- /privacy ------------------------------------------------------------------------------------


async def forget_user(conn: Connection, user_id: int) -> None:
    """Inside the deletion's transaction: what the user follows, the news kept for them, their
    choice of how it reaches them, and their being followed as a player."""
    await conn.execute("DELETE FROM follows WHERE user_id = ?", (user_id,))
    await conn.execute("DELETE FROM follows WHERE kind = 'player' AND target = ?", (str(user_id),))
    await conn.execute("DELETE FROM follow_news WHERE user_id = ?", (user_id,))
    await conn.execute("DELETE FROM follow_settings WHERE user_id = ?", (user_id,))
