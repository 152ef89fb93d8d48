"""How much a Rocketball match puts in its thread: messages, messages with images, and image bytes
per round, for a 1-point match against the easy computer played to the end through the local
fake Discord (139 messages and 9.1 MB for one such match before a round was
folded into one image).

    .venv/bin/python bench/rocketball_thread.py [--matches 3]

The human seat plays the strong computer's choices, typed with /rocketball move; a round is one
roll of the d4. Prints the totals and the per-round averages.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from fakediscord.botproc import BotProcess  # noqa: E402
from fakediscord.driver import DiscordDriver  # noqa: E402
from fakediscord.server import FakeDiscord  # noqa: E402
from rules.rocketball import GameState, choose_action, format_action  # noqa: E402


def stored(bot: BotProcess) -> tuple[str, GameState]:
    with sqlite3.connect(bot.database_path) as conn:
        status, state = conn.execute(
            "SELECT status, state FROM games ORDER BY id DESC LIMIT 1"
        ).fetchone()
    return status, GameState.from_dict(json.loads(state)["engine"])


async def one_match(discord: DiscordDriver, bot: BotProcess, fake: FakeDiscord, seed: int):
    player = fake.add_user(f"player{seed}")
    general = discord.default_channel
    await discord.slash(
        "rocketball play-computer", user=player, channel=general, level="easy", target=1
    )
    thread = await discord.wait_for_thread(general)
    rng = random.Random(seed)
    for _ in range(2000):
        status, state = stored(bot)
        if status == "finished":
            break
        action = choose_action(state, "strong", rng)
        await discord.slash(
            "rocketball move", user=player, channel=thread, move=format_action(action)
        )
    else:
        raise RuntimeError("the match did not end")
    await asyncio.sleep(0.5)
    _, state = stored(bot)
    messages = discord.channel_messages(thread)
    with_images = [m for m in messages if m.attachments]
    image_bytes = sum(len(a.data) for m in messages for a in m.attachments)
    # Every roll of the match: the player's own are made for them as their turn begins.
    rounds = sum(1 for line in state.history if line.endswith(" roll"))
    return len(messages), len(with_images), image_bytes, rounds


async def newcomer_thread(level: str) -> tuple[int, int]:
    """A newcomer's first match against `level` (first to 2), pressing only the card's
    Suggested button: (their clicks, the messages in the thread). bench/rocketball_newcomer.py
    prints it."""
    from bench.match_card import start_bench, stop_bench

    bench = start_bench(name="newcomer-bench", environment={"GAME_SEED": "3"})
    discord, bot, fake, general = bench.discord, bench.bot, bench.fake, bench.general
    try:
        player = fake.add_user("newcomer")
        await discord.slash("rocketball play-computer", user=player, channel=general, level=level)
        thread = await discord.wait_for_thread(general)
        clicks = 0
        card = await discord.wait_for_message(thread, lambda m: bool(m.buttons), since=0)
        for _ in range(2000):
            status, state = stored(bot)
            if status == "finished":
                break
            card = discord.message(card)
            label = next(b for b in card.button_labels if b.startswith("Suggested: "))
            await discord.click(card, label, user=player)
            clicks += 1
            for _ in range(200):  # the card is redrawn once the computer has replied
                now_status, now = stored(bot)
                if now_status == "finished" or (
                    len(now.history) > len(state.history) and now.to_move == "N"
                ):
                    break
                await asyncio.sleep(0.02)
        else:
            raise RuntimeError("the match did not end")
        await asyncio.sleep(0.5)
        return clicks, len(discord.channel_messages(thread))
    finally:
        stop_bench(bench)


def main(matches: int) -> None:
    fake = FakeDiscord()
    general = fake.add_channel("general")
    fake.start()
    folder = Path(tempfile.mkdtemp(prefix="ballcourt-thread-bench-"))
    bot = BotProcess(
        fake,
        database_path=folder / "bench.db",
        log_path=folder / "bot.log",
        extra_env={"GAME_SEED": "3", "LOG_LEVEL": "WARNING"},
    )
    bot.start()
    try:
        discord = DiscordDriver(fake, general)
        totals = [0, 0, 0, 0]
        for seed in range(matches):
            result = asyncio.run(one_match(discord, bot, fake, seed))
            totals = [a + b for a, b in zip(totals, result, strict=True)]
            print(
                f"match {seed}: {result[3]} rounds, {result[0]} messages, {result[1]} with images, "
                f"{result[2] / 1024:.0f} KB of images"
            )
        messages, with_images, image_bytes, rounds = totals
        print(
            f"per round: {messages / rounds:.2f} messages, {with_images / rounds:.2f} with images, "
            f"{image_bytes / rounds / 1024:.1f} KB of images ({rounds} rounds in {matches} matches)"
        )
    finally:
        bot.stop()
        fake.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--matches", type=int, default=3)
    main(parser.parse_args().matches)
