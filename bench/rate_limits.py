"""Discord's rate limits on a busy server: 10 and 50 Rocketball matches between people, all played
at once, each player making their moves by clicks as soon as the card shows their turn (the
engine's strong computer chooses for them, seeded), through the local fake Discord with the real
bot.py. Printed for each number of matches: the requests per move, split into interaction
requests (the click's response and edits through its token, which Discord's global limit does
not count) and rate-limited ones; and for every bucket the bot used (fakediscord/ratelimits.py:
the global one, per channel, per interaction token), the most requests it took in one of its
windows against Discord's limit for that window (Rate Limits page: 50 a second global; the
per-route figures Discord's headers report).

    .venv/bin/python bench/rate_limits.py [--counts 10,50] [--moves 8]

The fake's limits are off while measuring (it counts, it does not refuse): the figures are what
the bot asks for, not what a throttled bot manages. Everything runs on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from match_card import (  # noqa: E402
    is_interaction_route,
    start_bench,
    stop_bench,
    stored,
)

from tests.e2e.cards import card_game_id  # noqa: E402


def usage_lines(usage: dict[str, int], limits: dict[str, tuple[int, float]]) -> list[str]:
    lines = []
    for name in sorted(usage, key=lambda n: (n != "global", n)):
        limit, window = limits[name]
        used = usage[name]
        verdict = "within" if used <= limit else "OVER"
        lines.append(
            f"    bucket {name:<20} most in one {window:g} s window {used:4d}   "
            f"Discord's limit {limit:3d}   ratio {used / limit:4.2f} ({verdict})"
        )
    return lines


async def play_moves(bench, game_id: int, moves: int, rng: random.Random) -> int:
    """The match's players make up to `moves` moves, each once the card shows their turn."""
    from rules.rocketball import GameState, ai
    from tests.e2e.cards import current_card, posted
    from tests.e2e.rocketball_clicks import click_action

    thread = bench.fake.channel_handle(game_id_thread(bench, game_id))
    made = 0
    for _ in range(moves):
        card = await current_card(bench.discord, bench.bot, thread, game_id, timeout=60)
        status, state_json = stored(
            bench.bot,
            "SELECT status, json_extract(state, '$.engine') FROM games WHERE id = ?",
            game_id,
        )
        if status != "active":
            break
        state = GameState.from_json(state_json)
        user = bench.players[game_id][state.to_move]
        action = ai.choose_action(state, "strong", rng)
        await click_action(bench.discord, card, user, action, settle=False, timeout=60)
        await posted(bench.bot, game_id, timeout=60)
        made += 1
    return made


def game_id_thread(bench, game_id: int) -> int:
    (thread_id,) = stored(bench.bot, "SELECT thread_id FROM games WHERE id = ?", game_id)
    return thread_id


async def busy(bench, count: int, moves: int) -> list[str]:
    fake = bench.fake
    matches = await bench.start_matches(count)
    games = [card_game_id(card) for card, _ in matches]
    await fake.call(fake.settle)
    fake.rate_limits.reset_usage()
    before = len(fake.requests)
    made = await asyncio.gather(
        *(play_moves(bench, game, moves, random.Random(game)) for game in games)
    )
    await fake.call(fake.settle)
    routes = fake.requests[before:]
    on_token = sum(is_interaction_route(route) for route in routes)
    total = max(sum(made), 1)
    lines = [
        f"{count} matches played at once ({sum(made)} moves): interaction requests per move "
        f"{on_token / total:.2f}, rate-limited requests per move "
        f"{(len(routes) - on_token) / total:.2f} (goal 0.5)"
    ]
    return lines + usage_lines(fake.rate_limits.usage, fake.rate_limits.limits)


async def measure(bench, counts: list[int], moves: int) -> list[str]:
    lines = []
    for count in counts:
        lines += await busy(bench, count, moves)
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--counts", default="10,50")
    parser.add_argument("--moves", type=int, default=8, help="moves per match at most")
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    # Discord's limits off: the buckets count what the bot asks for, without a 429 that
    # would make it ask later (the figures compared with the limits)
    bench = start_bench(name="rate-limits", spec_check=False, rate_limits=False)
    try:
        lines = asyncio.run(measure(bench, [int(c) for c in args.counts.split(",")], args.moves))
    finally:
        stop_bench(bench)
    print(f"machine: {os.cpu_count()} cores; load average {load_before:.1f} before the run")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
