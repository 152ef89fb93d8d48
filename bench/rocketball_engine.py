"""Rocketball engine figures (a benchmark, not a test): `python bench/rocketball_engine.py`.

Prints
- random full games per minute on one core (uniformly random legal actions, to the end),
  for the plain game and for a mix of variants, with actions per second and game length;
- the strong computer's win rate against the easy one over 200 seeded games (target >= 80 %)
  and against the medium one (what the two-ply look-ahead adds), with the time the strong
  level takes per decision.
Options: --games N (random games per setting, default 200), --duel N (default 200).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.rocketball import Settings, apply, choose_action, legal_actions, new_game


def random_games(settings: Settings, games: int) -> None:
    actions = rounds = 0
    started = time.process_time()
    for seed in range(games):
        state, _ = new_game(seed, settings)
        chooser = random.Random(seed)
        while not state.over:
            state, _ = apply(state, chooser.choice(legal_actions(state)))
            actions += 1
        rounds += state.rounds
    elapsed = time.process_time() - started
    name = ", ".join(settings.variant_names()) or "plain game"
    print(
        f"random games [{name}]: {games / elapsed * 60:,.0f} games/min, "
        f"{actions / elapsed:,.0f} actions/s, {rounds / games:.0f} rounds and "
        f"{actions / games:.0f} actions per game"
    )


def duel(games: int, opponent: str = "easy") -> None:
    wins = 0
    decision_times: list[float] = []
    started = time.process_time()
    for seed in range(games):
        strong = "N" if seed % 2 == 0 else "S"
        levels = {strong: "strong", ("S" if strong == "N" else "N"): opponent}
        state, _ = new_game(seed)
        rng = random.Random(seed * 7 + 1)
        while not state.over and state.rounds < 3000:
            level = levels[state.to_move]
            tick = time.process_time()
            action = choose_action(state, level, rng)
            if level == "strong" and state.phase == "place":
                decision_times.append(time.process_time() - tick)
            state, _ = apply(state, action)
        wins += state.winner == strong
    elapsed = time.process_time() - started
    print(
        f"strong vs {opponent}: strong won {wins}/{games} = {wins / games:.1%} "
        f"(seats alternate; target vs easy >= 80 %), {elapsed:.0f} s"
    )
    print(
        f"strong decision time: median {statistics.median(decision_times) * 1000:.1f} ms, "
        f"max {max(decision_times) * 1000:.0f} ms over {len(decision_times)} decisions"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--duel", type=int, default=200)
    args = parser.parse_args()
    if args.games > 0:
        random_games(Settings(), args.games)
        chips = ["bumpers", "twisters", "gusts", "moguls", "drifting_winds"]
        random_games(Settings.with_variants(chips), args.games)
        random_games(Settings.with_variants(["assault", "barricades"]), args.games)
    if args.duel > 0:
        duel(args.duel, "easy")
        duel(args.duel, "medium")


if __name__ == "__main__":
    main()
