"""Rollerball II: a coach's wait between a click and the updated match message, through the
local fake Discord with the real bot.py in its own process.

    .venv/bin/python bench/rollerball2_interaction.py [--clicks N]

Two generated teams play a solo match; every click is the live card's first button ("Next card",
or the decision the match waits for: catcher's choice, a biker, a scorer). Measured per click,
in milliseconds: until the click is acknowledged, and until the card shows the new position
(the scoreboard, the FAC section read, the card with the rolled row lit; redrawn in place by the
click's own response). Also "Play to next event", which turns several cards per click.
The target: click to the updated card under 150 ms median. Everything runs on 127.0.0.1.
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

from match_card import start_bench, stop_bench  # noqa: E402

from fakediscord.botproc import BotProcess  # noqa: E402
from fakediscord.driver import DiscordDriver  # noqa: E402
from fakediscord.messages import Message  # noqa: E402
from fakediscord.server import FakeDiscord  # noqa: E402
from tests.e2e.cards import card_game_id, current_card, is_card  # noqa: E402

GOAL_MS = 150  # click to the updated card, median


def summary(name: str, samples: list[float]) -> str:
    ordered = sorted(samples)
    high = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return (
        f"{name:<46} median {statistics.median(ordered):7.1f} ms   p95 {high:7.1f} ms"
        f"   (n={len(ordered)})"
    )


async def new_match(
    discord: DiscordDriver, bot: BotProcess, coach, general, number: int
) -> Message:
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
    card = await discord.wait_for_message(thread, is_card, timeout=30, since=0)
    return await current_card(discord, bot, thread, card_game_id(card))


async def click(
    discord: DiscordDriver, card: Message, label: str, coach
) -> tuple[float, float, Message]:
    """(ms until the click is acknowledged, ms until the card shows the new position, the
    card then)."""
    started = time.perf_counter()
    await discord.click(card, label, user=coach, wait_followup=False)
    acknowledged = (time.perf_counter() - started) * 1000
    card = await discord.wait_for_edit(card, timeout=30)
    return acknowledged, (time.perf_counter() - started) * 1000, card


async def measure(discord: DiscordDriver, bot: BotProcess, fake: FakeDiscord, clicks: int) -> None:
    coach = fake.add_user("coach")
    general = discord.default_channel
    acknowledged: list[float] = []
    posted: list[float] = []
    until: list[float] = []
    number = 0
    card: Message | None = None
    while len(posted) < clicks:
        if card is None or not card.buttons:
            number += 1
            for side in ("Home", "Away"):
                await discord.slash(
                    "rollerball2 team create", user=coach, channel=general, name=f"{side}{number}"
                )
            card = await new_match(discord, bot, coach, general, number)
        ack, shown, card = await click(discord, card, card.button_labels[0], coach)
        acknowledged.append(ack)
        posted.append(shown)
        if "Play to next event" in card.button_labels and len(until) < clicks // 4:
            _, shown, card = await click(discord, card, "Play to next event", coach)
            until.append(shown)
    print(summary("click -> acknowledged", acknowledged))
    print(summary("click -> the card shows the new position", posted))
    median = statistics.median(posted)
    print(f"{'':<46} goal 150 ms median, ratio {median / GOAL_MS:.2f}")
    if until:
        print(summary("'Play to next event' -> card", until))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--clicks", type=int, default=60)
    args = parser.parse_args()
    # Timed clicks, one right after the other (faster than a coach clicks): Discord's limits
    # would time their waits, not the bot.
    bench = start_bench(name="rollerball2", rate_limits=False)
    try:
        asyncio.run(measure(bench.discord, bench.bot, bench.fake, args.clicks))
    finally:
        stop_bench(bench)


if __name__ == "__main__":
    main()
