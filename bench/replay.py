"""A replay's first frame for a long match, against the goal: as fast as a turn.

    python bench/replay.py [--target N] [--runs N]

A long Rocketball match (the computer on both seats, first to `--target` goals, 9 by default:
the longest a challenge allows) is written as its finished record with names, as the host
writes it for `/rocketball replay` (host/replays.py). Timed in a warm process (fonts and
cached layers loaded by one warm-up, as in a running bot), CPU time (time.process_time):

- first frame: the record verified against the published commitment and played line by line
  (rules/replay.py `verified`, which the host caches per record afterwards) and the set-up's
  frame drawn (render/replay.py `frame`): what `/GAME replay` costs before its card is sent;
- a click: one more step's frame of the verified replay (the next click on an open card);
- the goal, a turn, measured in the same run: what the host's CPU does for one move of that
  match, the engine's `apply` and the card's image (`render_round`), median over its moves.

Each line prints median and p95 in ms, the goal and the ratio (median / goal; at most 1.00
meets it).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from render.replay import frame
from render.rocketball import render_round
from rules import records
from rules.replay import verified
from rules.rocketball import ENGINE, Settings

SALT = "0123456789abcdef0123456789abcdef"
NAMES = ["Alice", "Bob"]


def long_match(target: int, seed: int = 11) -> list[tuple[Any, int, Any, list, Any]]:
    """Every move of a computer-against-computer match: (before, seat, action, events, after)."""
    state, _ = ENGINE.new_state(seed, {"settings": Settings(target_score=target)})
    rng = random.Random(seed)
    moves = []
    while not ENGINE.is_over(state):
        seat = min(ENGINE.actors(state))
        before, action = state, ENGINE.computer_action(state, seat, "easy", rng)
        state, events = ENGINE.apply(state, seat, action)
        moves.append((before, seat, action, list(events), state))
    return moves


def cpu_ms(work: Callable[[], object]) -> float:
    start = time.process_time()
    work()
    return (time.process_time() - start) * 1000


def line(label: str, samples: list[float], goal: float) -> None:
    samples = sorted(samples)
    median = statistics.median(samples)
    p95 = samples[min(len(samples) - 1, int(0.95 * len(samples)))]
    print(f"{label:<34}{median:>9.1f}{p95:>9.1f}{goal:>9.1f}{median / goal:>8.2f}{len(samples):>6}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--target", type=int, default=9)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()

    moves = long_match(args.target)
    final = moves[-1][-1]
    text = ENGINE.record(final, salt=SALT, reveal=True, names=NAMES)
    published = records.commitment(ENGINE.name, ENGINE.seed_of(final), SALT)
    names: dict[str, str] = dict(zip(("N", "S"), NAMES, strict=True))

    def turn(before: Any, seat: int, action: Any) -> None:
        after, events = ENGINE.apply(before, seat, action)
        render_round(before, events, after, names)

    turn(*moves[0][:3])  # warm-up: fonts, cached layers
    sample = moves[:: max(1, len(moves) // 60)]
    turns = [cpu_ms(lambda move=move: turn(*move[:3])) for move in sample]
    goal = statistics.median(turns)

    replay = verified(text, published=published)
    frame(replay, 0)  # warm-up
    firsts = [
        cpu_ms(lambda: frame(verified(text, published=published), 0)) for _ in range(args.runs)
    ]
    steps = random.Random(1).sample(range(1, len(replay)), min(args.runs * 2, len(replay) - 1))
    clicks = [cpu_ms(lambda step=step: frame(replay, step)) for step in steps]

    load = Path("/proc/loadavg").read_text().split()[0]
    print(
        f"Rocketball, first to {args.target}: {len(replay) - 1} record lines "
        f"({len(text):,} characters); load average {load}"
    )
    print(f"{'CPU ms':<34}{'median':>9}{'p95':>9}{'goal':>9}{'ratio':>8}{'n':>6}")
    line("a turn (apply + card image)", turns, goal)
    line("first replay frame (verify+draw)", firsts, goal)
    line("a replay click (one frame)", clicks, goal)


if __name__ == "__main__":
    main()
