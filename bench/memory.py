"""Memory: the bot's resident set (RSS) with 0, 1,000 and 10,000 active matches.

    .venv/bin/python bench/memory.py [--matches 1000,10000] [--batch 50] [--channels 50]
                                     [--no-rate-limits]

The real bot.py (its own process, SQLite) on a local fake Discord. Rocketball matches between
two new members each, every one with a name of their own (the board draws the names, so two
names shared by every match would hide whatever is kept per player), are started as players
start them, `--batch` at once (the challenge, its Accept: the match's thread and its live card
with the board), in turn in `--channels` channels (Discord's limit of 5 new threads a channel
in 5 s would otherwise start one match a second), and left waiting for their first move. RSS (VmRSS, /proc; with the proportional share, PSS, of
its drawing workers and their fork server: `rss_mib`) is read once the bot is idle at each mark, next to the figure at 0
(started and connected, nothing played yet), and printed with the growth per active match above
the first mark (the first matches also load what every later one shares: fonts, the cached
board layers, the drawing threads' memory). Everything runs on 127.0.0.1; 10,000 matches take
several minutes on 2 cores. `--no-rate-limits`: the fake answers no 429; Discord's global limit
of 50 requests a second (a match's thread and its card are two) would otherwise hold 10,000
matches to 7 minutes or more of starting, and what is measured is memory, not their pace.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from figures import Processes  # noqa: E402
from match_card import Bench, start_bench, stop_bench  # noqa: E402

from tests.e2e.cards import is_card  # noqa: E402

MIB = 1024 * 1024
_numbers = itertools.count(1)  # each player's name: their pair's number


def rss_mib(pid: int) -> float:
    """The memory of the bot and its drawing workers (RENDER_PROCESSES, host/drawing.py): the
    bot's RSS, plus each worker's and the fork server's proportional share (PSS: the pages
    they share with each other, forked from one server, are counted once)."""
    total = 0.0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            total = int(line.split()[1]) * 1024 / MIB
    for helper in Processes().descendants(pid):
        try:
            rollup = Path(f"/proc/{helper}/smaps_rollup").read_text().splitlines()
        except OSError:  # ended meanwhile
            continue
        for line in rollup:
            if line.startswith("Pss:"):
                total += int(line.split()[1]) * 1024 / MIB
    return total


async def start_batch(bench: Bench, count: int, channels: list | None = None) -> None:
    """`count` matches started at once, as that many pairs of players would: every challenge
    sent, then every Accept clicked, without waiting for the bot in between; done when every
    match's thread shows its live card. The challenges go round `channels` (default
    #general): Discord lets a bot open 5 threads a channel in 5 s, so matches in one channel
    start at one a second."""
    discord = bench.discord
    rooms = channels or [bench.general]
    numbers = [next(_numbers) for _ in range(count)]
    pairs = [
        (bench.fake.add_user(f"north {number}"), bench.fake.add_user(f"south {number}"))
        for number in numbers
    ]
    challenges = await asyncio.gather(
        *(
            discord.slash(
                "rocketball challenge",
                user=north,
                channel=rooms[number % len(rooms)],
                opponent=south,
                settle=False,
                timeout=60,
            )
            for number, (north, south) in zip(numbers, pairs, strict=True)
        )
    )
    await asyncio.gather(
        *(
            discord.click(reply, "Accept", user=south, settle=False, timeout=60)
            for reply, (_north, south) in zip(challenges, pairs, strict=True)
        )
    )
    for reply in challenges:
        thread = await bench.thread_from(reply, timeout=120)
        await discord.wait_for_message(thread, is_card, timeout=60, since=0)


def report(figures: list[tuple[int, float, float]]) -> None:
    """The last mark's line: RSS, its ratio to the empty bot's (the floor), the growth per
    match since the mark before, and the load meanwhile. Printed as each mark is reached, so
    that a long run says what it measured so far."""
    base = figures[0][1]
    active, rss, elapsed = figures[-1]
    growth = ""
    if len(figures) >= 3:
        before, rss_before, _ = figures[-2]
        growth = (
            f"{(rss - rss_before) * 1024 / (active - before):6.1f} KiB per match since {before:,}"
        )
    print(
        f"{active:>7,} active matches: RSS {rss:7.1f} MiB  ratio to 0 (the floor, "
        f"{base:.1f} MiB): {rss / base:4.2f}  {growth}  ({elapsed:.0f} s in, load average "
        f"{os.getloadavg()[0]:.1f})",
        flush=True,
    )


async def measure(bench: Bench, marks: list[int], batch: int, channels: int) -> None:
    pid = bench.bot.process.pid  # type: ignore[union-attr]
    rooms = [bench.discord.add_channel(f"matches-{number}") for number in range(channels)]
    await bench.fake.call(bench.fake.settle)
    figures = [(0, rss_mib(pid), 0.0)]
    report(figures)
    started, active = time.monotonic(), 0
    for mark in marks:
        while active < mark:
            count = min(batch, mark - active)
            await start_batch(bench, count, rooms)
            active += count
        await bench.fake.call(bench.fake.settle)
        figures.append((active, rss_mib(pid), time.monotonic() - started))
        report(figures)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--matches", default="1000,10000", help="active matches to measure at")
    parser.add_argument("--batch", type=int, default=50, help="matches started at once")
    parser.add_argument("--channels", type=int, default=50, help="channels they start in")
    parser.add_argument(
        "--no-rate-limits", action="store_true", help="the fake answers no 429 (see above)"
    )
    args = parser.parse_args()
    marks = sorted(int(part) for part in args.matches.split(","))
    print(
        f"machine: {os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f} before; "
        f"Discord's rate limits " + ("off" if args.no_rate_limits else "on"),
        flush=True,
    )
    bench = start_bench(  # the fake's check: not the bot's
        name="memory", spec_check=False, rate_limits=not args.no_rate_limits
    )
    try:
        asyncio.run(measure(bench, marks, args.batch, args.channels))
    finally:
        stop_bench(bench)


if __name__ == "__main__":
    main()
