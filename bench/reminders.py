"""Due reminders: how long the bot takes to fire 10,000 match reminders that fall due at once,
against its no-op floor (as many timers whose handler does nothing) and the goal of 10 s.

    .venv/bin/python bench/reminders.py [--counts 1000,10000] [--seeds 50] [--profile FOLDER]

The real bot.py (its own process, SQLite) on a local fake Discord. `--seeds` Rocketball matches
are started as players start them (a challenge, its Accept: a thread and a live card each);
the bot is stopped and the database copied to `count` active matches, each in a thread of its
own (a copy of its source's, as every match has on Discord) and waiting for its first move with
one reminder due at the same moment (every other timer deleted); the bot is started again and the time from that moment until every reminder is
fired and deleted is printed, with the bot's CPU time per reminder and the reminders the fake
received. The floor is the same bot on the same database firing `count` timers of a no-op
handler (bench/noop_timer.py, loaded only here). Discord's rate limits are off in the fake:
they would hold back what this measures, the bot's own cost (on Discord the global limit of 50
requests a second is its own floor: 200 s for 10,000 messages, which a reminder that mentions
nobody does not pay). The fake still reports each bucket in its headers (the counting goes on)
and discord.py waits when they say a bucket is spent, so matches sharing a thread would wait
for its 5 messages per 5 s: copies in their sources' threads (10-20 a thread) held every batch
about 10 s, the wait once taken for the bot's. `--profile FOLDER`: py-spy records the bot while the reminders fire
(FOLDER/reminders-COUNT.txt, collapsed stacks).
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from match_card import Bench, start_bench, stop_bench  # noqa: E402
from memory import start_batch  # noqa: E402
from noop_timer import EVENT as NOOP_EVENT  # noqa: E402

from cogs.rocketball.presenter import RocketballAdapter  # noqa: E402
from db import games as game_store  # noqa: E402
from fakediscord.server import FakeDiscord  # noqa: E402
from host import timeouts  # noqa: E402
from host.match import Match  # noqa: E402
from host.timeouts import REMIND_EVENT  # noqa: E402

ADAPTER = RocketballAdapter()

GOAL_SECONDS = 10.0
# The timers fall due this long after they are written, so that the bot has started and
# its start-up repair (which reads every active match) is over by then.
LEAD_SECONDS = 20.0
LEAD_PER_MATCH = 0.004
REMINDER_TEXT = "is waiting for your move"


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def thread_like(fake: FakeDiscord, thread_id: int) -> int:
    """A new thread in the fake Discord, a copy of `thread_id` (its channel, its settings) with
    no messages: the thread a copied match is played in."""

    def copy_thread() -> int:
        data = copy.deepcopy(fake.channels[thread_id])
        new_id = fake.ids.next()
        data["id"] = str(new_id)
        fake.channels[new_id] = data
        fake.channel_messages[new_id] = []
        fake.note_thread_activity(new_id)  # made now: it archives if left idle from now
        return new_id

    return fake.call_sync(copy_thread)


def copy_matches(path: Path, count: int, fake: FakeDiscord) -> None:
    """The database's active matches copied until there are `count` (each a new row with its
    seats, in a thread of its own like its source's), every timer deleted."""
    with sqlite3.connect(path) as conn:
        conn.row_factory = sqlite3.Row
        columns = [row["name"] for row in conn.execute("PRAGMA table_info(games)")]
        copied = [c for c in columns if c not in ("id", "pair_key")]
        sources = [
            (row["id"], row["thread_id"])
            for row in conn.execute("SELECT id, thread_id FROM games WHERE status = 'active'")
        ]
        conn.execute("DELETE FROM timers")
        active = len(sources)
        for number in range(count - active):
            source, thread_id = sources[number % len(sources)]
            cursor = conn.execute(
                f"INSERT INTO games ({', '.join(copied)}) SELECT {', '.join(copied)}"
                " FROM games WHERE id = ?",
                (source,),
            )
            conn.execute(
                "UPDATE games SET thread_id = ? WHERE id = ?",
                (thread_like(fake, thread_id), cursor.lastrowid),
            )
            conn.execute(
                "INSERT INTO game_players (game_id, seat, user_id)"
                " SELECT ?, seat, user_id FROM game_players WHERE game_id = ?",
                (cursor.lastrowid, source),
            )


def payload_of(conn: sqlite3.Connection, row: sqlite3.Row, event: str, now: float) -> dict:
    """The payload the bot writes for `event` at the match's position: a reminder's is what
    host/timeouts.py `timers_for` writes with the move (whom it waits for, what it says); the
    no-op floor's names the match."""
    if event != REMIND_EVENT:
        return {"game_id": row["id"], "version": row["version"]}
    players = tuple(
        seat["user_id"]
        for seat in conn.execute(
            "SELECT user_id FROM game_players WHERE game_id = ? ORDER BY seat", (row["id"],)
        )
    )
    stored = game_store.stored_from_row(row, players)
    match = Match.from_json(ADAPTER, stored.state)
    specs = timeouts.timers_for(ADAPTER, stored, match, stored.version, now)
    return next(spec.payload for spec in specs if spec.event == REMIND_EVENT)


