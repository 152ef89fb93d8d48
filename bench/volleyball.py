"""Volleyball engine figures: one round for 16 teams, a whole 16-team season, the cost per
match by league size, and a whole 64-team season.

    python bench/volleyball.py            # everything
    python bench/volleyball.py season64   # the 64-team season only, one line

Targets: a round for 16 teams under 100 ms and a 16-team season under 3 s; a round
linear in its matches and a 64-team season under 15 s. Times are CPU time
of this process (time.process_time), so other work on a shared machine disturbs them less;
the load average is printed with them.
"""

from __future__ import annotations

import os
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


def divisions_for(teams: int) -> list[int] | None:
    """Divisions of 16 (docs/rules/volleyball.md ruling 38, Divisions: at most 16 teams a division)."""
    return [16] * (teams // 16) if teams > 16 else None


def season_seconds(teams: int, seed: int = 1) -> tuple[float, int, int]:
    """CPU seconds for a whole season of `teams` computer teams (orders included), its
    rounds and matches."""
    state = new_computer_league(teams, seed=seed, divisions=divisions_for(teams))
    start = time.process_time()
    _final, reports = play_computer_season(state)
    seconds = time.process_time() - start
    return seconds, len(reports), sum(len(r.matches) for r in reports)


def load() -> str:
    try:
        return f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    except OSError:
        return "load average unknown"


def season64() -> None:
    seconds, rounds, matches = season_seconds(64)
    print(
        f"64-team season (4 divisions of 16): {seconds:.1f} s CPU, {rounds} rounds, {matches} matches, "
        f"{seconds / matches * 1000:.2f} ms a match (target < 15 s; {load()})"
    )


def per_match_by_size() -> None:
    """Milliseconds per match (computer orders included) for the first four rounds."""
    figures = []
    for teams in (8, 16, 32, 64):
        state = new_computer_league(teams, seed=1, divisions=divisions_for(teams))
        start = time.process_time()
        matches = 0
        for _ in range(4):
            state, report = play_round(state, all_computer_orders(state))
            matches += len(report.matches)
        figures.append(f"{teams} teams {(time.process_time() - start) / matches * 1000:.2f}")
    print("ms per match, rounds 1-4: " + ", ".join(figures))


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
    per_match_by_size()
    season64()


if __name__ == "__main__":
    if sys.argv[1:] == ["season64"]:
        season64()
    else:
        main()
