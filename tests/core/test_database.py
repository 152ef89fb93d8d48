"""Migrations and the repository layer: fresh database, no-op re-run, atomic failure, versioned
saves and durable timers, on both backends (a SQLite file, and PostgreSQL: the `postgres` runs
of the `database_target` parameter, tests/conftest.py)."""

import sqlite3

import pytest

from db import games, meta, timers
from db.database import (
    Database,
    IntegrityError,
    Migration,
    MigrationError,
    load_migrations,
    split_statements,
)


@pytest.fixture
async def db(database_target):
    database = await Database.open(database_target)
    await database.migrate()
    yield database
    await database.close()


async def table_exists(db, name: str) -> bool:
    if db.backend == "postgres":
        row = await db.fetch_one("SELECT to_regclass(?) IS NOT NULL AS found", (name,))
        return row["found"]
    return await db.fetch_one("SELECT 1 FROM sqlite_master WHERE name = ?", (name,)) is not None


async def test_fresh_database_gets_every_migration(database_target):
    database = await Database.open(database_target)
    applied = await database.migrate()
    assert applied == [m.name for m in load_migrations(backend=database.backend)]
    assert applied[0] == "001_core"
    assert await table_exists(database, "volleyball_reports")
    await database.close()


async def test_a_fresh_sqlite_file_has_wal_and_foreign_keys(tmp_path):
    database = await Database.open(tmp_path / "fresh.db")
    await database.migrate()
    mode = await database.fetch_one("PRAGMA journal_mode")
    assert mode[0] == "wal"
    foreign_keys = await database.fetch_one("PRAGMA foreign_keys")
    assert foreign_keys[0] == 1
    await database.close()


async def test_running_migrations_again_changes_nothing(db):
    before = await db.fetch_all("SELECT * FROM schema_migrations")
    assert await db.migrate() == []
    after = await db.fetch_all("SELECT * FROM schema_migrations")
    assert [tuple(r) for r in before] == [tuple(r) for r in after]


async def test_a_failing_migration_leaves_nothing_half_applied(db):
    broken = Migration(
        999,
        "999_broken",
        "CREATE TABLE half (id INTEGER);\nINSERT INTO half VALUES (1);\nTHIS IS NOT SQL;\n",
    )
    with pytest.raises(MigrationError, match="999_broken"):
        await db.migrate([*load_migrations(backend=db.backend), broken])
    assert not await table_exists(db, "half")
    assert 999 not in await db.applied_migrations()


def test_misnamed_migration_file_is_refused(tmp_path):
    (tmp_path / "2_bad.sql").write_text("SELECT 1;")
    with pytest.raises(MigrationError, match=r"001_name\.sql"):
        load_migrations(tmp_path)


def test_statements_split_with_semicolons_inside_strings():
    statements = split_statements("INSERT INTO t VALUES ('a;b');\n-- c\nSELECT 1;\n")
    assert statements == ["INSERT INTO t VALUES ('a;b');", "-- c\nSELECT 1;"]


async def test_meta_values_round_trip_and_overwrite(db):
    assert await meta.get_value(db, "k") is None
    await meta.set_value(db, "k", "one")
    await meta.set_value(db, "k", "two")
    assert await meta.get_value(db, "k") == "two"


async def test_a_stale_save_is_refused_and_writes_nothing(db):
    game_id = await games.create_game(
        db, game="rocketball", guild_id=1, channel_id=2, players=[10, 20], state='{"n": 0}'
    )
    loaded = await games.load_game(db, game_id)
    assert loaded.players == (10, 20) and loaded.version == 0
    saved = await games.save_move(
        db, loaded, state='{"n": 1}', actor_id=10, action="roll", events=["d4 = 3"]
    )
    assert saved.version == 1
    # A second click computed from the same old version must not apply.
    with pytest.raises(games.StaleGameError):
        await games.save_move(db, loaded, state='{"n": 99}', actor_id=10, action="roll", events=[])
    current = await games.load_game(db, game_id)
    assert current.state_json() == {"n": 1}
    assert await games.list_moves(db, game_id) == [(1, 10, "roll", ["d4 = 3"])]


