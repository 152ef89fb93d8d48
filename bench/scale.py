"""A cluster on one PostgreSQL: 1, 2 and 4 shard processes of the real bot, with 50, 200 and
500 Rocketball matches whose players click at the same moment, against the no-drawing floor of
the same run.

    .venv/bin/python bench/scale.py [--shards 1,2,4] [--counts 50,200,500] [--rounds 1]

One PostgreSQL server (tests/support/postgres_server.py, durable: PostgreSQL's default flushing at
every commit; pg_stat_statements loaded) holds a database per cluster. A cluster is the sharded
fake Discord (fakediscord/sharded.py) with one guild per shard and one `bot.py` process per
shard (DATABASE_URL, SHARD_COUNT, SHARD_IDS), each guild's events going to its own process, as
Discord routes them. Two clusters run side by side for each number of shards: one as shipped,
one whose round GIF is a fixed one of the usual size (bench/fixed_turn_image.py): the floor,
everything a move costs but its drawing. Their bursts alternate, so both meet the same load.

A burst: `count` matches are started and shown (not timed), spread over the guilds; then every
mover clicks "Roll the d4" at once (bench/match_card.py `rolls_at_once`) and each click is timed
until its card shows the roll. Printed per burst, drawn and floor: click -> card median and p99
over the clicks shown, and how many were refused instead (told the database did not answer in
time, or answered after Discord's 3 s); clicks handled per second; per click (refused ones
included) the bot's CPU (every shard process) and PostgreSQL's (every session, this bench's own
sampling of pg_locks every 20 ms included: a few ms a click), the statements run
(pg_stat_statements calls: asyncpg's reset of a connection returned to its pool counts as four),
their execution time (waits for advisory locks apart) and the transactions committed; the most
connections the cluster held at once, the most advisory locks held and waited for (the match
holds and the one write lock every transaction takes: db/postgres.py). The fake's OpenAPI check
and Discord's rate limits are off (bench/busy_matches.py says why); the fake runs in this
process and shares the machine's cores with the cluster.

What this machine allows is printed before the figures: a count that cannot be started within
`--start-minutes` is left out with the reason.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from figures import cpu_seconds, percentile  # noqa: E402
from match_card import Bench, rolls_at_once  # noqa: E402

from fakediscord.botproc import BotProcess  # noqa: E402
from fakediscord.driver import DiscordDriver  # noqa: E402
from fakediscord.model import Channel  # noqa: E402
from fakediscord.sharded import ShardedFakeDiscord  # noqa: E402
from tests.support.postgres_reader import PostgresReader  # noqa: E402
from tests.support.postgres_server import PostgresServer, find_binaries  # noqa: E402


@dataclass
class Burst:
    """What one burst of `count` clicks measured."""

    count: int
    waits: list[float]
    refused: list[float]  # clicks answered "nothing was changed": the database did not answer
    bot_cpu: float  # seconds, every shard process
    pg_cpu: float  # seconds, every PostgreSQL process
    statements: int
    statement_ms: float  # executing, waits for advisory locks left out
    lock_ms: float  # waiting for (and taking) advisory locks
    commits: int
    connections: int  # most held at once by the cluster's database
    advisory_held: int
    advisory_waiting: int
    seconds: float  # first click to last card

    def per_move(self, figure: float) -> float:
        return figure / self.count


@dataclass
class Cluster:
    postgres: PostgresServer
    shards: int
    name: str
    extensions: tuple[str, ...] = ()
    bursts: list[Burst] = field(default_factory=list)
    busiest: list[tuple[float, float, str]] = field(default_factory=list)

    def start(self) -> None:
        self.url = self.postgres.create_database(self.name)
        self.database = self.url.rsplit("/", 1)[1]
        fake = ShardedFakeDiscord(
            shard_count=self.shards, first_guild_shard=0, spec_check=False, rate_limits=False
        )
        self.fake = fake
        self.channels: list[Channel] = [fake.add_channel("general")]
        for shard in range(1, self.shards):
            guild = fake.add_guild(f"Court {shard}", shard=(shard, self.shards))
            self.channels.append(fake.add_channel("general", guild=guild))
        fake.start()
        folder = Path(tempfile.mkdtemp(prefix=f"ballcourt-scale-{self.name}-"))
        self.bots = [
            BotProcess(
                fake,
                database_path=folder / "unused.db",
                log_path=folder / f"shard-{shard}.log",
                extra_extensions=self.extensions,
                extra_env={
                    "GAME_SEED": "1",
                    "LOG_LEVEL": "WARNING",
                    "RENDER_PROCESSES": "0",
                    "DATABASE_URL": self.url,
                    "SHARD_COUNT": str(self.shards),
                    "SHARD_IDS": str(shard),
                },
            )
            for shard in range(self.shards)
        ]
        for bot in self.bots:  # the caller stops the cluster if one fails to start
            bot.start()
        self.bench = Bench(DiscordDriver(fake, self.channels[0]), self.bots[0], fake)

    def stop(self) -> list[str]:
        errors = []
        if not hasattr(self, "fake"):  # never started
            return errors
        for bot in getattr(self, "bots", []):
            errors += bot.new_errors()
            bot.stop()
        self.fake.stop()
        return errors

    async def burst(self, count: int, stats: Statistics) -> None:
        matches = await self.bench.start_matches(count, self.channels)
        pids = [bot.process.pid for bot in self.bots if bot.process is not None]
        before = stats.counters(self.database)
        bot_before, pg_before = cpu_seconds(*pids), cpu_seconds(*stats.server_pids())
        sampler = stats.sample(self.database)
        started = time.monotonic()
        refused: list[float] = []
        try:
            waits = await rolls_at_once(self.fake, matches, timeout=120, refused=refused)
        finally:
            peaks = sampler.stop()
        seconds = time.monotonic() - started
        bot_cpu, pg_cpu = cpu_seconds(*pids) - bot_before, cpu_seconds(*stats.server_pids())
        after = stats.counters(self.database)
        self.busiest = after.busiest(before, count)
        self.bursts.append(
            Burst(
                count=count,
                waits=waits,
                refused=refused,
                bot_cpu=bot_cpu,
                pg_cpu=pg_cpu - pg_before,
                statements=after.calls - before.calls,
                statement_ms=after.ms - before.ms,
                lock_ms=after.lock_ms - before.lock_ms,
                commits=after.commits - before.commits,
                connections=peaks[0],
                advisory_held=peaks[1],
                advisory_waiting=peaks[2],
                seconds=seconds,
            )
        )


class Sampler:
    """Samples the server every 20 ms in a thread of its own until stopped: connections, advisory
    locks held and waited for; keeps the most of each."""

    def __init__(self, query: Any, database: str) -> None:
        self.query, self.database = query, database
        self.peaks = [0, 0, 0]
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._done.wait(0.02):
            ((connections, held, waiting),) = self.query(
                "SELECT (SELECT count(*) FROM pg_stat_activity WHERE datname = ?),"
                " (SELECT count(*) FROM pg_locks l JOIN pg_database d ON d.oid = l.database"
                "   WHERE l.locktype = 'advisory' AND l.granted AND d.datname = ?),"
                " (SELECT count(*) FROM pg_locks l JOIN pg_database d ON d.oid = l.database"
                "   WHERE l.locktype = 'advisory' AND NOT l.granted AND d.datname = ?)",
                self.database,
                self.database,
                self.database,
            )
            self.peaks = [
                max(a, b) for a, b in zip(self.peaks, (connections, held, waiting), strict=True)
            ]

    def stop(self) -> list[int]:
        self._done.set()
        self._thread.join()
        return self.peaks


@dataclass
class Counters:
    statements: dict[str, tuple[int, float]]  # query text -> (calls, execution ms)
    commits: int

    @property
    def calls(self) -> int:
        return sum(calls for calls, _ in self.statements.values())

    @property
    def lock_ms(self) -> float:
        return sum(ms for query, (_, ms) in self.statements.items() if LOCKING in query)

    @property
    def ms(self) -> float:
        return sum(ms for query, (_, ms) in self.statements.items() if LOCKING not in query)

    def busiest(self, before: Counters, moves: int) -> list[tuple[float, float, str]]:
        """Per move since `before`, the statements run most: (calls, ms, query)."""
        rows = []
        for query, (calls, ms) in self.statements.items():
            was_calls, was_ms = before.statements.get(query, (0, 0.0))
            if calls > was_calls:
                rows.append(((calls - was_calls) / moves, (ms - was_ms) / moves, query))
        return sorted(rows, reverse=True)


LOCKING = "pg_advisory"  # statements that take an advisory lock (and wait for it)


class Statistics:
    """The server's own counters, read through a connection of the bench's (not counted: the
    sampler's session is its own database's, `postgres`)."""

    def __init__(self, postgres: PostgresServer) -> None:
        self.postgres = postgres
        subprocess.run(
            [
                str(postgres.binaries / "psql"),
                "-X",
                "-q",
                "-d",
                postgres.url(),
                "-c",
                "CREATE EXTENSION IF NOT EXISTS pg_stat_statements",
            ],
            check=True,
            capture_output=True,
            timeout=60,
        )
        reader = PostgresReader(postgres.url())

        def query(sql: str, *parameters: Any) -> list[Any]:
            with reader.connect(None) as conn:
                return conn.execute(sql, parameters).fetchall()

        self.query = query

    def server_pids(self) -> list[int]:
        return self.postgres.processes()[:1]  # the postmaster: cpu_seconds adds its children

    def counters(self, database: str) -> Counters:
        """The database's statements so far (pg_stat_statements) and transactions committed."""
        rows = self.query(
            "SELECT s.query, s.calls, s.total_exec_time"
            " FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid"
            " WHERE d.datname = ?",
            database,
        )
        self.query("SELECT pg_stat_clear_snapshot()")
        ((commits,),) = self.query(
            "SELECT xact_commit FROM pg_stat_database WHERE datname = ?", database
        )
        return Counters({query: (int(calls), float(ms)) for query, calls, ms in rows}, commits)

    def sample(self, database: str) -> Sampler:
        return Sampler(self.query, database)


