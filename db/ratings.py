"""Ratings per game, server and player, and across servers (guild_id EVERYWHERE); each rated
match's change of every player's rating for a leaderboard's trend. rules/ratings.py does the
arithmetic: Glicko-2 for two players, Plackett-Luce for a table."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from db.database import Connection, Database
from rules import ratings
from rules.ratings import Skill

EVERYWHERE = 0  # the guild_id of a player's rating across every server
TREND_GAMES = 10  # a leaderboard's trend: the sum of this many latest changes


@dataclass(frozen=True)
class Rating:
    user_id: int
    skill: Skill
    played: int  # rated matches in this scope
    wins: int

    @property
    def rating(self) -> float:
        return self.skill.rating

    @property
    def shown(self) -> str:
        """ "1523", or "1523?" while provisional (rules/ratings.py)."""
        return ratings.shown(self.skill.rating, self.played)


@dataclass(frozen=True)
class Ranked(Rating):
    trend: str = "±0"  # rules/ratings.py `trend` of the latest TREND_GAMES changes


def _newcomer(user_id: int, multiplayer: bool) -> Rating:
    return Rating(user_id, ratings.MULTIPLAYER_NEWCOMER if multiplayer else ratings.NEWCOMER, 0, 0)


def _fields(row) -> dict:
    skill = Skill(row["rating"], row["deviation"], row["volatility"])
    return {"user_id": row["user_id"], "skill": skill, "played": row["played"], "wins": row["wins"]}


def _marks(count: int) -> str:
    return ", ".join("?" * count)


def _select(game: str, guild_id: int, users: Sequence[int]) -> tuple[str, tuple]:
    return (
        "SELECT user_id, rating, deviation, volatility, played, wins FROM ratings"
        f" WHERE game = ? AND guild_id = ? AND user_id IN ({_marks(len(users))})",
        (game, guild_id, *users),
    )


def _with_newcomers(rows, users: Sequence[int], multiplayer: bool) -> dict[int, Rating]:
    found = {row["user_id"]: Rating(**_fields(row)) for row in rows}
    return {user: found.get(user) or _newcomer(user, multiplayer) for user in users}


async def _current(
    conn: Connection, game: str, guild_id: int, users: Sequence[int], multiplayer: bool
) -> dict[int, Rating]:
    cursor = await conn.execute(*_select(game, guild_id, users))
    return _with_newcomers(await cursor.fetchall(), users, multiplayer)


async def _store(
    conn: Connection,
    game: str,
    guild_id: int,
    game_id: int,
    before: Rating,
    after: Skill,
    won: bool,
) -> None:
    await conn.execute(
        "INSERT INTO ratings (game, guild_id, user_id, rating, deviation, volatility, played,"
        " wins) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (game, guild_id, user_id) DO UPDATE SET rating = excluded.rating,"
        " deviation = excluded.deviation, volatility = excluded.volatility,"
        " played = excluded.played, wins = excluded.wins",
        (
            game,
            guild_id,
            before.user_id,
            after.rating,
            after.deviation,
            after.volatility,
            before.played + 1,
            before.wins + int(won),
        ),
    )
    await conn.execute(
        "INSERT INTO rating_changes (game, guild_id, user_id, game_id, delta)"
        " VALUES (?, ?, ?, ?, ?)",
        (game, guild_id, before.user_id, game_id, after.rating - before.rating),
    )
    if guild_id == EVERYWHERE:
        # every server's row of the player holds it too: the board across servers reads it
        # there, by an index of the server's rows (`leaderboard`)
        await conn.execute(
            "UPDATE ratings SET rating_everywhere = ?, played_everywhere = ?"
            " WHERE game = ? AND user_id = ? AND guild_id <> ?",
            (after.rating, before.played + 1, game, before.user_id, EVERYWHERE),
        )


async def record_duel(
    conn: Connection,
    *,
    game: str,
    guild_id: int,
    game_id: int,
    players: tuple[int, int],
    results: tuple[str, str],
) -> None:
    """Inside the caller's transaction: both players' Glicko-2 ratings after a rated match, in
    this server and across servers, each read before either is written."""
    for scope in (guild_id, EVERYWHERE):
        now = await _current(conn, game, scope, players, multiplayer=False)
        first, second = now[players[0]], now[players[1]]
        pairs = ((first, second, results[0]), (second, first, results[1]))
        for own, other, result in pairs:
            after = ratings.after_game(own.skill, other.skill, result)
            await _store(conn, game, scope, game_id, own, after, result == "win")


async def record_table(
    conn: Connection,
    *,
    game: str,
    guild_id: int,
    game_id: int,
    players: Sequence[int],
    results: Sequence[str],
) -> None:
    """Inside the caller's transaction: every player's Plackett-Luce rating after a rated table
    (rules/ratings.py `places_of`), in this server and across servers."""
    places = ratings.places_of(results)
    for scope in (guild_id, EVERYWHERE):
        now = await _current(conn, game, scope, players, multiplayer=True)
        before = [now[user] for user in players]
        after = ratings.after_table([rating.skill for rating in before], places)
        for own, skill, result in zip(before, after, results, strict=True):
            await _store(conn, game, scope, game_id, own, skill, result == "win")


async def ratings_of(
    db: Database, *, game: str, guild_id: int, users: Sequence[int], multiplayer: bool
) -> dict[int, Rating]:
    """The users' ratings in this server (a newcomer's start for those without one)."""
    users = list(dict.fromkeys(users))
    if not users:
        return {}
    return _with_newcomers(await db.fetch_all(*_select(game, guild_id, users)), users, multiplayer)


async def leaderboard(
    db: Database, *, game: str, guild_id: int, everywhere: bool = False, limit: int = 10
) -> list[Ranked]:
    """The top of this server's players by their rating here (or, `everywhere`, by their rating
    across servers): established players first, then the provisional ones, each with the trend
    of their latest TREND_GAMES rated matches in that scope. Each part reads the rating index
    from the top and stops at `limit`; across servers it reads the server's own players
    (bench/leaderboard.py, bench/history_costs.py)."""
    scope = EVERYWHERE if everywhere else guild_id
    # Across servers, the server's own rows are walked from the top by the copy of the rating
    # everywhere they hold (rating_everywhere, written with it), and the rating's own row read
    # by its key: walking the index of the ratings everywhere would pass over the players of
    # every other server, and reading all the server's players to sort them grows with them.
    source, here, by = (
        (
            "ratings here CROSS JOIN ratings r",
            "here.game = ? AND here.guild_id = ? AND"
            " r.game = here.game AND r.user_id = here.user_id AND",
            "here",
        )
        if everywhere
        else ("ratings r", "r.game = ? AND", "r")
    )
    rating, played = (
        (f"{by}.rating_everywhere", f"{by}.played_everywhere")
        if everywhere
        else ("r.rating", "r.played")
    )
    rows: list = []
    for established in (True, False):
        rows += await db.fetch_all(
            "SELECT r.user_id, r.rating, r.deviation, r.volatility, r.played, r.wins"
            f" FROM {source} WHERE {here} r.guild_id = ?"
            f" AND {played} {'>=' if established else '<'} ?"
            f" ORDER BY {rating} DESC, {by}.user_id LIMIT ?",
            (
                game,
                *((guild_id,) if everywhere else ()),
                scope,
                ratings.PROVISIONAL_GAMES,
                limit - len(rows),
            ),
        )
        if len(rows) >= limit:
            break
    trends = await _trends(db, game, scope, [row["user_id"] for row in rows])
    return [
        Ranked(**_fields(row), trend=ratings.trend(trends.get(row["user_id"], ()))) for row in rows
    ]


async def standing(
    db: Database, *, game: str, guild_id: int, user_id: int, everywhere: bool = False
) -> Ranked | None:
    """One player's line of the leaderboard (None before their first rated match here)."""
    scope = EVERYWHERE if everywhere else guild_id
    row = await db.fetch_one(*_select(game, scope, [user_id]))
    if row is None:
        return None
    trends = await _trends(db, game, scope, [user_id])
    return Ranked(**_fields(row), trend=ratings.trend(trends.get(user_id, ())))


