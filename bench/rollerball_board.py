"""Rollerball (board game) benchmark: image and computer-move speed, and the sensible computer's
win rate against three random-move computers.

    python bench/rollerball_board.py [--games 200] [--edition later|earlier|both]

Targets: board PNG median under 25 ms, movement GIF under 200 ms; a computer move (every
decision of the sensible seat over the seeded games, wall clock) with a 99th percentile under
20 ms and a maximum under 50 ms, printed with the ratio figure / goal (under 1 meets it) and the
processor time beside it; over 200 seeded 4-player games one sensible computer against three
random ones wins at least 60 %. The sensible seat rotates through the four seats; a shared win
at the turn limit is not a win. Each figure is printed on its own line. --no-images skips the
images.
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

from render.rollerball import render_board, render_movement
from rules.rollerball import BallsMoved, Settings, actors, apply, choose_action, new_game, view_for


def play(
    seed: int,
    edition: str,
    smart: int,
    record: list | None = None,
    times: list | None = None,
    cpu: list | None = None,
):
    state, _ = new_game(seed, Settings(edition=edition, players=4))
    rng = random.Random(seed)
    while not state.over:
        seat = min(actors(state))
        view = view_for(state, seat)
        started, started_cpu = time.perf_counter(), time.process_time()
        action = choose_action(view, rng, "sensible" if seat == smart else "random")
        if times is not None and cpu is not None and seat == smart:
            times.append(time.perf_counter() - started)
            cpu.append(time.process_time() - started_cpu)
        state, events = apply(state, action, seat)
        if record is not None:
            record.extend((state, event) for event in events if isinstance(event, BallsMoved))
    return state


def median_ms(samples: list[float]) -> float:
    return 1000 * statistics.median(samples)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--edition", choices=["later", "earlier", "both"], default="both")
    parser.add_argument("--no-images", action="store_true")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    print(f"machine: {os.cpu_count()} cores, load average {load:.1f} at the start (others' work")
    print("  counts in the wall-clock times; processor time does not)")
    if not args.no_images:
        images()
    editions = ["later", "earlier"] if args.edition == "both" else [args.edition]
    for edition in editions:
        computer(edition, args.games)
    return 0


def images() -> None:
    """Board PNG and movement GIF over 40 positions of one seeded game."""
    moves: list = []
    play(7, "later", 0, record=moves)
    sample = moves[:: max(1, len(moves) // 40)][:40]
    render_board(sample[0][0])  # fonts and the cached background, as in a running bot
    png_times, gif_times = [], []
    for state, moved in sample:
        view = view_for(state, None)
        started = time.perf_counter()
        render_board(view)
        png_times.append(time.perf_counter() - started)
        started = time.perf_counter()
        render_movement(view, moved)
        gif_times.append(time.perf_counter() - started)
    print(f"board PNG median: {median_ms(png_times):.1f} ms (target < 25 ms)")
    print(
        f"movement GIF median: {median_ms(gif_times):.1f} ms, max {1000 * max(gif_times):.1f} ms (target < 200 ms)"
    )


P99_GOAL_MS = 20.0
MAX_GOAL_MS = 50.0


def computer(edition: str, games: int) -> None:
    """The sensible computer's decision times and its wins against three random players."""
    times: list[float] = []
    cpu: list[float] = []
    wins = 0
    started = time.perf_counter()
    for game in range(games):
        smart = game % 4
        final = play(10_000 + game, edition, smart, times=times, cpu=cpu)
        wins += final.winners == [smart]
    elapsed = time.perf_counter() - started
    times.sort()
    cpu.sort()

    def p99(samples: list[float]) -> float:
        return 1000 * samples[int(0.99 * (len(samples) - 1))]

    wall_p99, wall_max = p99(times), 1000 * times[-1]
    print(
        f"{edition} edition computer move over {len(times)} decisions: median "
        f"{median_ms(times):.2f} ms; 99th percentile {wall_p99:.1f} ms (goal < {P99_GOAL_MS:.0f} "
        f"ms, ratio {wall_p99 / P99_GOAL_MS:.2f}); max {wall_max:.1f} ms (goal < "
        f"{MAX_GOAL_MS:.0f} ms, ratio {wall_max / MAX_GOAL_MS:.2f}); processor time: median "
        f"{median_ms(cpu):.2f} ms, 99th percentile {p99(cpu):.1f} ms, max {1000 * cpu[-1]:.1f} ms"
    )
    print(
        f"{edition} edition sensible vs 3 random: {wins}/{games} wins = "
        f"{100 * wins / games:.1f} % (target >= 60 %; {elapsed:.0f} s)"
    )


if __name__ == "__main__":
    sys.exit(main())
