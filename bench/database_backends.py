"""The same database work on both backends: SQLite (a file) and PostgreSQL (asyncpg).

    .venv/bin/python bench/database_backends.py [--games 100000] [--postgres-url URL]

Without --postgres-url it starts a throw-away PostgreSQL server of its own (Debian's binaries,
as the test suite does: tests/support/postgres_server.py) on 127.0.0.1, with PostgreSQL's default
durability (every commit flushed to disk; SQLite runs as the bot runs it: WAL, synchronous
NORMAL). Measured per backend, median and p99 over 200 calls, milliseconds:

- a move saved with its events and timers (db.games.save_move: the versioned UPDATE, the
  move's row, the game's timers replaced, in one write transaction);
- `/rocketball stats` (db.rocketball.player_stats) on a database of 100,000 finished matches,
  about 50 per player (goal: 20 ms or less);
- a 16-team Volleyball round at its deadline, database included (bench/volleyball_discord.py's
  measure; goal: 500 ms or less), best and median of 5 leagues;
- PostgreSQL only: 1,000 moves on 100 games from two processes at once (20 in flight in each),
  each under the match's lock as the match host makes it (bot.game_locks, held across
  processes): throughput, moves refused as stale, and every move stored once;
- operations (`--operations` runs only these): 10,000 due timers claimed, fired and deleted by
  the dispatcher (host/timers.py, batch claims; goal 10 s on PostgreSQL); the statements the
  start-up repair (host/recovery.py) sends for 10, 100 and 1,000 open matches (goal: the same
  number for each); PostgreSQL only, a move's save (db.games.save_move) against the floor of
  one raw INSERT in its own transaction on one asyncpg connection (goal: 2x the floor or less).

Measured 2026-11-23 on this project's 2-core machine (load average 0.8, PostgreSQL 15 on the
same machine, every commit flushed), median / p99, and for the round best / median:

    backend      move saved with events   /rocketball stats at 100,000   16-team round
    SQLite       1.43 / 2.74 ms           0.39 / 0.59 ms                 59 / 103 ms
    PostgreSQL   2.57 / 5.19 ms           0.46 / 1.70 ms                 70 / 101 ms

and 1,000 moves on 100 games from two processes on PostgreSQL: 351 moves a second (2.8 s),
212 of them recomputed after losing a race, 0 lost, 0 doubled, every game's version equal to
its number of stored moves. With the match's lock held across processes (commit 7cdb51d, run
the same day, load average about 1.5): 333 moves a second (3.0 s), 0 refused as stale, 0 lost,
0 doubled; the other figures within noise of the table (SQLite move 1.17 / 2.61 ms, PostgreSQL
2.37 / 4.56 ms; round median 105 and 73 ms).

`--operations`, run 2026-11-25 on the same machine while other test suites ran (load average
about 10 on 2 cores, so every time is inflated): 10,000 due timers claimed, fired and deleted in
4.12 s on PostgreSQL (goal 10 s: 0.41x; 1.14 s on SQLite); before the dispatcher claimed in
batches and re-checked a batch only after a handler wrote, a read per timer made it 38.7 s. The
start-up repair sends 5 statements for 10, 100 and 1,000 open matches alike, on both backends
(before: about three per match). A move's save 22.76 ms median against the floor of one raw
INSERT in its own transaction 14.83 ms: 1.53x (goal 2x; 2.26x before BEGIN and the write lock
went in one round trip; every commit is flushed to disk, which dominates both).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.figures import own_postgres  # noqa: E402
from db import games, rocketball, timers  # noqa: E402
from db.connect import open_database  # noqa: E402
from db.database import SLOW_TIMEOUT, Database  # noqa: E402


async def fill(db: Database, count: int, players: int) -> None:
    """`count` finished Rocketball matches with their seats and results (the ids given, so the
    rows link up; PostgreSQL's id counter is moved past them after)."""
    rng = random.Random(1)
    rows, seats, results = [], [], []
    for game_id in range(1, count + 1):
        a, b = rng.sample(range(100, 100 + players), 2)
        rows.append((game_id, "rocketball", 1, 1000 + game_id % 50, 5000 + game_id, "finished"))
        seats += [(game_id, 0, a), (game_id, 1, b)]
        results += [
            (game_id, a, b, "win", 2, 1, 0, "score"),
            (game_id, b, a, "loss", 1, 2, 0, "score"),
        ]
    async with db.transaction(timeout=SLOW_TIMEOUT) as conn:
        await conn.executemany(
            "INSERT INTO games (id, game, guild_id, channel_id, thread_id, status, state, version,"
            " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, '{}', 40, CURRENT_TIMESTAMP,"
            " CURRENT_TIMESTAMP)",
            rows,
        )
        await conn.executemany(
            "INSERT INTO game_players (game_id, seat, user_id) VALUES (?, ?, ?)", seats
        )
        await conn.executemany(
            "INSERT INTO rocketball_results (game_id, user_id, opponent_id, result, goals_for,"
            " goals_against, vs_computer, how) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            results,
        )
        if db.backend == "postgres":
            await conn.execute(
                "SELECT setval(pg_get_serial_sequence('games', 'id'), MAX(id)) FROM games"
            )
            await conn.execute("ANALYZE")


async def timed(name: str, call, calls: int = 200) -> tuple[float, float]:
    samples = []
    for index in range(calls):
        started = time.perf_counter()
        await call(index)
        samples.append((time.perf_counter() - started) * 1000)
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    median = statistics.median(ordered)
    print(f"  {name:<48} median {median:6.2f} ms   p99 {p99:6.2f} ms")
    return median, p99


async def measure(target: Path | str, count: int) -> None:
    db = await open_database(target)
    await db.migrate()
    print(db.describe())
    players = max(10, count // 25)
    started = time.perf_counter()
    await fill(db, count, players)
    print(
        f"  filled {count} finished matches of {players} players in {time.perf_counter() - started:.1f} s"
    )
    live = await games.create_game(
        db,
        game="rocketball",
        guild_id=1,
        channel_id=7,
        players=[100, 101],
        state="{}",
        status="active",
        thread_id=8,
    )

    async def save(index: int) -> None:
        stored = await games.load_game(db, live)
        assert stored is not None
        spec = timers.TimerSpec("match_remind", time.time() + 3600, {"game_id": live})
        await games.save_move(
            db,
            stored,
            state=json.dumps({"n": index, "board": "x" * 2000}),
            actor_id=100,
            action="roll",
            events=["d4 = 3", "the ball runs from d6 to d2", "South scores"],
            timers=[spec],
        )

    await timed("a move saved with its events and timers", save)
    await timed(
        f"/rocketball stats at {count:,} finished matches",
        lambda i: rocketball.player_stats(db, 100 + i % players),
    )
    await volleyball_round(db)
    await db.close()


async def volleyball_round(db: Database, teams: int = 16, repeats: int = 5) -> None:
    """A 16-team Volleyball round at its deadline, database included, as
    bench/volleyball_discord.py measures it on SQLite (goal: 500 ms or less)."""
    from types import SimpleNamespace

    from bench.volleyball_discord import NoTimers, league_with_orders
    from cogs.volleyball.league import Leagues
    from host.locks import GameLocks

    # the bot, as far as the league service reads it
    bot: Any = SimpleNamespace(db=db, timers=NoTimers(), game_locks=GameLocks())
    leagues = Leagues(bot)
    rounds = []
    for seed in range(repeats):
        league_id = await league_with_orders(db, teams, 100 + seed)
        started = time.perf_counter()
        assert await leagues.host.advance(league_id, expected=(1, 1), send=False)
        rounds.append((time.perf_counter() - started) * 1000)
    print(
        f"  {teams}-team Volleyball round, database included          best {min(rounds):6.0f} ms"
        f"   median {statistics.median(rounds):6.0f} ms"
    )


async def worker(target: str, name: str, moves: int, games_count: int, seed: int) -> None:
    """One of the processes of the concurrent-moves run: `moves` moves on random games, 20 at a
    time, each as the match host makes one: the match's lock (bot.game_locks, which holds across
    processes on PostgreSQL), load, save the next version. A move refused as stale (which the
    lock should make impossible) is counted and recomputed."""
    from host.locks import GameLocks

    db = await open_database(target)
    locks = GameLocks()
    locks.database = db
    rng = random.Random(seed)
    stale = 0

    async def move(index: int) -> None:
        nonlocal stale
        game_id = rng.randrange(games_count) + 1
        while True:
            async with locks(game_id):
                stored = await games.load_game(db, game_id)
                assert stored is not None
                try:
                    await games.save_move(
                        db,
                        stored,
                        state=json.dumps({"last": f"{name}-{index}"}),
                        actor_id=1,
                        action=f"{name}-{index}",
                        events=["moved"],
                    )
                    return
                except games.StaleGameError:
                    stale += 1

    pending = list(range(moves))
    while pending:
        batch, pending = pending[:20], pending[20:]
        await asyncio.gather(*(move(index) for index in batch))
    await db.close()
    print(stale)


async def concurrent_moves(target: Path | str, moves: int = 1000, games_count: int = 100) -> None:
    """`moves` moves on `games_count` games from two processes at once: throughput, and that
    every move is stored exactly once (versions 1..n per game, each move's action once).
    PostgreSQL only: several processes need it (SQLite's file lock lets one process starve the
    other past its busy timeout: "database is locked")."""
    db = await open_database(target)
    await db.migrate()
    for _ in range(games_count):
        await games.create_game(
            db, game="bench", guild_id=1, channel_id=2, players=[1], state="{}", status="active"
        )
    started = time.perf_counter()
    workers = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            __file__,
            "--worker",
            str(target),
            f"p{n}",
            str(moves // 2),
            str(games_count),
            str(n),
            stdout=asyncio.subprocess.PIPE,
        )
        for n in range(2)
    ]
    outputs = [await w.communicate() for w in workers]
    elapsed = time.perf_counter() - started
    if any(w.returncode != 0 for w in workers):
        raise SystemExit("a worker process failed (its error is above)")
    stale = sum(int(out.decode().split()[-1]) for out, _ in outputs)
    rows = await db.fetch_all(
        "SELECT game_id, version, action FROM game_moves ORDER BY game_id, version"
    )
    versions = await db.fetch_all("SELECT id, version FROM games WHERE game = 'bench'")
    actions = [row["action"] for row in rows]
    lost = moves - len(set(actions))
    doubled = len(actions) - len(set(actions))
    gaps = sum(
        1 for row in versions if row["version"] != sum(1 for r in rows if r["game_id"] == row["id"])
    )
    print(
        f"  {moves} concurrent moves on {games_count} games, 2 processes: {moves / elapsed:6.0f}"
        f" moves/s ({elapsed:.1f} s), {stale} recomputed after a stale save;"
        f" lost {lost}, doubled {doubled}, games whose version is not their move count {gaps}"
    )
    await db.close()


async def due_timers(target: Path | str, count: int = 10_000) -> None:
    """`count` timers due at once, claimed in batches, fired (a handler that does nothing) and
    deleted: seconds until the table is empty."""
    from host.timers import TimerService

    db = await open_database(target)
    await db.migrate()
    now = time.time()
    async with db.transaction(timeout=SLOW_TIMEOUT) as conn:
        await conn.executemany(
            "INSERT INTO timers (event, due_at, payload, created_at) VALUES (?, ?, ?, ?)",
            [("bench", now - 1 + n / count, "{}", now) for n in range(count)],
        )
    fired = 0

    async def handler(timer) -> None:
        nonlocal fired
        fired += 1

    service = TimerService(db)
    service.register("bench", handler)
    started = time.perf_counter()
    service.start()
    while fired < count or await db.fetch_one("SELECT 1 FROM timers LIMIT 1") is not None:
        await asyncio.sleep(0.05)
    elapsed = time.perf_counter() - started
    await service.stop()
    print(
        f"  {count} due timers claimed, fired and deleted in {elapsed:.2f} s"
        f" (goal 10 s: {elapsed / 10:.2f}x of it; {count / elapsed:,.0f} a second,"
        f" claims of {timers.CLAIM_BATCH})"
    )
    await db.close()


async def repair_statements(target: Path | str, sizes: tuple[int, ...] = (10, 100, 1000)) -> None:
    """The statements start-up repair sends for `sizes` open matches, half of them without
    their timers (written again) - the engine and the timers' rules stubbed."""
    from types import SimpleNamespace

    from host import recovery
    from host.locks import GameLocks

    db = await open_database(target)
    await db.migrate()
    # The engine stubbed out of the host's repair: replacing a classmethod is what the type
    # checker refuses, and what a stub is for.
    recovery.Match.from_json = staticmethod(lambda adapter, state: None)  # type: ignore[method-assign]
    counted = {"statements": 0}
    for name in ("fetch_one", "fetch_all"):
        original = getattr(db, name)

        async def counting(*args, original=original, **kwargs):
            counted["statements"] += 1
            return await original(*args, **kwargs)

        setattr(db, name, counting)
    real_transaction = db.transaction

    def transaction(*args, **kwargs):
        counted["statements"] += 2  # BEGIN (with its lock), COMMIT
        return real_transaction(*args, **kwargs)

    db.transaction = transaction
    host: Any = SimpleNamespace(  # the match core, as far as the repair reads it
        bot=SimpleNamespace(
            db=db, timers=SimpleNamespace(wake=lambda: None), game_locks=GameLocks()
        ),
        adapters={"rocketball": object()},
        computers_to_act=lambda adapter, match: False,
        timers_for=lambda stored, match, version: [
            timers.TimerSpec("match_remind", time.time() + 3600, {"game_id": stored.id})
        ],
    )
    made = 0
    figures = []
    for size in sizes:
        async with real_transaction(timeout=SLOW_TIMEOUT) as conn:
            for n in range(made, size):
                cursor = await conn.execute(
                    "INSERT INTO games (game, guild_id, channel_id, status, state, version,"
                    " created_at, updated_at) VALUES ('rocketball', 1, ?, 'active', '{}', 0,"
                    " CURRENT_TIMESTAMP, CURRENT_TIMESTAMP) RETURNING id",
                    (n,),
                )
                game_id = (await cursor.fetchone())["id"]
                await conn.execute(
                    "INSERT INTO game_players (game_id, seat, user_id) VALUES (?, 0, 1), (?, 1, 2)",
                    (game_id, game_id),
                )
                if n % 2:
                    await conn.execute(
                        "INSERT INTO timers (event, due_at, payload, created_at, game_id)"
                        " VALUES ('match_remind', ?, '{}', ?, ?)",
                        (time.time() + 3600, time.time(), game_id),
                    )
        made = size
        counted["statements"] = 0
        started = time.perf_counter()
        await recovery.repair(host)
        figures.append((size, counted["statements"], time.perf_counter() - started))
    print(
        "  start-up repair: "
        + "; ".join(f"{size} matches {n} statements ({t * 1000:.0f} ms)" for size, n, t in figures)
        + (" - constant" if len({n for _, n, _ in figures}) == 1 else " - NOT constant")
    )
    db.transaction = real_transaction
    await db.close()


async def save_against_floor(url: str) -> None:
    """A move's save against one raw INSERT in its own transaction (PostgreSQL)."""
    import asyncpg

    db = await open_database(url)
    await db.migrate()
    live = await games.create_game(
        db,
        game="rocketball",
        guild_id=1,
        channel_id=7,
        players=[100, 101],
        state="{}",
        status="active",
        thread_id=8,
    )
    state = json.dumps({"board": "x" * 2000})
    found = await games.load_game(db, live)
    assert found is not None
    stored: games.StoredGame = found

    async def save(index: int) -> None:
        nonlocal stored
        spec = timers.TimerSpec("match_remind", time.time() + 3600, {"game_id": live})
        stored = await games.save_move(
            db, stored, state=state, actor_id=100, action=f"m{index}", events=["e"], timers=[spec]
        )

    raw = await asyncpg.connect(url)
    await raw.execute("CREATE TABLE floor (id BIGSERIAL PRIMARY KEY, body TEXT)")

    async def floor(index: int) -> None:
        async with raw.transaction():
            await raw.execute("INSERT INTO floor (body) VALUES ($1)", state)

    floor_median, _ = await timed("floor: one raw INSERT in a transaction", floor)
    save_median, _ = await timed("a move saved (state, move, timers)", save)
    print(
        f"  a move's save {save_median:.2f} ms against the floor {floor_median:.2f} ms:"
        f" {save_median / floor_median:.2f}x (goal 2x or less)"
    )
    await raw.close()
    await db.close()


async def operations(postgres_url: str | None) -> None:
    folder = Path(tempfile.mkdtemp(prefix="ballcourt-operations-"))
    print(f"SQLite {folder}")
    await due_timers(folder / "timers.db")
    await repair_statements(folder / "repair.db")
    server = None
    if postgres_url is None:
        from tests.support.postgres_server import PostgresServer, find_binaries

        binaries = find_binaries()
        if binaries is None:
            print(
                "PostgreSQL: not installed here (apt-get install postgresql), or give --postgres-url"
            )
            return
        server = PostgresServer(binaries)
        server.start(durable=True)
    try:
        if server is None:
            assert postgres_url is not None  # no server of our own: the one given
            urls = [postgres_url] * 3
        else:
            urls = [server.create_database(n) for n in ("t", "r", "s")]
        print("PostgreSQL (every commit flushed)")
        await due_timers(urls[0])
        await repair_statements(urls[1])
        await save_against_floor(urls[2])
    finally:
        if server is not None:
            server.stop()


async def main(count: int, postgres_url: str | None) -> None:
    folder = Path(tempfile.mkdtemp(prefix="ballcourt-backends-"))
    await measure(folder / "bench.db", count)
    if postgres_url is not None:
        await measure(postgres_url, count)
        return
    with own_postgres(durable=True) as server:
        if server is not None:
            await measure(server.create_database("bench"), count)
            await concurrent_moves(server.create_database("moves"))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--worker"]:
        target, name, moves, games_count, seed = sys.argv[2:7]
        asyncio.run(worker(target, name, int(moves), int(games_count), int(seed)))
        sys.exit(0)
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--postgres-url", help="an empty PostgreSQL database to use instead")
    parser.add_argument("--operations", action="store_true", help="only the operations figures")
    arguments = parser.parse_args()
    if arguments.operations:
        asyncio.run(operations(arguments.postgres_url))
    else:
        asyncio.run(main(arguments.games, arguments.postgres_url))
