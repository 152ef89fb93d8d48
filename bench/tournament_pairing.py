"""Swiss pairing speed (a benchmark, not a test): `python bench/tournament_pairing.py`.

A 1,000-player Swiss (ratings 1000-2400, seeded) is played for --rounds rounds (default 11,
a long open's length), each game's result drawn from a seeded Elo expectation, and the pairing
of every round is timed (CPU time, time.process_time). The goal (docs/rules/tournaments.md
"Swiss"): pairing one round under 1 s. Prints each round's time, the slowest against the goal,
and the repeat meetings and side imbalances the pairings made (both expected 0).
Options: --players N (default 1000), --rounds N, --seed N.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.tournament import Entrant, Game, histories, pair_swiss

GOAL_SECONDS = 1.0


def expected(rating: float, other: float) -> float:
    """The chance that `rating` beats `other` (the logistic curve of a 400-point scale): the
    simulated results, not a rating of the bot's."""
    return 1 / (1 + 10 ** ((other - rating) / 400))


def main() -> None:
    parser = argparse.ArgumentParser(description="Swiss pairing speed.")
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    rng = random.Random(options.seed)
    entrants = [Entrant(f"p{n}", rng.uniform(1000, 2400)) for n in range(options.players)]
    rating = {entrant.id: entrant.rating for entrant in entrants}
    games: list[Game] = []
    times = []
    repeats = imbalanced = 0
    for round_number in range(1, options.rounds + 1):
        past = histories(entrants, games)
        started = time.process_time()
        pairing = pair_swiss(entrants, games, round_number)
        elapsed = time.process_time() - started
        times.append(elapsed)
        repeats += sum(1 for a, b in pairing.tables if b in past[a].opponents)
        for game in pairing.games():
            if game.decided:
                games.append(game)
                continue
            first, second = game.seats
            chance = expected(rating[first], rating[second])
            draw = rng.random()
            points = 1.0 if draw < chance - 0.05 else 0.5 if draw < chance + 0.05 else 0.0
            games.append(Game(round_number, game.seats, (points, 1.0 - points)))
        print(f"round {round_number:2d}: {elapsed * 1000:7.1f} ms")
    imbalanced = sum(1 for h in histories(entrants, games).values() if abs(h.balance) > 1)
    slowest = max(times)
    verdict = "meets" if slowest < GOAL_SECONDS else "MISSES"
    print(
        f"pairing a {options.players}-player Swiss round: slowest {slowest:.3f} s "
        f"(goal < {GOAL_SECONDS:.0f} s: {verdict}); mean {sum(times) / len(times):.3f} s"
    )
    print(f"repeat meetings: {repeats}; players with sides off by more than one: {imbalanced}")


if __name__ == "__main__":
    main()
