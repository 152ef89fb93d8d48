"""Interaction latency through the local fake Discord: how long a player waits between sending an
interaction and seeing the bot's answer, with the real bot.py in its own process.

    .venv/bin/python bench/interaction_latency.py [--rounds N]

Measures (median and 95th percentile, milliseconds):
- `/roll 3d6+2`: a plain command answered at once;
- Rocketball "Roll the d4": the click is acknowledged (deferred), then the turn message with the
  board PNG and the move GIF is posted in the thread: both times are reported.
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


def summary(name: str, samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return f"{name:<44} median {statistics.median(ordered):7.1f} ms   p95 {p95:7.1f} ms   (n={len(ordered)})"


async def measure(discord: DiscordDriver, bot: BotProcess, fake: FakeDiscord, rounds: int) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    general = fake.fixtures_general

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
        await discord.slash("rocketball resign", user=mover, channel=thread)
    print(summary("Rocketball roll click -> acknowledged", acknowledged))
    print(summary("Rocketball roll click -> board + GIF posted", posted))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40)
    args = parser.parse_args()
    fake = FakeDiscord()
    fake.fixtures_general = fake.add_channel("general")
    fake.start()
    folder = Path(tempfile.mkdtemp(prefix="ballcourt-bench-"))
    bot = BotProcess(
        fake,
        database_path=folder / "bench.db",
        log_path=folder / "bot.log",
        extra_env={"GAME_SEED": "1", "LOG_LEVEL": "WARNING"},
    )
    bot.start()
    try:
        discord = DiscordDriver(fake, fake.fixtures_general)
        asyncio.run(measure(discord, bot, fake, args.rounds))
    finally:
        bot.stop()
        fake.stop()


if __name__ == "__main__":
    main()