async def test_find_games_by_player_channel_and_thread(db):
    a = await games.create_game(
        db, game="rocketball", guild_id=1, channel_id=2, players=[10, 20], state="{}"
    )
    await games.create_game(
        db, game="rocketball", guild_id=1, channel_id=3, players=[30, 40], state="{}"
    )
    stored = await games.load_game(db, a)
    await games.save_move(
        db, stored, state="{}", actor_id=0, action="start", events=[], status="active", thread_id=77
    )
    latest = await games.latest_game_of(db, game="rocketball", user_id=20, statuses=games.OPEN)
    assert latest is not None and latest.id == a
    assert [g.id for g in await games.games_here(db, game="rocketball", channel_id=77)] == [a]
    assert [g.id for g in await games.games_here(db, game="rocketball", channel_id=2)] == [a]
    assert (
        await games.latest_game_of(db, game="volleyball", user_id=20, statuses=games.OPEN) is None
    )
    assert (
        await games.latest_game_of(db, game="rocketball", user_id=20, statuses=("finished",))
        is None
    )


async def test_one_open_game_per_pair_per_channel_is_the_databases_rule(db):
    first = await games.create_game(
        db, game="rocketball", guild_id=1, channel_id=2, players=[1, 2], state="{}", pair_key="1:2"
    )
    with pytest.raises(games.DuplicateGameError):
        await games.create_game(
            db,
            game="rocketball",
            guild_id=1,
            channel_id=2,
            players=[2, 1],
            state="{}",
            pair_key="1:2",
        )
    elsewhere = await games.create_game(
        db, game="rocketball", guild_id=1, channel_id=3, players=[1, 2], state="{}", pair_key="1:2"
    )
    stored = await games.load_game(db, first)
    await games.save_move(
        db, stored, state="{}", actor_id=1, action="x", events=[], status="cancelled"
    )
    again = await games.create_game(
        db, game="rocketball", guild_id=1, channel_id=2, players=[1, 2], state="{}", pair_key="1:2"
    )
    assert len({first, elsewhere, again}) == 3


async def test_a_moves_timers_are_saved_with_it_and_replace_the_old_ones(db):
    game_id = await games.create_game(
        db, game="rocketball", guild_id=1, channel_id=2, players=[1, 2], state="{}"
    )
    stored = await games.load_game(db, game_id)
    remind = timers.TimerSpec("match_remind", 100.0, {"game_id": game_id, "version": 1})
    stored = await games.save_move(
        db, stored, state="{}", actor_id=1, action="a", events=[], timers=[remind]
    )
    assert [t.event for t in await timers.timers_for_game(db, game_id)] == ["match_remind"]
    with pytest.raises(games.StaleGameError):
        await games.save_move(
            db,
            await games.load_game(db, game_id),
            state="{}",
            actor_id=1,
            action="b",
            events=[],
            timers=[],
            also=_explode,
        )
    assert [t.event for t in await timers.timers_for_game(db, game_id)] == ["match_remind"]
    await games.save_move(db, stored, state="{}", actor_id=1, action="b", events=[])
    assert await timers.timers_for_game(db, game_id) == []


async def _explode(conn):
    raise games.StaleGameError("the whole move is rolled back")


async def test_load_game_checks_the_kind(db):
    game_id = await games.create_game(
        db, game="rocketball", guild_id=None, channel_id=2, players=[1], state="{}"
    )
    assert await games.load_game(db, game_id, game="volleyball") is None
    assert await games.load_game(db, 12345) is None


async def test_unknown_status_is_refused_by_the_schema(db):
    with pytest.raises(IntegrityError):
        await games.create_game(
            db, game="x", guild_id=None, channel_id=1, players=[], state="{}", status="weird"
        )
    # not mistaken for the "one open game per pair" rule, which a pair_key would bring in
    with pytest.raises(IntegrityError) as refused:
        await games.create_game(
            db,
            game="x",
            guild_id=None,
            channel_id=1,
            players=[],
            state="{}",
            status="weird",
            pair_key="1:2",
        )
    assert not isinstance(refused.value, games.DuplicateGameError)
    # code written for SQLite alone caught sqlite3's class: it still does, on either backend
    assert isinstance(refused.value, sqlite3.IntegrityError)


async def test_timers_come_out_earliest_first_and_can_be_cancelled(db):
    await timers.create_timer(db, "reminder", 200.0, {"game_id": 1}, now=0.0)
    early = await timers.create_timer(db, "reminder", 100.0, {"game_id": 2}, now=0.0)
    assert (await timers.next_timer(db)) == early
    assert await timers.delete_timers_for(db, "reminder", game_id=2) == 1
    remaining = await timers.list_timers(db)
    assert [t.payload for t in remaining] == [{"game_id": 1}]