def write_timers(path: Path, event: str, due_at: float) -> int:
    """One timer of `event` due at `due_at` for every active match, with the payload the bot
    writes for it."""
    with sqlite3.connect(path) as conn:
        conn.row_factory = sqlite3.Row
        conn.execute("DELETE FROM timers")
        rows = conn.execute("SELECT * FROM games WHERE status = 'active'").fetchall()
        conn.executemany(
            "INSERT INTO timers (event, due_at, payload, created_at, game_id)"
            " VALUES (?, ?, ?, ?, ?)",
            [
                (
                    event,
                    due_at,
                    json.dumps(payload_of(conn, row, event, due_at - 3600), sort_keys=True),
                    due_at - 3600,
                    row["id"],
                )
                for row in rows
            ],
        )
    return len(rows)


def timers_left(path: Path, event: str) -> bool:
    """Is any timer of `event` left? (Asked ten times a second: a count would read every row
    left each time, this benchmark's own cost growing with the number due, on the fake
    Discord's cores.)"""
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30) as conn:
        query = "SELECT EXISTS (SELECT 1 FROM timers WHERE event = ?)"
        return bool(conn.execute(query, (event,)).fetchone()[0])


async def reminders_received(bench: Bench) -> int:
    def count() -> int:
        fake = bench.fake
        return sum(
            1
            for ids in fake.channel_messages.values()
            for message_id in ids
            if REMINDER_TEXT in (fake.messages[message_id].get("content") or "")
        )

    return await asyncio.to_thread(bench.fake.call_sync, count)


async def fire(
    bench: Bench, event: str, profile: Path | None
) -> tuple[int, float, float, float, float]:
    """Restart the bot with one `event` timer due per active match: (timers, seconds from their
    due time until all are fired and deleted, the bot's CPU seconds meanwhile, this process's
    (the fake Discord's), load average)."""
    path = Path(bench.bot.database_path)
    bench.bot.stop()
    with sqlite3.connect(path) as conn:
        (active,) = conn.execute("SELECT COUNT(*) FROM games WHERE status = 'active'").fetchone()
    count = write_timers(path, event, time.time() + LEAD_SECONDS)
    # due from now on: writing them (a reminder's payload computed per match) is not counted
    due_at = time.time() + LEAD_SECONDS + LEAD_PER_MATCH * active
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE timers SET due_at = ?, created_at = ?", (due_at, due_at - 3600))
    bench.bot.start()
    pid = bench.bot.process.pid  # type: ignore[union-attr]
    while time.time() < due_at - 0.5:
        await asyncio.sleep(0.1)
    cpu_before, fake_before = cpu_seconds(pid), time.process_time()
    spies = []
    if profile is not None:  # the bot, and this process (the fake Discord's thread)
        profile.mkdir(parents=True, exist_ok=True)
        for who, process in (("bot", pid), ("fake", os.getpid())):
            output = profile / f"{event}-{count}-{who}.txt"
            spies.append(
                subprocess.Popen(
                    [
                        *(str(REPO / ".venv/bin/py-spy"), "record", "--pid", str(process)),
                        *("--format", "raw", "--rate", "50", "--output", str(output)),
                        "--nonblocking",
                    ],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
    while time.time() < due_at:
        await asyncio.sleep(0.01)
    while timers_left(path, event):
        await asyncio.sleep(0.1)
    elapsed = time.time() - due_at
    cpu, fake_cpu = cpu_seconds(pid) - cpu_before, time.process_time() - fake_before
    for spy in spies:
        spy.send_signal(2)  # SIGINT: py-spy writes what it recorded
        spy.wait(30)
    return count, elapsed, cpu, fake_cpu, os.getloadavg()[0]


async def measure(bench: Bench, counts: list[int], seeds: int, profile: Path | None) -> None:
    await start_batch(bench, seeds)
    await bench.fake.call(bench.fake.settle)
    path = Path(bench.bot.database_path)
    for count in counts:
        bench.bot.stop()
        copy_matches(path, count, bench.fake)
        floor = await fire(bench, NOOP_EVENT, None)
        posted_before = await reminders_received(bench)
        reminders = await fire(bench, REMIND_EVENT, profile)
        await bench.fake.call(bench.fake.settle)
        posted = await reminders_received(bench) - posted_before
        (_, floor_s, floor_cpu, _, floor_load) = floor
        (number, seconds, cpu, fake_cpu, load) = reminders
        print(
            f"{number:>7,} reminders due at once: {seconds:6.2f} s"
            f" (goal {GOAL_SECONDS:.0f} s: {seconds / GOAL_SECONDS:.2f}x;"
            f" no-op floor {floor_s:.2f} s: {seconds / floor_s:.1f}x),"
            f" {seconds / number * 1000:.2f} ms a reminder;"
            f" bot CPU {cpu / number * 1000:.2f} ms a reminder (floor {floor_cpu / number * 1000:.2f}),"
            f" the fake Discord's {fake_cpu / number * 1000:.2f};"
            f" {posted:,} reminders posted; load average {floor_load:.1f} / {load:.1f}",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--counts", default="1000,10000", help="reminders due at once")
    parser.add_argument("--seeds", type=int, default=50, help="matches started through the fake")
    parser.add_argument("--profile", type=Path, help="py-spy's collapsed stacks go here")
    args = parser.parse_args()
    counts = sorted(int(part) for part in args.counts.split(","))
    # Discord's rate limits off: the bot's cost is measured, not Discord's limit (see above).
    bench = start_bench(
        name="reminders",
        spec_check=False,
        rate_limits=False,
        extensions=("bench.noop_timer",),
    )
    print(f"machine: {os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f} before")
    try:
        asyncio.run(measure(bench, counts, args.seeds, args.profile))
    finally:
        stop_bench(bench)


if __name__ == "__main__":
    main()
