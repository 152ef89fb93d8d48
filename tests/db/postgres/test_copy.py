"""`python -m db.copy SQLITE_FILE DATABASE_URL`: an installation moves to PostgreSQL whole, the
copy is compared table by table, new rows continue after the copied ids, and a copy that
differs or a target that already holds data is refused."""

import io
import subprocess
import sys
from pathlib import Path

import pytest

from db import games, meta, ratings, rocketball, timers
from db import volleyball as leagues
from db.connect import open_database
from db.copy import compare, copy_installation
from db.database import SqliteDatabase
from db.postgres import PostgresDatabase

pytestmark = pytest.mark.postgres

ROOT = Path(__file__).resolve().parents[3]
BIG_ID = 1234567890123456789  # a Discord snowflake: more than 32 bits


async def an_installation(path: Path) -> None:
    """A SQLite file with a finished Rocketball match (moves, results, ratings), an open match
    with its timer, a Volleyball league and a meta value."""
    db = await open_database(path)
    await db.migrate()
    finished = await games.create_game(
        db, game="rocketball", guild_id=BIG_ID, channel_id=BIG_ID + 1, players=[7, 8], state="{}"
    )
    stored = await games.load_game(db, finished)
    assert stored is not None
    stored = await games.save_move(
        db, stored, state='{"n": 1}', actor_id=7, action="roll", events=["d4 = 3", "it's 'quoted'"]
    )

    async def results(conn):
        await rocketball.record_results(
            conn,
            finished,
            [
                rocketball.PlayerResult(7, 8, "win", 2, 1, False, "score"),
                rocketball.PlayerResult(8, 7, "loss", 1, 2, False, "score"),
            ],
        )
        await ratings.record_duel(
            conn,
            game="rocketball",
            guild_id=BIG_ID,
            game_id=finished,
            players=(7, 8),
            results=("win", "loss"),
        )

    await games.save_move(
        db,
        stored,
        state='{"n": 2}',
        actor_id=8,
        action="aim",
        events=[],
        status="finished",
        also=results,
    )
    open_game = await games.create_game(
        db,
        game="rocketball",
        guild_id=BIG_ID,
        channel_id=5,
        players=[7, 9],
        state="{}",
        pair_key="7:9",
    )
    remind = timers.TimerSpec("match_remind", 1_790_000_000.25, {"game_id": open_game})
    await games.set_timers(db, open_game, [remind])
    await leagues.create_league(
        db,
        guild_id=BIG_ID,
        name="Galaxy",
        channel_id=6,
        ping_role_id=None,
        admin_role_id=None,
        created_by=7,
        settings={"seats": 8},
        deadline_rule={"every_hours": 24},
        remind_minutes=60,
        state="{}",
        anchor=1_790_000_000.0,
    )
    await meta.set_value(db, "command_tree_hash:global", "abc")
    await db.close()


async def test_an_installation_is_copied_whole_and_new_rows_continue_after_it(
    tmp_path, postgres_url
):
    sqlite_file = tmp_path / "ballcourt.db"
    await an_installation(sqlite_file)
    out = io.StringIO()
    assert await copy_installation(sqlite_file, postgres_url, out=out)
    report = out.getvalue()
    assert "games: 2 rows, equal" in report and "game_moves: 2 rows, equal" in report
    assert "every table is equal" in report

    db = await open_database(postgres_url)
    assert db.backend == "postgres"
    stored = await games.load_game(db, 1)
    assert (stored.guild_id, stored.status, stored.players) == (BIG_ID, "finished", (7, 8))
    assert [m[3] for m in await games.list_moves(db, 1)] == [["d4 = 3", "it's 'quoted'"], []]
    assert (await rocketball.player_stats(db, 7)).wins == 1
    assert [t.due_at for t in await timers.timers_for_game(db, 2)] == [1_790_000_000.25]
    assert (await leagues.league_named(db, BIG_ID, "galaxy")).anchor == 1_790_000_000.0
    # auto-numbered ids go on after the copied ones
    assert (
        await games.create_game(
            db, game="rocketball", guild_id=1, channel_id=2, players=[], state="{}"
        )
        == 3
    )
    # the open match still holds its pair: a second one is refused, as before the move
    with pytest.raises(games.DuplicateGameError):
        await games.create_game(
            db,
            game="rocketball",
            guild_id=BIG_ID,
            channel_id=5,
            players=[9, 7],
            state="{}",
            pair_key="7:9",
        )
    await db.close()


async def test_a_difference_after_the_copy_is_found_and_named(tmp_path, postgres_url):
    sqlite_file = tmp_path / "ballcourt.db"
    await an_installation(sqlite_file)
    assert await copy_installation(sqlite_file, postgres_url, out=io.StringIO())
    source = await SqliteDatabase.connect(sqlite_file)
    target = await PostgresDatabase.connect(postgres_url)
    async with target.transaction() as conn:
        await conn.execute("UPDATE game_moves SET events = '[]' WHERE version = 1")
        await conn.execute("DELETE FROM ratings WHERE user_id = 8")
    by_table = {result.table: result for result in await compare(source, target)}
    moves = by_table["game_moves"]
    assert not moves.equal and moves.difference is not None
    assert "d4 = 3" in moves.difference
    # both players in the match's server and across servers: four rows, two of them user 8's
    assert (by_table["ratings"].source_rows, by_table["ratings"].target_rows) == (4, 2)
    assert by_table["games"].equal and by_table["timers"].equal
    await source.close()
    await target.close()


def test_the_command_refuses_a_database_that_holds_data(tmp_path, postgres_url):
    import asyncio

    sqlite_file = tmp_path / "ballcourt.db"
    asyncio.run(an_installation(sqlite_file))
    command = [sys.executable, "-m", "db.copy", str(sqlite_file), postgres_url]
    first = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert first.returncode == 0, first.stderr
    assert "every table is equal in both databases" in first.stdout
    again = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert again.returncode == 2
    assert "already holds data" in again.stderr
