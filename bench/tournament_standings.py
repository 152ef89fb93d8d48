"""Tournament standings speed (a benchmark, not a test): `python bench/tournament_standings.py`.

The standings with their tie-breaks (rules/tournament/standings.py: score, Buchholz,
Sonneborn-Berger, head to head, rating), as the tournament card computes them after every
result, for a tournament of 100,000 rated games: by default 2,000 players (ratings 1000-2400,
seeded) over 100 rounds, each round's pairs drawn at random and each result drawn from a seeded
Elo expectation, a draw one game in ten. Prints the median and the slowest of --repeat runs
(CPU time, time.process_time) against the goal (issue's figure: 20 ms). The leaderboards at
100,000 rated games are bench/leaderboard.py's.
Options: --players N, --rounds N, --repeat N, --seed N.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.tournament import Entrant, Game, standings

GOAL_MS = 20.0


def expected(rating: float, other: float) -> float:
    """The chance that `rating` beats `other` (a 400-point logistic curve): the simulated
    results, not a rating of the bot's."""
    return 1 / (1 + 10 ** ((other - rating) / 400))


def tournament(players: int, rounds: int, seed: int) -> tuple[list[Entrant], list[Game]]:
    rng = random.Random(seed)
    entrants = [Entrant(f"p{n}", rng.uniform(1000, 2400)) for n in range(players)]
    rating = {entrant.id: entrant.rating for entrant in entrants}
    games = []
    for round_number in range(1, rounds + 1):
        order = [entrant.id for entrant in entrants]
        rng.shuffle(order)
        for first, second in zip(order[::2], order[1::2], strict=False):
            draw = rng.random()
            if draw < 0.1:
                points = (0.5, 0.5)
            elif draw < 0.1 + 0.9 * expected(rating[first], rating[second]):
                points = (1.0, 0.0)
            else:
                points = (0.0, 1.0)
            games.append(Game(round_number, (first, second), points))
    return entrants, games


def main() -> None:
    parser = argparse.ArgumentParser(description="Tournament standings speed.")
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    entrants, games = tournament(options.players, options.rounds, options.seed)
    times = []
    for _ in range(options.repeat):
        start = time.process_time()
        order = standings(entrants, games, options.rounds)
        times.append((time.process_time() - start) * 1000)
    assert len(order) == options.players
    median, worst = statistics.median(times), max(times)
    print(
        f"standings of {len(entrants)} players, {len(games):,} games: median {median:.1f} ms, "
        f"slowest {worst:.1f} ms (goal: under {GOAL_MS:.0f} ms): "
        + ("met" if worst < GOAL_MS else "NOT met")
    )


if __name__ == "__main__":
    main()
