"""The queries a move and a command make, on a database that has grown: 100,000 finished
Rocketball matches (goal: `/rocketball stats` and the record lookup under 20 ms).

    .venv/bin/python bench/database.py [--games 100000]

Measured (median and p99 over 200 calls, milliseconds): a player's statistics; their latest
match (what `/rocketball record` without an id loads); the match here (looked up on every move,
by channel and by thread); a move saved with its events and timers.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from database_backends import fill  # noqa: E402  (bench/ is on the path: the same data)

from db import games, rocketball, timers  # noqa: E402
from db.connect import open_database  # noqa: E402


async def timed(name: str, call, calls: int = 200) -> None:
    samples = []
    for index in range(calls):
        started = time.perf_counter()
        await call(index)
        samples.append((time.perf_counter() - started) * 1000)
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    print(f"{name:<46} median {statistics.median(ordered):6.2f} ms   p99 {p99:6.2f} ms")


async def main(count: int) -> None:
    folder = Path(tempfile.mkdtemp(prefix="ballcourt-db-bench-"))
    db = await open_database(folder / "bench.db")
    await db.migrate()
    players = max(10, count // 25)  # about 50 matches per player, 4,000 players at 100,000
    started = time.perf_counter()
    await fill(db, count, players)
    print(
        f"filled {count} finished matches of {players} players in {time.perf_counter() - started:.1f} s"
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

    await timed(
        "/rocketball stats (a player's statistics)",
        lambda i: rocketball.player_stats(db, 100 + i % players),
    )
    await timed(
        "/rocketball record (a player's latest match)",
        lambda i: games.latest_game_of(
            db, game="rocketball", user_id=100 + i % players, statuses=("active", "finished")
        ),
    )
    await timed(
        "the match here, by its thread (every move)",
        lambda i: games.games_here(db, game="rocketball", channel_id=8),
    )
    await timed(
        "the match here, by its channel",
        lambda i: games.games_here(db, game="rocketball", channel_id=7),
    )

    async def save(index: int) -> None:
        stored = await games.load_game(db, live)
        assert stored is not None
        spec = timers.TimerSpec("match_remind", time.time() + 3600, {"game_id": live})
        await games.save_move(
            db,
            stored,
            state=json.dumps({"n": index}),
            actor_id=100,
            action="roll",
            events=["d4 = 3"],
            timers=[spec],
        )

    await timed("a move saved with its events and timers", save)
    await db.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    asyncio.run(main(parser.parse_args().games))
