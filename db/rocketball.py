"""Rocketball's own tables: finished-match results for /rocketball stats."""

from __future__ import annotations

from dataclasses import dataclass

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
    so a finished game and its statistics are stored together or not at all. User id 0, the
    computer, gets no row."""
    await conn.executemany(
        "INSERT INTO rocketball_results (game_id, user_id, opponent_id, result, goals_for,"
        " goals_against, vs_computer, how) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (game_id, user_id) DO NOTHING",
        [
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
            for r in results
            if r.user_id != 0
        ],
    )


async def player_stats(db: Database, user_id: int) -> Stats:
    row = await db.fetch_one(
        "SELECT COUNT(*) AS played, COALESCE(SUM(CASE WHEN result = 'win' THEN 1 ELSE 0 END), 0) AS wins,"
        " COALESCE(SUM(CASE WHEN result = 'draw' THEN 1 ELSE 0 END), 0) AS draws,"
        " COALESCE(SUM(goals_for), 0) AS gf, COALESCE(SUM(goals_against), 0) AS ga,"
        " COALESCE(SUM(vs_computer), 0) AS vc,"
        " COALESCE(SUM(CASE WHEN vs_computer = 1 AND result = 'win' THEN 1 ELSE 0 END), 0) AS vcw"
        " FROM rocketball_results WHERE user_id = ?",
        (user_id,),
    )
    assert row is not None
    return Stats(
        played=row["played"],
        wins=row["wins"],
        losses=row["played"] - row["wins"] - row["draws"],
        draws=row["draws"],
        goals_for=row["gf"],
        goals_against=row["ga"],
        vs_computer_played=row["vc"],
        vs_computer_wins=row["vcw"],
    )


async def forget_user(conn: Connection, user_id: int, anonymous: int) -> None:
    """/privacy: a user's own result rows go; in their opponents' rows they become `anonymous`,
    so the opponents' statistics stay whole."""
    await conn.execute("DELETE FROM rocketball_results WHERE user_id = ?", (user_id,))
    await conn.execute(
        "UPDATE rocketball_results SET opponent_id = ? WHERE opponent_id = ?", (anonymous, user_id)
    )