async def test_rocketball_stats_count_wins_losses_draws_and_the_computer(db):
    from db import rocketball

    async def finish(players, results):
        game_id = await games.create_game(
            db, game="rocketball", guild_id=1, channel_id=2, players=players, state="{}"
        )
        async with db.transaction() as conn:
            await rocketball.record_results(conn, game_id, results)
            await rocketball.record_results(conn, game_id, results)  # a retry writes nothing twice

    def result(user, opponent, outcome, goals_for, goals_against, how="score"):
        return rocketball.PlayerResult(
            user, opponent, outcome, goals_for, goals_against, opponent == 0, how
        )

    await finish([7, 8], [result(7, 8, "win", 2, 1), result(8, 7, "loss", 1, 2)])
    await finish([7, 0], [result(7, 0, "loss", 0, 2), result(0, 7, "win", 2, 0)])
    await finish([7, 9], [result(7, 9, "draw", 1, 1, "collision"), result(9, 7, "draw", 1, 1)])
    stats = await rocketball.player_stats(db, 7)
    assert (stats.played, stats.wins, stats.losses, stats.draws) == (3, 1, 1, 1)
    assert (stats.goals_for, stats.goals_against) == (3, 4)
    assert (stats.vs_computer_played, stats.vs_computer_wins) == (1, 0)
    # The computer (user id 0) keeps no statistics.
    assert (await rocketball.player_stats(db, 0)).played == 0


async def test_the_game_here_lookup_uses_an_index_for_channels_and_threads(db):
    """Issue 9, defect 10: `channel_id = ? OR thread_id = ?` could use no index, so every move
    scanned all games (9.8 ms at 20,000)."""
    sql, parameters = games.game_here_query(game="rocketball", channel_id=5)
    if db.backend == "postgres":
        # an empty table is cheapest to scan: forbid scans, and a query no index serves
        # still shows one
        async with db.transaction() as conn:
            await conn.execute("SET LOCAL enable_seqscan = off")
            cursor = await conn.execute("EXPLAIN " + sql, parameters)
            details = " ".join(row[0] for row in await cursor.fetchall())
        assert "Seq Scan on games" not in details, details
        return
    plan = await db.fetch_all("EXPLAIN QUERY PLAN " + sql, parameters)
    details = " ".join(row["detail"] for row in plan)
    assert "SCAN games" not in details, details


async def test_a_read_only_database_stops_start_up_with_a_clear_message(tmp_path, monkeypatch):
    """Issue 9, defect 3: on a read-only file the bot started and failed at every write."""
    import aiosqlite

    from db import database as database_module

    path = tmp_path / "ro.db"
    sqlite3.connect(path).close()
    real_connect = aiosqlite.connect

    def read_only(target, **kwargs):  # what a read-only file gives even to root
        return real_connect(f"file:{target}?mode=ro", uri=True, **kwargs)

    monkeypatch.setattr(database_module.aiosqlite, "connect", read_only)
    with pytest.raises(database_module.DatabaseError, match=r"cannot be written.*DATABASE_PATH"):
        await Database.open(path)


async def test_discord_ids_keep_all_64_bits(db):
    """Discord ids are 64-bit snowflakes: PostgreSQL's INTEGER would refuse them."""
    guild, channel, thread, player = 2**63 - 1, 1234567890123456789, 987654321098765432, 2**62 + 7
    game_id = await games.create_game(
        db, game="rocketball", guild_id=guild, channel_id=channel, players=[player], state="{}"
    )
    stored = await games.load_game(db, game_id)
    stored = await games.save_move(
        db, stored, state="{}", actor_id=player, action="a", events=[], thread_id=thread
    )
    again = await games.load_game(db, game_id)
    assert (again.guild_id, again.channel_id, again.thread_id) == (guild, channel, thread)
    assert again.players == (player,)
    assert await games.list_moves(db, game_id) == [(1, player, "a", [])]
    assert [g.id for g in await games.games_here(db, game="rocketball", channel_id=thread)] == [
        game_id
    ]


