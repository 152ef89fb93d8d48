"""Costs that must not grow with history or with the number of servers: start-up repair, due
timers, /games, /live, the leaderboards and the statistics, each timed on the same database at
1x, 10x and 100x today's data, with the ratio to 1x printed.

    .venv/bin/python bench/history_costs.py [--scales 1,10,100]

"Today's data" (1x) is what an installation on a few servers holds after its first months:
1,000 finished Rocketball matches between 40 players on 5 servers (two seats, two result rows,
four rating changes each: the server's and across servers), 50 matches in play with their
reminder and forfeit timers, 10 of them on the server /live and the leaderboard are asked
about, and one heavy player who has a seat in a quarter of all finished matches and in 5 of
those in play (what `/rocketball stats` and /games are asked about). Each scale multiplies
every count (matches, players, servers, matches in play), so the same questions are asked of a
database 10 and 100 times larger (100x: 100,000 finished matches, bench/database.py's size);
SQLite, as the bot runs it.

Timed (median CPU time of 50 calls, milliseconds: the wall time on a shared machine is mostly
the wait for a core), each the database work of:
- start-up repair (host/recovery.py `repair`, the engine stubbed as bench/database_backends.py
  does): every match in play, so per match in play, which is what must stay flat;
- due timers: 200 due among all the others, claimed, and deleted (the dispatcher's statements);
- /games: the heavy player's open matches (db/player_games.py `open_games_of`);
- /live: the server's matches in play, counted and the first page read (db/games.py);
- the leaderboards: here and across servers (db/ratings.py `leaderboard`);
- statistics: the heavy player's `/rocketball stats` (db/rocketball.py `player_stats`), and
  beside it the sum over their result rows it replaced.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from db import games as game_store  # noqa: E402
from db import player_games, rocketball  # noqa: E402
from db import ratings as rating_store  # noqa: E402
from db import timers as timer_store  # noqa: E402
from db.connect import open_database  # noqa: E402
from db.database import SLOW_TIMEOUT, Database  # noqa: E402
from host import recovery  # noqa: E402
from host.locks import GameLocks  # noqa: E402

FINISHED, PLAYERS, SERVERS, IN_PLAY = 1_000, 40, 5, 50  # today's data (1x)
HERE = 1  # the server /live and the leaderboard are asked about
IN_PLAY_HERE = 10
HEAVY = 99  # the heavy player
HEAVY_SHARE = 4  # a seat in one finished match in four
HEAVY_IN_PLAY = 5
CALLS = 50
# What the statistics read before they were kept as totals (migration 022).
SUM_STATS = (
    "SELECT COUNT(*) AS played, COALESCE(SUM(CASE WHEN result = 'win' THEN 1 ELSE 0 END), 0)"
    " AS wins, COALESCE(SUM(goals_for), 0) AS gf, COALESCE(SUM(goals_against), 0) AS ga"
    " FROM rocketball_results WHERE user_id = ?"
)


async def grow(db: Database, rng: random.Random, scale: int, before: int) -> None:
    """Add rows until the database holds `scale` times today's data (it held `before` times)."""
    players, servers = PLAYERS * scale, SERVERS * scale
    games, seats, results, changes = [], [], [], []
    for game_id in range(FINISHED * before + 1, FINISHED * scale + 1):
        a, b = rng.sample(range(100, 100 + players), 2)
        if game_id % HEAVY_SHARE == 0:
            a = HEAVY
        guild = 1 + game_id % servers
        games.append((game_id, "rocketball", guild, 1000 + guild, 5_000_000 + game_id, "finished"))
        seats += [(game_id, 0, a), (game_id, 1, b)]
        results += [
            (game_id, a, b, "win", 2, 1, 0, "score"),
            (game_id, b, a, "loss", 1, 2, 0, "score"),
        ]
        for user, delta in ((a, 8.0), (b, -8.0)):
            changes += [("rocketball", scope, user, game_id, delta) for scope in (guild, 0)]
    new_players = range(100 + PLAYERS * before, 100 + players)
    ratings = [
        ("rocketball", scope, user, rng.gauss(1500, 200), 50, 25)
        for user in (*new_players, *([HEAVY] if before == 0 else []))
        for scope in (1 + user % servers if user != HEAVY else HERE, 0)
    ]
    open_games = []
    for number in range(IN_PLAY * before, IN_PLAY * scale):
        game_id = 10_000_000 + number
        guild = HERE if number < IN_PLAY_HERE else 2 + number % (servers - 1)
        players_of = (HEAVY if number < HEAVY_IN_PLAY else 100 + number % players, 100 + number)
        open_games.append((game_id, guild, players_of))
    async with db.transaction(timeout=SLOW_TIMEOUT) as conn:
        await conn.executemany(
            "INSERT INTO games (id, game, guild_id, channel_id, thread_id, status, state, version,"
            " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, '{}', 40, CURRENT_TIMESTAMP,"
            " CURRENT_TIMESTAMP)",
            games,
        )
        await conn.executemany(  # a finished match's seats are no longer open
            "INSERT INTO game_players (game_id, seat, user_id, is_open) VALUES (?, ?, ?, 0)",
            seats,
        )
        await conn.executemany(
            "INSERT INTO rocketball_results (game_id, user_id, opponent_id, result, goals_for,"
            " goals_against, vs_computer, how) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            results,
        )
        await conn.executemany(
            "INSERT INTO rating_changes (game, guild_id, user_id, game_id, delta)"
            " VALUES (?, ?, ?, ?, ?)",
            changes,
        )
        await conn.executemany(
            "INSERT INTO ratings (game, guild_id, user_id, rating, played, wins)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            ratings,
        )
        await rating_store.copy_everywhere(conn, "rocketball")
        await conn.executemany(
            "INSERT INTO games (id, game, guild_id, channel_id, thread_id, status, state, version,"
            " posted_version, created_at, updated_at) VALUES (?, 'rocketball', ?, ?, ?, 'active',"
            " '{}', 3, 3, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)",
            [(g, guild, 1000 + guild, 9_000_000 + g) for g, guild, _ in open_games],
        )
        await conn.executemany(
            "INSERT INTO game_players (game_id, seat, user_id) VALUES (?, ?, ?)",
            [(g, seat, user) for g, _, users in open_games for seat, user in enumerate(users)],
        )
        now = time.time()
        await conn.executemany(
            "INSERT INTO timers (event, due_at, payload, created_at, game_id)"
            " VALUES (?, ?, ?, ?, ?)",
            [
                (event, now + hours * 3600, json.dumps({"game_id": g, "version": 3}), now, g)
                for g, _, _ in open_games
                for event, hours in (("match_remind", 24), ("match_forfeit", 72))
            ],
        )
        # the totals as the bot keeps them (migration 022 counts them the same way)
        await conn.execute("DELETE FROM rocketball_totals")
        await conn.execute(
            "INSERT INTO rocketball_totals (user_id, played, wins, draws, goals_for,"
            " goals_against, vs_computer_played, vs_computer_wins)"
            " SELECT user_id, COUNT(*), SUM(CASE WHEN result = 'win' THEN 1 ELSE 0 END), 0,"
            " SUM(goals_for), SUM(goals_against), 0, 0 FROM rocketball_results GROUP BY user_id"
        )


