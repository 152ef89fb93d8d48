"""A player's move against the Rocketball master computer, from the click to the card showing the
computer's reply, in a bot run as the sandbox runs it (its wall clock under libfaketime) and in
one run as the tests run it (the floor).

    .venv/bin/python bench/computer_reply.py [--level master] [--matches 2] [--replies 60]

Both bots (bot.py in its own process, each on its own local fake Discord) play the same seeded
matches: the player's moves are the strong computer's choices, clicked and picked on the card as a
person would. Printed for each: median, p99 and maximum over the clicks the computer answered,
and the ratio to the floor. The sandbox reported 1.4-2.9 s a step while the engine decides in
about 2 ms: libfaketime's "monotonic fix" delayed every hand-over of the interpreter lock between
the bot's threads (the computer thinks in a thread while the event loop runs); the sandbox's
clock environment now switches it off (fakediscord/clock.py). Needs Debian's libfaketime.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from match_card import Bench, start_bench, stop_bench, stored  # noqa: E402

from fakediscord.clock import BotClock, find_libfaketime  # noqa: E402
from fakediscord.model import DiscordViolation  # noqa: E402
from tests.e2e.cards import card_game_id, current_card, is_card  # noqa: E402


async def play_against_computer(bench: Bench, level: str, seed: int, replies: int) -> list[float]:
    """One match, until the computer has answered `replies` clicks or the match is over;
    milliseconds from each click that the computer answered to the card showing the answer (the
    click's response is the card after the computer's reply)."""
    from rules.rocketball import GameState, ai

    user = bench.fake.add_user("solo")
    known = len(bench.discord.threads(bench.general))
    await bench.discord.slash(
        "rocketball play-computer", user=user, channel=bench.general, level=level, target=3
    )
    thread = await bench.new_thread(known)
    card = await bench.discord.wait_for_message(thread, is_card, timeout=30, since=0)
    game_id = card_game_id(card)
    rng = random.Random(seed)
    answered = []
    while len(answered) < replies:
        card = await current_card(bench.discord, bench.bot, thread, game_id, timeout=60)
        (status, version) = stored(
            bench.bot, "SELECT status, version FROM games WHERE id = ?", game_id
        )
        if status != "active":
            break
        (state_json,) = stored(
            bench.bot, "SELECT json_extract(state, '$.engine') FROM games WHERE id = ?", game_id
        )
        action = ai.choose_action(GameState.from_json(state_json), "strong", rng)
        started = time.perf_counter()
        await bench.play_rocketball(card, user, action)
        took = (time.perf_counter() - started) * 1000
        (after,) = stored(bench.bot, "SELECT version FROM games WHERE id = ?", game_id)
        if after > version + 1:  # the player's move and the computer's reply: two saves
            answered.append(took)
    return answered


def summary(samples: list[float]) -> tuple[float, float, float]:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return statistics.median(ordered), p99, ordered[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--level", default="master")
    parser.add_argument("--matches", type=int, default=2)
    parser.add_argument("--replies", type=int, default=60, help="timed replies per match")
    args = parser.parse_args()
    library = find_libfaketime()
    if library is None:
        sys.exit("needs libfaketime (Debian: apt-get install libfaketime)")
    clock = BotClock(Path(tempfile.mkdtemp(prefix="ballcourt-clock-")) / "faketime", library)
    load_before = os.getloadavg()[0]
    # Timed replies, the clock's cost against the floor: Discord's limits off in both, so
    # their waits are not counted as either's.
    benches = {
        "sandbox clock": start_bench(
            name="sandbox", environment=clock.environment(), rate_limits=False
        )
    }
    try:
        benches["plain (floor)"] = start_bench(name="plain", rate_limits=False)
    except BaseException:
        stop_bench(benches["sandbox clock"])
        raise
    samples: dict[str, list[float]] = {name: [] for name in benches}
    missed: dict[str, list[str]] = {name: [] for name in benches}

    async def run() -> None:
        for match in range(args.matches):
            for name, bench in benches.items():
                try:
                    samples[name] += await play_against_computer(
                        bench, args.level, match, args.replies
                    )
                except DiscordViolation as error:  # e.g. no answer within Discord's 3 s
                    missed[name].append(str(error).splitlines()[-1].strip())

    try:
        asyncio.run(run())
    finally:
        for bench in benches.values():
            stop_bench(bench)
    print(
        f"machine: {os.cpu_count()} cores; load average {load_before:.1f} before, "
        f"{os.getloadavg()[0]:.1f} after"
    )
    print(f"click -> card shows the {args.level} computer's reply, {args.matches} matches each")
    floor = summary(samples["plain (floor)"])
    for name, figures in samples.items():
        for violation in missed[name]:
            print(f"{name:<14} a match stopped: {violation}")
        if not figures:
            continue
        median, p99, worst = summary(figures)
        print(
            f"{name:<14} median {median:7.1f} ms  p99 {p99:7.1f} ms  max {worst:7.1f} ms   "
            f"ratio to the floor: median {median / floor[0]:4.2f}, max {worst / floor[2]:4.2f}"
            f"   (n={len(figures)})"
        )


if __name__ == "__main__":
    main()
