"""Rollerball's (the board game's) results table, for /rollerball stats: its row and figures,
declared on the one results store (db/results.py)."""

from __future__ import annotations

from dataclasses import dataclass

from db.database import Connection, Database
from db.results import PLAYED, Figure, ResultsStore, best, counted, summed


@dataclass(frozen=True)
class SeatResult:
    user_id: int
    seat: int
    result: str  # win, loss or draw (a shared win)
    victory_points: int
    players: int
    computers: int
    edition: str
    how: str


@dataclass(frozen=True)
class Stats:
    played: int
    wins: int
    shared: int
    losses: int
    victory_points: int
    best_points: int
    with_computers: int


STORE = ResultsStore(
    "rollerball_results",
    SeatResult,
    "rollerball_totals",
    totals={
        "played": PLAYED,
        "wins": counted("win"),
        "shared": counted("draw"),
        "victory_points": summed("victory_points"),
        "best_points": best("victory_points"),
        "with_computers": Figure(lambda row: int(row.computers > 0)),
    },
)


async def record_results(conn: Connection, game_id: int, results: list[SeatResult]) -> None:
    await STORE.record(conn, game_id, results)


async def player_stats(db: Database, user_id: int) -> Stats:
    """One row of the player's totals, however many games they finished."""
    totals = await STORE.totals_of(db, user_id)
    return Stats(losses=totals["played"] - totals["wins"] - totals["shared"], **totals)


async def forget_user(conn: Connection, user_id: int) -> None:
    """/privacy: the user's own rows and totals go (the others' rows never name them)."""
    await STORE.forget(conn, user_id, 0)