async def median_ms(call, calls: int = CALLS) -> float:
    """The median CPU time of a call (this process's, the database thread's included): on a
    machine shared with other work the wall time mostly measures the wait for a core."""
    samples = []
    for _ in range(calls):
        started = time.process_time()
        await call()
        samples.append((time.process_time() - started) * 1000)
    return statistics.median(samples)


def repair_host(db: Database) -> Any:
    """The match core as far as the repair reads it (the engine stubbed)."""
    recovery.Match.from_json = staticmethod(lambda adapter, state: None)  # type: ignore[method-assign]
    return SimpleNamespace(
        bot=SimpleNamespace(
            db=db, timers=SimpleNamespace(wake=lambda: None), game_locks=GameLocks()
        ),
        adapters={"rocketball": object()},
        computers_to_act=lambda adapter, match: False,
        timers_for=lambda stored, match, version: [],
    )


async def due_timers(db: Database) -> None:
    """200 due timers among every match's own: written, claimed and deleted."""
    now = time.time()
    async with db.transaction() as conn:
        await conn.executemany(
            "INSERT INTO timers (event, due_at, payload, created_at) VALUES (?, ?, '{}', ?)",
            [("bench", now - 1, now - 60) for _ in range(200)],
        )
    claimed = await timer_store.claim_due(db, now=now)
    await timer_store.delete_timers(db, [timer.id for timer in claimed])


async def measure(db: Database) -> dict[str, float]:
    host = repair_host(db)
    in_play = len(await game_store.open_games(db, ("rocketball",)))
    repair = await median_ms(lambda: recovery.repair(host), calls=5)

    async def live() -> None:
        await game_store.count_in_play_in_guild(db, HERE)
        await game_store.in_play_in_guild(db, HERE, limit=10)

    return {
        "start-up repair, per match in play": repair / in_play,
        "200 due timers claimed and deleted": await median_ms(lambda: due_timers(db), calls=10),
        "/games (the heavy player)": await median_ms(lambda: player_games.open_games_of(db, HEAVY)),
        "/live (count and first page)": await median_ms(live),
        "leaderboard here": await median_ms(
            lambda: rating_store.leaderboard(db, game="rocketball", guild_id=HERE)
        ),
        "leaderboard across servers": await median_ms(
            lambda: rating_store.leaderboard(db, game="rocketball", guild_id=HERE, everywhere=True)
        ),
        "/rocketball stats (the heavy player)": await median_ms(
            lambda: rocketball.player_stats(db, HEAVY)
        ),
        "  before: the sum over their results": await median_ms(
            lambda: db.fetch_one(SUM_STATS, (HEAVY,)), calls=10
        ),
    }


async def main(scales: list[int]) -> None:
    folder = Path(tempfile.mkdtemp(prefix="ballcourt-history-"))
    db = await open_database(folder / "history.db")
    await db.migrate()
    rng = random.Random(30)
    figures: dict[int, dict[str, float]] = {}
    before = 0
    print(f"machine: {os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f} before")
    for scale in scales:
        started = time.perf_counter()
        await grow(db, rng, scale, before)
        before = scale
        size = (folder / "history.db").stat().st_size / 1024 / 1024
        print(
            f"{scale}x: {FINISHED * scale:,} finished matches, {IN_PLAY * scale:,} in play,"
            f" {SERVERS * scale:,} servers, {PLAYERS * scale:,} players ({size:,.0f} MiB;"
            f" filled in {time.perf_counter() - started:.0f} s)",
            flush=True,
        )
        figures[scale] = await measure(db)
    first = scales[0]
    print(
        f"\n{'CPU ms, median':<40}" + "".join(f"{f'{s}x':>10}" for s in scales) + "   ratio to 1x"
    )
    for name in figures[first]:
        row = [figures[s][name] for s in scales]
        ratios = ", ".join(f"{value / row[0]:.2f}" for value in row[1:])
        print(f"{name:<40}" + "".join(f"{value:10.3f}" for value in row) + f"   {ratios}")
    print(f"load average {os.getloadavg()[0]:.1f} after")
    await db.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--scales", default="1,10,100", help="multiples of today's data")
    arguments = parser.parse_args()
    asyncio.run(main(sorted(int(part) for part in arguments.scales.split(","))))