async def test_new_rows_get_increasing_ids_and_timers_keep_fractions(db):
    first = await games.create_game(db, game="g", guild_id=1, channel_id=2, players=[], state="{}")
    second = await games.create_game(db, game="g", guild_id=1, channel_id=2, players=[], state="{}")
    assert 0 < first < second
    due = 1_790_000_000.123456  # seconds since the epoch, with microseconds
    timer = await timers.create_timer(db, "ping", due, {"n": 1}, now=due - 60)
    assert (await timers.next_timer(db)).due_at == due
    assert await timers.claim_timer(db, timer.id, now=due) is True
    assert await timers.claim_timer(db, timer.id, now=due) is False  # claimed once
    assert await timers.release_claims(db) == 0  # this process's own claim stays


async def test_a_check_then_write_in_a_transaction_is_never_interleaved(database_target):
    """One writer at a time, whichever connection (or process) it comes from: two transactions
    that each insert a row only if there is none end with one row. SQLite's BEGIN IMMEDIATE
    and PostgreSQL's write lock (db/postgres.py) both make the second wait for the first."""
    import asyncio

    first, second = await Database.open(database_target), await Database.open(database_target)
    await first.migrate()

    async def insert_if_none(db, key):
        async with db.transaction() as conn:
            cursor = await conn.execute("SELECT COUNT(*) FROM meta")
            (count,) = await cursor.fetchone()
            await asyncio.sleep(0.1)  # the other transaction would have its chance here
            if count == 0:
                await conn.execute("INSERT INTO meta (key, value) VALUES (?, 'x')", (key,))

    await asyncio.gather(insert_if_none(first, "a"), insert_if_none(second, "b"))
    assert len(await first.fetch_all("SELECT key FROM meta")) == 1
    await first.close()
    await second.close()


async def test_processes_starting_together_apply_each_migration_once(database_target):
    """Several bots starting at once on one database (PostgreSQL: under the migration advisory
    lock; SQLite: each migration re-checked inside its write transaction)."""
    import asyncio

    databases = [await Database.open(database_target) for _ in range(4)]
    applied = await asyncio.gather(*(database.migrate() for database in databases))
    names = [name for run in applied for name in run]
    assert sorted(names) == [m.name for m in load_migrations(backend=databases[0].backend)]
    rows = await databases[0].fetch_all("SELECT version FROM schema_migrations")
    assert len(rows) == len(names)
    for database in databases:
        await database.close()


async def test_a_failed_write_rolls_back_the_whole_transaction(db):
    with pytest.raises(IntegrityError):
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO meta (key, value) VALUES ('k', 'one')")
            await conn.execute("INSERT INTO meta (key, value) VALUES ('k', 'two')")
    assert await meta.get_value(db, "k") is None


async def test_start_up_repair_sees_only_the_servers_of_this_processs_shards(db):
    """Several processes (SHARD_COUNT=2): each repairs the open games and leagues of its own
    servers only, `(guild_id >> 22) % 2` as Discord routes them, so no two processes post the
    same repair. A game outside any server (a DM) is shard 0's."""
    from db import volleyball

    on_zero, on_one = (4 << 22) + 12345, (7 << 22) + 12345  # 4 % 2 = 0, 7 % 2 = 1
    ids = {}
    for name, guild in (("zero", on_zero), ("one", on_one), ("dm", None)):
        ids[name] = await games.create_game(
            db,
            game="rocketball",
            guild_id=guild,
            channel_id=1,
            players=[1],
            state="{}",
            status="active",
        )
        if guild is not None:
            await volleyball.create_league(
                db,
                guild_id=guild,
                name=f"L {name}",
                channel_id=1,
                ping_role_id=None,
                admin_role_id=None,
                created_by=1,
                settings={},
                deadline_rule={"every_hours": 24},
                remind_minutes=60,
                state="{}",
                anchor=0.0,
            )

    async def seen():
        open_ids = {g.id for g in await games.open_games(db, ("rocketball",))}
        names = {n for n, i in ids.items() if i in open_ids}
        leagues = len(await volleyball.leagues_of_status(db, ("forming",)))
        return names, leagues

    assert await seen() == ({"zero", "one", "dm"}, 2)  # unsharded: everything
    db.shards = (2, (0,))
    assert await seen() == ({"zero", "dm"}, 1)
    db.shards = (2, (1,))
    assert await seen() == ({"one"}, 1)
    db.shards = (2, (0, 1))
    assert await seen() == ({"zero", "one", "dm"}, 2)
