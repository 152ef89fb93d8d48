"""Interaction latency through the local fake Discord: how long a player waits between sending an
interaction and seeing the bot's answer, with the real bot.py in its own process.

    .venv/bin/python bench/interaction_latency.py [--rounds N]

Measures (median and 95th percentile, milliseconds):
- `/roll 3d6+2`: a plain command answered at once;
- Rocketball "Roll the d4": the click is acknowledged (deferred), then the turn message with the
  board PNG and the move GIF is posted in the thread: both times are reported;
- the same roll click in 1, 5 and 10 matches at once (players clicking at the same moment):
  click to turn message posted, median and p99 over all clicks.
Discord's limit for the first answer is 3,000 ms. Everything runs on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from fakediscord.botproc import BotProcess  # noqa: E402
from fakediscord.driver import DiscordDriver  # noqa: E402
from fakediscord.server import FakeDiscord  # noqa: E402


def summary(name: str, samples: list[float], p: float = 0.95) -> str:
    ordered = sorted(samples)
    high = ordered[min(len(ordered) - 1, int(len(ordered) * p))]
    label = f"p{round(p * 100)}"
    return (
        f"{name:<44} median {statistics.median(ordered):7.1f} ms   {label} {high:7.1f} ms"
        f"   (n={len(ordered)})"
    )


async def measure(discord: DiscordDriver, bot: BotProcess, fake: FakeDiscord, rounds: int) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    general = discord.default_channel

    rolls = []
    for _ in range(rounds):
        started = time.perf_counter()
        await discord.slash("roll", user=alice, channel=general, notation="3d6+2")
        rolls.append((time.perf_counter() - started) * 1000)
    print(summary("/roll 3d6+2 -> reply", rolls))

    acknowledged, posted = [], []
    for _ in range(max(1, rounds // 4)):
        reply = await discord.slash(
            "rocketball challenge", user=alice, channel=general, opponent=bob
        )
        known = len(discord.threads(general))
        await discord.click(reply, "Accept", user=bob)
        while len(discord.threads(general)) == known:
            await asyncio.sleep(0.01)
        thread = discord.threads(general)[-1]
        first = await discord.wait_for_message(thread, lambda m: bool(m.buttons), timeout=15)
        with sqlite3.connect(bot.database_path) as conn:
            to_move = conn.execute(
                "SELECT json_extract(state, '$.engine.to_move') FROM games ORDER BY id DESC LIMIT 1"
            ).fetchone()[0]
        mover = alice if to_move == "N" else bob
        started = time.perf_counter()
        await discord.click(first, "Roll the d4", user=mover, wait_followup=False)
        acknowledged.append((time.perf_counter() - started) * 1000)
        await discord.wait_for_message(thread, lambda m: bool(m.attachments), timeout=15)
        posted.append((time.perf_counter() - started) * 1000)
        await resign(discord, mover, thread)
    print(summary("Rocketball roll click -> acknowledged", acknowledged))
    print(summary("Rocketball roll click -> board + GIF posted", posted))
    for concurrent in (1, 5, 10):
        samples: list[float] = []
        for _ in range(max(1, rounds // 8)):
            samples += await concurrent_rolls(discord, bot, fake, general, concurrent)
        print(summary(f"{concurrent:>2} matches rolling at once -> posted", samples, p=0.99))


async def resign(discord: DiscordDriver, user, thread) -> None:
    asked = await discord.slash("rocketball resign", user=user, channel=thread)
    await discord.click(asked, "Resign", user=user)


async def concurrent_rolls(discord, bot, fake, general, count: int) -> list[float]:
    """Start `count` matches, then every mover clicks Roll at the same moment."""
    matches = []
    for _ in range(count):
        north, south = fake.add_user("north"), fake.add_user("south")
        reply = await discord.slash(
            "rocketball challenge", user=north, channel=general, opponent=south
        )
        await discord.click(reply, "Accept", user=south)
        thread = await discord.wait_for_thread(general)
        first = await discord.wait_for_message(thread, lambda m: bool(m.buttons), timeout=15)
        with sqlite3.connect(bot.database_path) as conn:
            to_move = conn.execute(
                "SELECT json_extract(state, '$.engine.to_move') FROM games ORDER BY id DESC LIMIT 1"
            ).fetchone()[0]
        matches.append((thread, first, north if to_move == "N" else south))

    async def roll(thread, first, mover) -> float:
        started = time.perf_counter()
        await discord.click(first, "Roll the d4", user=mover, wait_followup=False)
        await discord.wait_for_message(
            thread, lambda m: bool(m.attachments), timeout=30, since=first
        )
        return (time.perf_counter() - started) * 1000

    samples = await asyncio.gather(*(roll(*match) for match in matches))
    for thread, _first, mover in matches:
        await resign(discord, mover, thread)
    return list(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument(
        "--render-processes", type=int, default=0, help="the bot's RENDER_PROCESSES setting"
    )
    args = parser.parse_args()
    fake = FakeDiscord()
    general = fake.add_channel("general")
    fake.start()
    folder = Path(tempfile.mkdtemp(prefix="ballcourt-bench-"))
    bot = BotProcess(
        fake,
        database_path=folder / "bench.db",
        log_path=folder / "bot.log",
        extra_env={
            "GAME_SEED": "1",
            "LOG_LEVEL": "WARNING",
            "RENDER_PROCESSES": str(args.render_processes),
        },
    )
    bot.start()
    try:
        discord = DiscordDriver(fake, general)
        asyncio.run(measure(discord, bot, fake, args.rounds))
    finally:
        bot.stop()
        fake.stop()


if __name__ == "__main__":
    main()
