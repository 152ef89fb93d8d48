"""Rocketball's own tables: finished-match results for /rocketball stats."""

from __future__ import annotations

from dataclasses import dataclass

from db import totals
from db.database import Connection, Database


@dataclass(frozen=True)
class PlayerResult:
    user_id: int
    opponent_id: int
    result: str  # win, loss or draw
    goals_for: int
    goals_against: int
    vs_computer: bool
    how: str


@dataclass(frozen=True)
class Stats:
    played: int
    wins: int
    losses: int
    draws: int
    goals_for: int
    goals_against: int
    vs_computer_played: int
    vs_computer_wins: int


async def record_results(conn: Connection, game_id: int, results: list[PlayerResult]) -> None:
    """Write the result rows inside the caller's transaction (the one that saves the last move),
    so a finished game and its statistics are stored together or not at all, and add them to
    each player's totals (db/totals.py). User id 0, the computer, gets no row."""
    people = {r.user_id: r for r in reversed(results) if r.user_id != 0}  # a user's first row
    await totals.record(
        conn,
        results="rocketball_results",
        totals="rocketball_totals",
        game_id=game_id,
        rows=[
            (
                game_id,
                r.user_id,
                r.opponent_id,
                r.result,
                r.goals_for,
                r.goals_against,
                int(r.vs_computer),
                r.how,
            )
            for r in people.values()
        ],
        insert="INSERT INTO rocketball_results (game_id, user_id, opponent_id, result, goals_for,"
        " goals_against, vs_computer, how) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        shares={
            user_id: {
                "played": 1,
                "wins": int(r.result == "win"),
                "draws": int(r.result == "draw"),
                "goals_for": r.goals_for,
                "goals_against": r.goals_against,
                "vs_computer_played": int(r.vs_computer),
                "vs_computer_wins": int(r.vs_computer and r.result == "win"),
            }
            for user_id, r in people.items()
        },
    )


async def player_stats(db: Database, user_id: int) -> Stats:
    """One row of the player's totals, however many matches they finished."""
    row = await db.fetch_one("SELECT * FROM rocketball_totals WHERE user_id = ?", (user_id,))
    if row is None:
        return Stats(0, 0, 0, 0, 0, 0, 0, 0)
    return Stats(
        played=row["played"],
        wins=row["wins"],
        losses=row["played"] - row["wins"] - row["draws"],
        draws=row["draws"],
        goals_for=row["goals_for"],
        goals_against=row["goals_against"],
        vs_computer_played=row["vs_computer_played"],
        vs_computer_wins=row["vs_computer_wins"],
    )


async def forget_user(conn: Connection, user_id: int, anonymous: int) -> None:
    """/privacy: a user's own result rows and totals go; in their opponents' rows they become
    `anonymous`, so the opponents' statistics stay whole."""
    await conn.execute("DELETE FROM rocketball_results WHERE user_id = ?", (user_id,))
    await conn.execute("DELETE FROM rocketball_totals WHERE user_id = ?", (user_id,))
    await conn.execute(
        "UPDATE rocketball_results SET opponent_id = ? WHERE opponent_id = ?", (anonymous, user_id)
    )
