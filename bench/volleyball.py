"""Volleyball engine figures: one round for 16 teams and a whole 16-team season.

    python bench/volleyball.py

Targets (issue 6): a round for 16 teams under 100 ms; a whole 16-team season under 3 s.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.volleyball.managers import (
    all_computer_orders,
    new_computer_league,
    play_computer_season,
)
from rules.volleyball.rounds import play_round

TEAMS = 16
REPEATS = 5


def best_of(repeats: int, action) -> float:
    """The fastest of `repeats` runs, in seconds (the least disturbed by the machine)."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    state = new_computer_league(TEAMS, seed=1)
    orders = all_computer_orders(state)
    round_seconds = best_of(REPEATS, lambda: play_round(state, orders))
    orders_seconds = best_of(REPEATS, lambda: all_computer_orders(state))
    print(f"round 1, {TEAMS} teams, play_round: {round_seconds * 1000:.1f} ms (target < 100 ms)")
    print(f"round 1, {TEAMS} computer managers' orders: {orders_seconds * 1000:.1f} ms")

    start = time.perf_counter()
    final, reports = play_computer_season(new_computer_league(TEAMS, seed=1))
    season_seconds = time.perf_counter() - start
    matches = sum(len(r.matches) for r in reports)
    rallies = sum(len(s.rallies) for r in reports for m in r.matches for s in m.sets)
    print(
        f"whole season, {TEAMS} teams, {len(reports)} rounds, {matches} matches, "
        f"{rallies} rallies, with computer managers: {season_seconds:.2f} s (target < 3 s)"
    )
    print(f"champion {final.table().standings()[0].team}, Galaxy Cup {final.cup.winner}")


if __name__ == "__main__":
    main()
