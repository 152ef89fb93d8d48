"""Rocketball's results table, for /rocketball stats: its row and figures, declared on the
one results store (db/results.py)."""

from __future__ import annotations

from dataclasses import dataclass

from db.database import Connection, Database
from db.results import PLAYED, Figure, ResultsStore, counted, summed


@dataclass(frozen=True)
class PlayerResult:
    user_id: int
    opponent_id: int  # 0: the computer
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


STORE = ResultsStore(
    "rocketball_results",
    PlayerResult,
    "rocketball_totals",
    totals={
        "played": PLAYED,
        "wins": counted("win"),
        "draws": counted("draw"),
        "goals_for": summed("goals_for"),
        "goals_against": summed("goals_against"),
        "vs_computer_played": summed("vs_computer"),
        "vs_computer_wins": Figure(lambda row: int(row.vs_computer and row.result == "win")),
    },
    opponents=("opponent_id",),
)


async def record_results(conn: Connection, game_id: int, results: list[PlayerResult]) -> None:
    await STORE.record(conn, game_id, results)


async def player_stats(db: Database, user_id: int) -> Stats:
    """One row of the player's totals, however many matches they finished."""
    totals = await STORE.totals_of(db, user_id)
    return Stats(losses=totals["played"] - totals["wins"] - totals["draws"], **totals)


async def forget_user(conn: Connection, user_id: int, anonymous: int) -> None:
    """/privacy: a user's own rows and totals go; in their opponents' rows they become `anonymous`, so the
    opponents' statistics stay whole."""
    await STORE.forget(conn, user_id, anonymous)
