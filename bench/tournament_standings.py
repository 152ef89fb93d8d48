"""Tournament standings speed (a benchmark, not a test): `python bench/tournament_standings.py`.

The standings with their tie-breaks (rules/tournament/standings.py: score, Buchholz,
Sonneborn-Berger, head to head, rating), as the tournament card shows them after every result,
for a tournament of 100,000 rated games: by default 2,000 players (ratings 1000-2400, seeded)
over 100 rounds, each round's pairs drawn at random and each result drawn from a seeded Elo
expectation, a draw one game in ten. Measured against the goal (issue's figure: 20 ms), the
median and the slowest of --repeat runs (CPU time of the process, its database thread
included: time.process_time; the machine's load average is printed beside):
- recounted: the standings counted from every game (what the card did before the totals);
- read, whole list: db/tournaments.py `standings`: the players' running totals, stored with
  each result, ranked, and the meetings among the tied read for head to head;
- read, the card's first 20 places (and the podium's 3): `standings(top=...)`, what the card,
  its image and the podium read: ranked among the players whose score reaches the cut's,
  found on the index by score (migration 029);
- one result stored: what keeping the totals costs the transaction that stores a result late
  in the tournament (both players' earlier opponents' totals move).
The leaderboards at 100,000 rated games are bench/leaderboard.py's.
Each read on SQLite and on PostgreSQL (a throw-away server of its own, as the test suite starts
it: tests/support/postgres_server.py; --postgres-url URL: that one instead; --sqlite-only: none).
Options: --players N, --rounds N, --repeat N, --seed N.
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
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.figures import own_postgres
from db import tournaments as store
from db.connect import open_database
from rules.tournament import Entrant, Game, standings

GOAL_MS = 20.0


def expected(rating: float, other: float) -> float:
    """The chance that `rating` beats `other` (a 400-point logistic curve): the simulated
    results, not a rating of the bot's."""
    return 1 / (1 + 10 ** ((other - rating) / 400))


def tournament(players: int, rounds: int, seed: int) -> tuple[list[Entrant], list[Game]]:
    rng = random.Random(seed)
    entrants = [Entrant(f"p{n}", rng.uniform(1000, 2400)) for n in range(players)]
    rating = {entrant.id: entrant.rating for entrant in entrants}
    games = []
    for round_number in range(1, rounds + 1):
        order = [entrant.id for entrant in entrants]
        rng.shuffle(order)
        for first, second in zip(order[::2], order[1::2], strict=False):
            draw = rng.random()
            if draw < 0.1:
                points = (0.5, 0.5)
            elif draw < 0.1 + 0.9 * expected(rating[first], rating[second]):
                points = (1.0, 0.0)
            else:
                points = (0.0, 1.0)
            games.append(Game(round_number, (first, second), points))
    return entrants, games


def report(name: str, times: list[float], *, goal: bool = True) -> None:
    """A line of figures, compared with the goal (`goal`: it has one), and the machine's load
    average when it was measured."""
    median, worst = statistics.median(times), max(times)
    verdict = (
        f" (goal: under {GOAL_MS:.0f} ms): " + ("met" if worst < GOAL_MS else "NOT met")
        if goal
        else " (a cost, no goal)"
    )
    load = os.getloadavg()[0]
    print(f"{name:<48} median {median:6.1f} ms, slowest {worst:6.1f} ms{verdict}, load {load:.1f}")


