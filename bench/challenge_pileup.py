"""A pile-up of challenges: waves of 50 `/rocketball challenge` commands and their Accepts, each
wave sent before the previous wave's 50 cards were drawn, and the time from each interaction to
its first response reaching the fake Discord, against Discord's 3 s ("Interactions", Receiving
and Responding: "Interactions must be responded to within 3 seconds").

    .venv/bin/python bench/challenge_pileup.py [--pairs 50] [--waves 3]

The real bot.py (SQLite) on the local fake Discord, Discord's rate limits on. Each wave: every
pair's challenge at once, then, as soon as all are answered, every Accept at once (each Accept
opens a thread and draws the match's first card); the next wave follows at once. Each pair plays in a channel of its own. Printed for
commands and clicks apart: median, p99 and most from the interaction to its first response (a
response counts once all of it has arrived, as Discord counts it), how many were acknowledged
first (a deferral, then the answer by edit or followup) and how many passed 3 s (Discord answers
those 10062 and the player reads "The application did not respond"), with the limit.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from figures import percentile  # noqa: E402
from match_card import Bench, start_bench, stop_bench  # noqa: E402

from fakediscord.interactions import (  # noqa: E402
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    RESPONSE_DEADLINE_SECONDS,
)
from fakediscord.messages import Reply  # noqa: E402
from fakediscord.model import PUBLIC_THREAD, Channel, DiscordViolation  # noqa: E402
from fakediscord.server import FakeDiscord  # noqa: E402

DEFERRED = (DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE)


class Tally:
    def __init__(self, name: str) -> None:
        self.name = name
        self.waits: list[float] = []  # ms to the first response
        self.deferred = 0
        self.late = 0  # no first response within Discord's 3 s

    def take(self, bench: Bench, results: list[Any]) -> None:
        """Time each interaction of a wave (a reply, or the violation that failed it)."""
        for result in results:
            if isinstance(result, DiscordViolation):
                self.late += 1
                continue
            if isinstance(result, BaseException):
                raise result
            record = bench.fake.interactions[result.interaction_id]
            assert record.responded is not None
            self.waits.append((record.responded - record.created) * 1000)
            self.deferred += record.response_type in DEFERRED

    def line(self) -> str:
        ordered = sorted(self.waits)
        limit = RESPONSE_DEADLINE_SECONDS * 1000
        return (
            f"{self.name:<28} first response: median {statistics.median(ordered):6.0f} ms, "
            f"p99 {percentile(ordered, 0.99):6.0f} ms, most {ordered[-1]:6.0f} ms "
            f"(limit {limit:.0f} ms); acknowledged first {self.deferred}; "
            f"past the limit {self.late} (goal 0) of {len(ordered) + self.late}"
        )


async def wave(
    bench: Bench, index: int, courts: list[Channel], commands: Tally, clicks: Tally
) -> None:
    driver, fake = bench.discord, bench.fake
    players = [
        (fake.add_user(f"north{index}x{n}"), fake.add_user(f"south{index}x{n}"))
        for n in range(len(courts))
    ]
    challenged = await asyncio.gather(
        *(
            driver.slash(
                "rocketball challenge", user=north, channel=court, opponent=south, settle=False
            )
            for (north, south), court in zip(players, courts, strict=True)
        ),
        return_exceptions=True,
    )
    commands.take(bench, list(challenged))
    accepted = await asyncio.gather(
        *(
            driver.click(reply, "Accept", user=south, settle=False)
            for reply, (_, south) in zip(challenged, players, strict=True)
            if isinstance(reply, Reply)
        ),
        return_exceptions=True,
    )
    clicks.take(bench, list(accepted))


def cards_drawn(fake: FakeDiscord) -> int:
    """Match threads whose live card is posted (a message of the bot's with controls)."""
    return sum(
        any(fake.messages[m].get("components") for m in fake.channel_messages.get(channel, []))
        for channel, data in list(fake.channels.items())
        if data["type"] == PUBLIC_THREAD
    )


async def measure(bench: Bench, pairs: int, waves: int) -> None:
    fake = bench.fake
    # a channel for each pair: Discord lets a channel open 5 threads in 5 s (the fake's
    # thread-create bucket), so fifty matches in one channel would wait on that, not the bot
    courts = [fake.add_channel(f"court{n}") for n in range(pairs)]
    commands, clicks = Tally("/rocketball challenge"), Tally("Accept")
    started = time.monotonic()
    for index in range(waves):
        await wave(bench, index, courts, commands, clicks)
    drawn = await fake.call(
        lambda: fake.wait_until(lambda: cards_drawn(fake) >= pairs * waves, 240)
    )
    print(
        f"{waves} waves of {pairs} challenges and their Accepts (each pair in a channel of its "
        f"own), each wave sent before the last one's cards were drawn; all {pairs * waves} cards "
        f"drawn {time.monotonic() - started:.1f} s after the first challenge"
        + ("" if drawn else " (not all: gave up waiting)")
    )
    print(commands.line())
    print(clicks.line())


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--pairs", type=int, default=50)
    parser.add_argument("--waves", type=int, default=3)
    args = parser.parse_args()
    bench = start_bench(name="pileup")
    try:
        asyncio.run(measure(bench, args.pairs, args.waves))
    finally:
        stop_bench(bench)


if __name__ == "__main__":
    main()
