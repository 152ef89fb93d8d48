"""The one results store (db/results.py) on both backends: a new game's results are its row, its
figures and the migration that creates its table, with no store of its own to write; the
games' own stores (db/rocketball.py, db/rollerball.py) are declared on it."""

from dataclasses import dataclass

import pytest

from db import games, rollerball
from db.results import PLAYED, ResultsStore, best, counted

# What a new game's migration would create: its results and its players' totals (docs/architecture.md "A new game's checklist").
DUMMYBALL_TABLE = """
CREATE TABLE dummyball_results (
    game_id     BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id     BIGINT  NOT NULL,
    rival_id    BIGINT  NOT NULL,
    result      TEXT    NOT NULL CHECK (result IN ('win', 'loss', 'draw')),
    points      INTEGER NOT NULL,
    PRIMARY KEY (game_id, user_id)
)
"""
DUMMYBALL_TOTALS = """
CREATE TABLE dummyball_totals (
    user_id     BIGINT  PRIMARY KEY,
    played      INTEGER NOT NULL,
    wins        INTEGER NOT NULL,
    best        INTEGER NOT NULL
)
"""


@dataclass(frozen=True)
class DummyResult:
    user_id: int
    rival_id: int
    result: str
    points: int


DUMMYBALL = ResultsStore(
    "dummyball_results",
    DummyResult,
    "dummyball_totals",
    totals={"played": PLAYED, "wins": counted("win"), "best": best("points")},
    opponents=("rival_id",),
)


async def finished(db, game: str, players: list[int]) -> int:
    return await games.create_game(
        db, game=game, guild_id=1, channel_id=2, players=players, state="{}"
    )


async def test_a_new_game_s_results_need_only_its_row_and_figures(db):
    async with db.transaction() as conn:
        await conn.execute(DUMMYBALL_TABLE)
        await conn.execute(DUMMYBALL_TOTALS)
    first = await finished(db, "dummyball", [7, 8])
    second = await finished(db, "dummyball", [7, 0])
    async with db.transaction() as conn:
        rows = [DummyResult(7, 8, "win", 5), DummyResult(8, 7, "loss", 2)]
        await DUMMYBALL.record(conn, first, rows)
        await DUMMYBALL.record(conn, first, rows)  # a retry writes nothing twice
        await DUMMYBALL.record(
            conn, second, [DummyResult(7, 0, "loss", 3), DummyResult(0, 7, "win", 9)]
        )
    assert await DUMMYBALL.totals_of(db, 7) == {"played": 2, "wins": 1, "best": 5}
    assert await DUMMYBALL.totals_of(db, 0) == {"played": 0, "wins": 0, "best": 0}  # no computer
    async with db.transaction() as conn:
        await DUMMYBALL.forget(conn, 7, anonymous=-1)
    assert await DUMMYBALL.totals_of(db, 7) == {"played": 0, "wins": 0, "best": 0}
    # the opponent's statistics stay whole, naming the deleted user no more
    assert await DUMMYBALL.totals_of(db, 8) == {"played": 1, "wins": 0, "best": 2}
    row = await db.fetch_one("SELECT rival_id FROM dummyball_results WHERE user_id = 8")
    assert row["rival_id"] == -1


async def test_rollerball_stats_count_wins_shared_wins_points_and_computer_tables(db):
    def seat(user, number, outcome, points, computers=0):
        return rollerball.SeatResult(user, number, outcome, points, 3, computers, "later", "target")

    first = await finished(db, "rollerball", [7, 8, 9])
    second = await finished(db, "rollerball", [7, 0, 9])
    async with db.transaction() as conn:
        await rollerball.record_results(
            conn, first, [seat(7, 0, "win", 6), seat(8, 1, "loss", 2), seat(9, 2, "loss", 4)]
        )
        await rollerball.record_results(
            conn,
            second,
            [seat(7, 0, "draw", 5, 1), seat(0, 1, "draw", 5, 1), seat(9, 2, "loss", 1, 1)],
        )
    stats = await rollerball.player_stats(db, 7)
    assert (stats.played, stats.wins, stats.shared, stats.losses) == (2, 1, 1, 0)
    assert (stats.victory_points, stats.best_points, stats.with_computers) == (11, 6, 1)
    async with db.transaction() as conn:
        await rollerball.forget_user(conn, 7)
    assert (await rollerball.player_stats(db, 7)).played == 0
    assert (await rollerball.player_stats(db, 9)).played == 2


def test_a_results_table_s_names_are_the_code_s_own():
    """Names are written into the SQL: one that is not a plain name is refused at once."""
    with pytest.raises(ValueError, match="bad names"):
        ResultsStore("dummyball_results; DROP TABLE games", DummyResult, "t", totals={})
    with pytest.raises(ValueError, match="bad names"):
        ResultsStore("dummyball_results", DummyResult, "dummyball totals", totals={})
    with pytest.raises(ValueError, match="bad names"):
        ResultsStore("dummyball_results", DummyResult, "t", totals={"best points": best("points")})