async def _trends(
    db: Database, game: str, scope: int, users: Sequence[int]
) -> dict[int, list[float]]:
    """Each user's latest TREND_GAMES changes: one indexed read of at most that many per user
    (the index holds the change itself)."""
    if not users:
        return {}
    latest = " UNION ALL ".join(
        f"SELECT * FROM (SELECT user_id, delta FROM rating_changes WHERE game = ?"
        f" AND guild_id = ? AND user_id = ? ORDER BY id DESC LIMIT ?) AS latest{index}"
        for index in range(len(users))
    )
    rows = await db.fetch_all(
        latest, [value for user in users for value in (game, scope, user, TREND_GAMES)]
    )
    trends: dict[int, list[float]] = {}
    for row in rows:
        trends.setdefault(row["user_id"], []).append(row["delta"])
    return trends


async def copy_everywhere(conn: Connection, game: str) -> None:
    """Inside the caller's transaction: every server's row of the game holds its player's
    rating and matches across servers, for rows written in bulk rather than by rating a match
    (the benchmarks' histories; migration 024 did the same for the rows before it)."""
    await conn.execute(
        "UPDATE ratings SET"
        " rating_everywhere = (SELECT e.rating FROM ratings e WHERE e.game = ratings.game"
        " AND e.guild_id = ? AND e.user_id = ratings.user_id),"
        " played_everywhere = COALESCE((SELECT e.played FROM ratings e"
        " WHERE e.game = ratings.game AND e.guild_id = ? AND e.user_id = ratings.user_id), 0)"
        " WHERE game = ? AND guild_id <> ?",
        (EVERYWHERE, EVERYWHERE, game, EVERYWHERE),
    )


async def forget_user(conn: Connection, user_id: int) -> None:
    await conn.execute("DELETE FROM ratings WHERE user_id = ?", (user_id,))
    await conn.execute("DELETE FROM rating_changes WHERE user_id = ?", (user_id,))