async def timed(call: Callable[[], Awaitable[object]], repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        await call()
        times.append((time.process_time() - start) * 1000)
    return times


async def stored(
    target: Path | str, entrants: list[Entrant], games: list[Game], rounds: int, repeat: int
) -> None:
    """The tournament stored as the bot stores it in `target` (a SQLite file or a PostgreSQL
    URL; its totals counted once, as `recount` does for a tournament from before them), then
    its standings read, and one more result stored."""
    db = await open_database(target)
    backend = "SQLite" if isinstance(target, Path) else "PostgreSQL"
    await db.migrate()
    user = {entrant.id: 1000 + n for n, entrant in enumerate(entrants)}
    tournament_id = await store.create(
        db,
        guild_id=1,
        channel_id=2,
        game="rocketball",
        format="swiss",
        rounds=rounds + 1,
        round_minutes=60,
        rated=True,
        cap=len(entrants),
        signup_until=0.0,
        created_by=3,
        close_timer="bench_close",
    )
    fill = 600.0  # seconds a statement of the fill may take (100,000 rows at once)
    async with db.transaction(timeout=fill) as conn:
        await conn.executemany(
            "INSERT INTO tournament_entrants (tournament_id, user_id, rating, joined_round)"
            " VALUES (?, ?, ?, 1)",
            [(tournament_id, user[e.id], e.rating) for e in entrants],
        )
        await conn.executemany(
            "INSERT INTO tournament_games (tournament_id, round, board, seats, points, played)"
            " VALUES (?, ?, ?, ?, ?, 1)",
            [
                (
                    tournament_id,
                    game.round,
                    board,
                    json.dumps([user[seat] for seat in game.seats]),
                    json.dumps(list(game.points or ())),
                )
                for board, game in enumerate(games)
            ],
        )
        await conn.execute(
            "UPDATE tournaments SET status = 'running', round = ? WHERE id = ?",
            (rounds + 1, tournament_id),
        )
    tournament = await store.load(db, tournament_id)
    assert tournament is not None
    started = time.perf_counter()
    async with db.transaction(timeout=fill) as conn:
        await store.recount(conn, tournament)
    print(f"stored and counted {len(games):,} games in {time.perf_counter() - started:.1f} s")
    tournament = await store.load(db, tournament_id)
    assert tournament is not None
    named = entrants_by_user(entrants, user)  # the card reads them for its own lines too
    order = await store.standings(db, tournament, named)
    assert len(order) == len(entrants)
    for top in (20, 3):
        assert await store.standings(db, tournament, named, top=top) == order[:top]
    report(
        f"read, whole list ({backend})",
        await timed(lambda: store.standings(db, tournament, named), repeat),
    )
    for top, what in ((20, "the card's first 20"), (3, "the podium's 3")):
        report(
            f"read, {what} ({backend})",
            await timed(lambda top=top: store.standings(db, tournament, named, top=top), repeat),
        )
    # one more round's games, their results stored one by one
    pairs = list(user.values())
    random.Random(1).shuffle(pairs)
    async with db.transaction() as conn:
        for board, (first, second) in enumerate(zip(pairs[::2], pairs[1::2], strict=False)):
            await conn.execute(
                "INSERT INTO tournament_games (tournament_id, round, board, seats)"
                " VALUES (?, ?, ?, ?)",
                (tournament_id, rounds + 1, board, json.dumps([first, second])),
            )
    rows = await db.fetch_all(
        "SELECT id FROM tournament_games WHERE tournament_id = ? AND points IS NULL",
        (tournament_id,),
    )
    waiting = [row["id"] for row in rows]

    async def one_result() -> None:
        async with db.transaction() as conn:
            await store.decide(conn, waiting.pop(), (1.0, 0.0), played=True)

    report(f"one result stored ({backend})", await timed(one_result, repeat), goal=False)
    await db.close()


def entrants_by_user(entrants: list[Entrant], user: dict[str, int]) -> list[Entrant]:
    """The entrants as the bot names them (by their user ids)."""
    return [Entrant(str(user[e.id]), e.rating) for e in entrants]


def main() -> None:
    parser = argparse.ArgumentParser(description="Tournament standings speed.")
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--postgres-url")
    parser.add_argument("--sqlite-only", action="store_true")
    options = parser.parse_args()
    entrants, games = tournament(options.players, options.rounds, options.seed)
    times = []
    for _ in range(min(3, options.repeat)):  # seconds each
        start = time.process_time()
        order = standings(entrants, games, options.rounds)
        times.append((time.process_time() - start) * 1000)
    assert len(order) == options.players
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    print(f"standings of {len(entrants)} players, {len(games):,} games (load average {load}):")
    report("recounted from every game (before)", times)
    folder = Path(tempfile.mkdtemp(prefix="ballcourt-standings-bench-"))
    asyncio.run(stored(folder / "bench.db", entrants, games, options.rounds, options.repeat))
    if options.sqlite_only:
        return
    if options.postgres_url is not None:
        asyncio.run(stored(options.postgres_url, entrants, games, options.rounds, options.repeat))
        return
    with own_postgres() as server:
        if server is not None:
            url = server.create_database("standings")
            asyncio.run(stored(url, entrants, games, options.rounds, options.repeat))


if __name__ == "__main__":
    main()
