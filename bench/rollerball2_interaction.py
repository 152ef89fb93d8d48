"""Rollerball II: a coach's wait between a click and the updated match message, through the
local fake Discord with the real bot.py in its own process.

    .venv/bin/python bench/rollerball2_interaction.py [--clicks N]

Two generated teams play a solo match; every click is the turn message's first button ("Next
card", or the decision the match waits for: catcher's choice, a biker, a scorer). Measured per
click, in milliseconds: until the click is acknowledged, and until the new turn message (the
track image, the FAC section read, the card with the rolled row lit) is in the thread. Also
"Play until something happens", which turns several cards per click. The issue's target: click
to updated match message under 150 ms median. Everything runs on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
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
    high = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return (
        f"{name:<46} median {statistics.median(ordered):7.1f} ms   p95 {high:7.1f} ms"
        f"   (n={len(ordered)})"
    )


def is_turn(message) -> bool:
    return bool(message.buttons) or "Dice revealed" in message.text


async def new_match(discord: DiscordDriver, coach, general, number: int):
    known = len(discord.threads(general))
    await discord.slash(
        "rollerball2 match start",
        user=coach,
        channel=general,
        home=f"Home{number}",
        away=f"Away{number}",
        mode="solo",
    )
    while len(discord.threads(general)) == known:
        await asyncio.sleep(0.01)
    thread = discord.threads(general)[-1]
    return thread, await discord.wait_for_message(thread, is_turn, timeout=30)


async def measure(discord: DiscordDriver, fake: FakeDiscord, clicks: int) -> None:
    coach = fake.add_user("coach")
    general = discord.default_channel
    acknowledged: list[float] = []
    posted: list[float] = []
    until: list[float] = []
    number = 0
    thread = turn = None
    while len(posted) < clicks:
        if turn is None or not turn.buttons:
            number += 1
            for side in ("Home", "Away"):
                await discord.slash(
                    "rollerball2 team create", user=coach, channel=general, name=f"{side}{number}"
                )
            thread, turn = await new_match(discord, coach, general, number)
        label = turn.button_labels[0]
        started = time.perf_counter()
        await discord.click(turn, label, user=coach, wait_followup=False)
        acknowledged.append((time.perf_counter() - started) * 1000)
        turn = await discord.wait_for_message(thread, is_turn, timeout=30)
        posted.append((time.perf_counter() - started) * 1000)
        if "Play until something happens" in turn.button_labels and len(until) < clicks // 4:
            started = time.perf_counter()
            await discord.click(turn, "Play until something happens", user=coach)
            turn = await discord.wait_for_message(thread, is_turn, timeout=30)
            until.append((time.perf_counter() - started) * 1000)
    print(summary("click -> acknowledged", acknowledged))
    print(summary("click -> updated match message in the thread", posted))
    if until:
        print(summary("'Play until something happens' -> message", until))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--clicks", type=int, default=60)
    args = parser.parse_args()
    fake = FakeDiscord()
    general = fake.add_channel("general")
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
        discord = DiscordDriver(fake, general)
        asyncio.run(measure(discord, fake, args.clicks))
    finally:
        bot.stop()
        fake.stop()


if __name__ == "__main__":
    main()
