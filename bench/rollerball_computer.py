"""The Rollerball (board game) computer's decision time over many seeded positions: every table
size and board the bot offers, both editions, every seat played by the sensible computer.

    .venv/bin/python bench/rollerball_computer.py [--games 2] [--seed 500]

bench/rollerball_board.py times one sensible seat among three random ones on 4 players and 9 x 9;
here every seat decides as the sensible computer does in a match against the computer (so the
positions are the ones computers make for each other: more balls held, crowded boards), on 2 to
6 players, 9 x 9 and, for 5 and 6 players, 11 x 11. Each decision is the bot's call
(`choose_action` on the seat's `view_for`), timed in processor time (what other sessions' load
does not inflate) and wall time. Goal: p99 under 20 ms, maximum under 50 ms, printed
with the ratio figure / goal (at most 1 meets it). The slowest positions are printed with their
seed and turn so they can be replayed.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.rollerball import Settings, actors, apply, choose_action, new_game, view_for

P99_GOAL_MS = 20.0
MAX_GOAL_MS = 50.0
TABLES = [(players, 9) for players in range(2, 7)] + [(5, 11), (6, 11)]


def play(seed: int, settings: Settings, samples: list[tuple[float, float, str]]) -> None:
    """One all-sensible game; appends (processor ms, wall ms, where) per decision."""
    state, _ = new_game(seed, settings)
    rng = random.Random(seed)
    turn = 0
    while not state.over:
        seat = min(actors(state))
        view = view_for(state, seat)
        wall, cpu = time.perf_counter(), time.process_time()
        action = choose_action(view, rng, "sensible")
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        where = (
            f"{settings.edition} {settings.players}p {settings.board}x{settings.board} "
            f"seed {seed} decision {turn} ({type(action).__name__})"
        )
        samples.append((cpu * 1000, wall * 1000, where))
        state, _ = apply(state, action, seat)
        turn += 1


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="games per table and edition")
    parser.add_argument("--seed", type=int, default=500)
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    samples: list[tuple[float, float, str]] = []
    started = time.perf_counter()
    for edition in ("later", "earlier"):
        for players, board in TABLES:
            settings = Settings(edition=edition, players=players, board=board)
            for game in range(args.games):
                play(args.seed + game, settings, samples)
    elapsed = time.perf_counter() - started
    print(
        f"machine: {os.cpu_count()} cores; load average {load_before:.1f} before, "
        f"{os.getloadavg()[0]:.1f} after; {len(samples)} decisions in "
        f"{args.games * len(TABLES) * 2} games ({elapsed:.0f} s)"
    )
    for name, values in (
        ("processor time", [cpu for cpu, _, _ in samples]),
        ("wall time", [wall for _, wall, _ in samples]),
    ):
        p99, worst = percentile(values, 0.99), max(values)
        print(
            f"{name:<15} median {statistics.median(values):6.2f} ms   p99 {p99:6.2f} ms "
            f"(goal {P99_GOAL_MS:.0f}, ratio {p99 / P99_GOAL_MS:4.2f})   max {worst:6.2f} ms "
            f"(goal {MAX_GOAL_MS:.0f}, ratio {worst / MAX_GOAL_MS:4.2f})"
        )
    print("slowest decisions (processor ms):")
    for cpu, _wall, where in sorted(samples, reverse=True)[:5]:
        print(f"  {cpu:6.2f}  {where}")


if __name__ == "__main__":
    main()