def report(shards: int, count: int, drawn: list[Burst], floor: list[Burst]) -> None:
    waits = [w for b in drawn for w in b.waits]
    floor_waits = [w for b in floor for w in b.waits]
    moves = sum(b.count for b in drawn)
    floor_moves = sum(b.count for b in floor)

    def per_move(bursts: list[Burst], name: str) -> float:
        return sum(getattr(b, name) for b in bursts) / sum(b.count for b in bursts)

    refused = sum(len(b.refused) for b in drawn)
    floor_refused = sum(len(b.refused) for b in floor)
    if refused or floor_refused:
        print(
            f"{shards} shard(s) {count:>4} at once  REFUSED: {refused} of {moves} clicks "
            f"(floor {floor_refused} of {floor_moves}) told the database did not answer in time"
        )
    if not waits or not floor_waits:
        return
    median, p99 = percentile(waits, 0.5), percentile(waits, 0.99)
    floor_median, floor_p99 = percentile(floor_waits, 0.5), percentile(floor_waits, 0.99)
    print(
        f"{shards} shard(s) {count:>4} at once  click->card median {median:7.1f} ms "
        f"(floor {floor_median:7.1f}, x{median / floor_median:4.1f})  p99 {p99:7.1f} ms "
        f"(floor {floor_p99:7.1f})  clicks/s {moves / sum(b.seconds for b in drawn):6.1f} "
        f"(floor {floor_moves / sum(b.seconds for b in floor):6.1f})"
    )
    print(
        f"{'':>19}CPU per click: bot {per_move(drawn, 'bot_cpu') * 1000:5.1f} ms "
        f"(floor {per_move(floor, 'bot_cpu') * 1000:5.1f}), PostgreSQL "
        f"{per_move(drawn, 'pg_cpu') * 1000:5.1f} ms (floor {per_move(floor, 'pg_cpu') * 1000:5.1f})"
    )
    print(
        f"{'':>19}database per click: {per_move(drawn, 'statements'):5.1f} statements, "
        f"{per_move(drawn, 'statement_ms'):5.2f} ms executing, "
        f"{per_move(drawn, 'commits'):4.1f} transactions; at once at most: "
        f"{max(b.connections for b in drawn)} connections, "
        f"{max(b.advisory_held for b in drawn)} advisory locks held, "
        f"{max(b.advisory_waiting for b in drawn)} waited for"
    )


