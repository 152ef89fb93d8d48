"""Interaction latency through the local fake Discord: how long a player waits between sending an
interaction and seeing the bot's answer, with the real bot.py in its own process.

    .venv/bin/python bench/interaction_latency.py [--rounds N]

Measures (median and 95th percentile, milliseconds):
- `/roll 3d6+2`: a plain command answered at once;
- Rocketball "Roll the d4" in a match between two people: the click until the match's live card
  shows the roll (the round GIF drawn, the card redrawn in place by the click's response).
Discord's limit for the first answer is 3,000 ms. Many matches clicking at once, against the
no-drawing floor: bench/busy_matches.py. Everything runs on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from match_card import Bench, rolls_at_once, start_bench, stop_bench  # noqa: E402


def summary(name: str, samples: list[float], p: float = 0.95) -> str:
    ordered = sorted(samples)
    high = ordered[min(len(ordered) - 1, int(len(ordered) * p))]
    label = f"p{round(p * 100)}"
    return (
        f"{name:<44} median {statistics.median(ordered):7.1f} ms   {label} {high:7.1f} ms"
        f"   (n={len(ordered)})"
    )


async def measure(bench: Bench, rounds: int) -> None:
    discord, fake = bench.discord, bench.fake
    alice = fake.add_user("alice")
    general = discord.default_channel

    rolls = []
    for _ in range(rounds):
        started = time.perf_counter()
        await discord.slash("roll", user=alice, channel=general, notation="3d6+2")
        rolls.append((time.perf_counter() - started) * 1000)
    print(summary("/roll 3d6+2 -> reply", rolls))

    shown = []
    for _ in range(max(1, rounds // 4)):
        shown += await rolls_at_once(fake, await bench.start_matches(1))
    print(summary("Rocketball roll click -> card shows the roll", shown))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument(
        "--render-processes", type=int, default=0, help="the bot's RENDER_PROCESSES setting"
    )
    args = parser.parse_args()
    # Timed clicks, played faster than people play: Discord's limits would time the waits
    # they make, not the bot (bench/rate_limits.py counts what the bot asks of them).
    bench = start_bench(
        environment={"RENDER_PROCESSES": str(args.render_processes)}, rate_limits=False
    )
    try:
        asyncio.run(measure(bench, args.rounds))
    finally:
        stop_bench(bench)


if __name__ == "__main__":
    main()
