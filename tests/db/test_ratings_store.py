"""The ratings store (db/ratings.py) on both backends: the Elo ratings carried over by their
migration, a rated match counted once in its server and across servers, the leaderboard's
order (established players first), its wins and trend, and /privacy's forgetting."""

from __future__ import annotations

import pytest

from db import games, ratings
from db.connect import open_database
from db.database import load_migrations
from rules import ratings as maths
from tests.support.plans import first_plan

GUILD, OTHER = 111, 222


async def test_the_elo_ratings_are_carried_over_with_a_deviation_for_their_games(
    database_target,
):
    db = await open_database(database_target)
    every = load_migrations(backend=db.backend)
    carried = next(m for m in every if m.name == "019_glicko_ratings")
    await db.migrate([m for m in every if m.version < carried.version])
    finished = await games.create_game(
        db, game="rocketball", guild_id=GUILD, channel_id=1, players=[7, 8], state="{}"
    )
    async with db.transaction() as conn:
        for guild, user, rating, played in (
            (GUILD, 7, 1620.0, 25),
            (GUILD, 8, 1380.0, 1),
            (OTHER, 7, 1500.0, 5),
        ):
            await conn.execute(
                "INSERT INTO ratings (game, guild_id, user_id, rating, played)"
                " VALUES ('rocketball', ?, ?, ?, ?)",
                (guild, user, rating, played),
            )
        await conn.execute(
            "INSERT INTO rocketball_results (game_id, user_id, opponent_id, result, goals_for,"
            " goals_against, vs_computer, how) VALUES (?, 7, 8, 'win', 2, 0, 0, 'score')",
            (finished,),
        )
    await db.migrate()
    rows = {
        (row["guild_id"], row["user_id"]): row
        for row in await db.fetch_all("SELECT * FROM ratings WHERE game = 'rocketball'")
    }
    seven = rows[(GUILD, 7)]
    assert (seven["rating"], seven["deviation"], seven["volatility"]) == (1620.0, 89, 0.06)
    assert (seven["played"], seven["wins"]) == (25, 1)
    assert rows[(GUILD, 8)]["deviation"] == 266 and rows[(OTHER, 7)]["deviation"] == 162
    # across servers: the servers' ratings weighted by the games played in each
    across = rows[(ratings.EVERYWHERE, 7)]
    assert across["rating"] == pytest.approx((1620 * 25 + 1500 * 5) / 30)
    assert (across["played"], across["wins"]) == (30, 1)
    await db.close()


async def test_a_rated_duel_counts_once_here_and_everywhere_and_leads_the_board(db):
    for match_id, (winner, loser) in enumerate(((7, 8), (7, 9), (8, 9)), start=1):
        async with db.transaction() as conn:
            await ratings.record_duel(
                conn,
                game="rocketball",
                guild_id=GUILD,
                game_id=match_id,
                players=(winner, loser),
                results=("win", "loss"),
            )
    board = await ratings.leaderboard(db, game="rocketball", guild_id=GUILD)
    assert [row.user_id for row in board] == [7, 8, 9]
    assert [(row.played, row.wins) for row in board] == [(2, 2), (2, 1), (2, 0)]
    assert board[0].shown.endswith("?") and board[0].trend.startswith("▲")
    assert board[2].trend.startswith("▼")
    everywhere = await ratings.leaderboard(db, game="rocketball", guild_id=GUILD, everywhere=True)
    assert [(row.user_id, row.rating) for row in everywhere] == [
        (row.user_id, row.rating) for row in board
    ]
    # another server sees nobody of this one on its own board
    assert await ratings.leaderboard(db, game="rocketball", guild_id=OTHER) == []
    async with db.transaction() as conn:
        await ratings.forget_user(conn, 7)
    board = await ratings.leaderboard(db, game="rocketball", guild_id=GUILD)
    assert [row.user_id for row in board] == [8, 9]


async def test_established_players_rank_above_provisional_ones(db):
    async with db.transaction() as conn:
        for user, rating, played in ((1, 1900.0, 3), (2, 1600.0, maths.PROVISIONAL_GAMES)):
            await conn.execute(
                "INSERT INTO ratings (game, guild_id, user_id, rating, played, deviation,"
                " volatility, wins) VALUES ('rocketball', ?, ?, ?, ?, 100, 0.06, 0)",
                (GUILD, user, rating, played),
            )
    board = await ratings.leaderboard(db, game="rocketball", guild_id=GUILD)
    assert [(row.user_id, row.shown) for row in board] == [(2, "1600"), (1, "1900?")]


async def test_a_table_moves_everyone_seated_once(db):
    async with db.transaction() as conn:
        await ratings.record_table(
            conn,
            game="rollerball",
            guild_id=GUILD,
            game_id=1,
            players=[4, 5, 6],
            results=["loss", "win", "loss"],
        )
    board = await ratings.leaderboard(db, game="rollerball", guild_id=GUILD)
    assert board[0].user_id == 5
    assert {row.user_id: row.played for row in board} == {4: 1, 5: 1, 6: 1}
    assert all(row.skill.volatility is None for row in board)


async def test_the_board_across_servers_walks_this_servers_players_from_the_top(db):
    """It walked the rating index across servers from the top, passing over every other
    server's players (11 times slower at 10 times the servers, bench/history_costs.py), then
    read every player of the server and sorted them (81 ms for 4,000, bench/leaderboard.py):
    it walks the server's own rows in the order of the rating everywhere they hold a copy of,
    kept by every rated match (no sort of the whole server)."""
    for match_id, (winner, loser) in enumerate(((5, 30), (30, 7), (7, 30)), start=1):
        async with db.transaction() as conn:
            await ratings.record_duel(
                conn,
                game="rocketball",
                guild_id=OTHER if match_id == 2 else GUILD,
                game_id=match_id,
                players=(winner, loser),
                results=("win", "loss"),
            )
    everywhere = await ratings.leaderboard(db, game="rocketball", guild_id=GUILD, everywhere=True)
    across = {
        row.user_id: row.rating
        for row in await ratings.leaderboard(db, game="rocketball", guild_id=OTHER, limit=50)
    }
    assert across  # the other server's match moved 30's and 7's ratings everywhere too
    found = {
        row["user_id"]: (row["rating"], row["played"])
        for row in await db.fetch_all(
            "SELECT user_id, rating, played FROM ratings WHERE guild_id = ?",
            (ratings.EVERYWHERE,),
        )
    }
    expected = sorted((5, 7, 30), key=lambda user: -found[user][0])
    assert [row.user_id for row in everywhere] == expected
    assert [row.played for row in everywhere] == [found[user][1] for user in expected]
    copies = await db.fetch_all(
        "SELECT user_id, rating_everywhere, played_everywhere FROM ratings WHERE guild_id <> ?",
        (ratings.EVERYWHERE,),
    )
    assert all(
        (row["rating_everywhere"], row["played_everywhere"]) == found[row["user_id"]]
        for row in copies
    )
    _, plan = await first_plan(
        db, lambda: ratings.leaderboard(db, game="rocketball", guild_id=GUILD, everywhere=True)
    )
    assert plan is None or (
        "ratings_by_rank_everywhere" in plan[0]
        and not any("TEMP B-TREE FOR ORDER BY" in step for step in plan)
    ), plan