async def run(drawn: Cluster, floor: Cluster, counts: list[int], rounds: int, stats: Statistics):
    for _ in range(rounds):
        for count in counts:
            for cluster in (drawn, floor):
                await cluster.burst(count, stats)
    for count in counts:
        report(
            drawn.shards,
            count,
            [b for b in drawn.bursts if b.count == count],
            [b for b in floor.bursts if b.count == count],
        )


def what_this_machine_allows(cluster: Cluster, counts: list[int], minutes: float) -> list[int]:
    """The counts whose matches this machine starts within `minutes` a burst, timed on 10; the
    others are printed with the reason."""
    started = time.monotonic()
    asyncio.run(cluster.bench.start_matches(10, cluster.channels))
    per_match = (time.monotonic() - started) / 10
    allowed = [c for c in counts if c * per_match <= minutes * 60]
    for left_out in sorted(set(counts) - set(allowed)):
        print(
            f"left out: {left_out} at once: starting them takes about {left_out * per_match:.0f}"
            f" s here ({per_match * 1000:.0f} ms a match on {os.cpu_count()} shared cores), "
            f"over --start-minutes {minutes:g}"
        )
    return allowed


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--shards", default="1,2,4", help="shard processes per cluster")
    parser.add_argument("--counts", default="50,200,500", help="matches clicking at once")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument(
        "--start-minutes",
        type=float,
        default=1.0,
        help="the most this machine may spend starting one burst's matches: a count it "
        "cannot start in that time (measured on a first burst of 10) is left out",
    )
    parser.add_argument(
        "--statements", type=int, default=0, help="print the N statements run most per move"
    )
    args = parser.parse_args()
    shard_counts = [int(part) for part in args.shards.split(",")]
    counts = [int(part) for part in args.counts.split(",")]
    binaries = find_binaries()
    if binaries is None:
        raise SystemExit("no PostgreSQL installed (initdb, pg_ctl)")
    load_before = os.getloadavg()[0]
    postgres = PostgresServer(binaries)
    postgres.start(
        durable=True,
        settings=("shared_preload_libraries=pg_stat_statements", "max_connections=300"),
    )
    errors: list[str] = []
    busiest: list[tuple[float, float, str]] = []
    try:
        stats = Statistics(postgres)
        allowed: list[int] | None = None
        for shards in shard_counts:  # one cluster pair at a time: idle processes cost CPU too
            drawn = Cluster(postgres, shards, f"drawn{shards}")
            floor = Cluster(postgres, shards, f"floor{shards}", ("bench.fixed_turn_image",))
            try:
                drawn.start()
                floor.start()
                if allowed is None:
                    allowed = what_this_machine_allows(drawn, counts, args.start_minutes)
                    print(
                        f"machine: {os.cpu_count()} cores; load average {load_before:.1f} "
                        f"before the run; one PostgreSQL 15 (durable); {args.rounds} round(s), "
                        "drawn and floor alternating; the fake's OpenAPI check and rate limits "
                        "off\nclick -> card shows the roll (floor: the same clusters' clicks, "
                        "no image drawn)",
                        flush=True,
                    )
                asyncio.run(run(drawn, floor, allowed, args.rounds, stats))
                busiest = drawn.busiest
            finally:
                errors += drawn.stop() + floor.stop()
    finally:
        postgres.stop()
    print(f"load average {os.getloadavg()[0]:.1f} after the run")
    if args.statements:
        print(f"statements per click, the last burst of {shard_counts[-1]} shard(s) (drawn):")
        for calls, ms, query in busiest[: args.statements]:
            print(f"  {calls:5.2f} calls {ms:7.2f} ms  {' '.join(query.split())[:110]}")
    refusals = [e for e in errors if "the database is unavailable" in e]
    if refusals:
        print(f"the bots logged {len(refusals)} database waits past their timeout (REFUSED above)")
    others = [e for e in errors if e not in refusals]
    if others:
        raise SystemExit("the bots logged errors:\n" + "\n".join(others))


if __name__ == "__main__":
    main()
