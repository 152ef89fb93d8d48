"""Rocketball engine figures (a benchmark, not a test): `python bench/rocketball_engine.py`.

Prints, all CPU time on one core (time.process_time):
- PLAYOUT (target 10,000): random plain games played to the end through
  `rules.rocketball.playout.playout` (in place, no copies, no texts; the same games as the
  `apply` loop below, tests/rules/rocketball/test_playout.py), printed on one line as
  `playout: N random plain games/min`.
- RANDOM full games: both players pick uniformly among the legal actions
  (`random_action`, the same pick as `rng.choice(legal_actions(state))`) until the match
  ends. Such games are long (~900 rounds, ~1,800 actions: random chips rarely steer the ball
  into a goal), so games/min is also given per action (us/action) for comparison.
- REALISTIC games: computer against computer (strong vs easy, strong vs medium, easy vs
  easy). The actions of each game are recorded, then replayed through the engine alone
  (`legal_actions` + `apply` per action, what a host does each turn), so "engine games/min"
  excludes the computer's thinking; the thinking time is printed beside it.
- the computers against each other over 200 seeded games per pairing: medium-easy,
  strong-easy (target >= 80 %), strong-medium, master-strong (target >= 65 %), with the
  strong and master levels' decision times (median, p99, max; CPU time, the benchmark's own
  data frozen out of the garbage collector, see computer_games), and an Elo-style rating per
  level fitted to those results (`ratings ...`: the figures in rules/rocketball/ai.py's
  LEVEL_RATINGS).
Options: --games N (random games per setting, default 200), --duel N (computer games per
pairing, default 200).
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.rocketball import (
    Action,
    GameState,
    Settings,
    apply,
    choose_action,
    legal_actions,
    new_game,
    random_action,
)
from rules.rocketball.playout import playout


def random_games(settings: Settings, games: int) -> None:
    actions = rounds = 0
    started = time.process_time()
    for seed in range(games):
        state, _ = new_game(seed, settings)
        chooser = random.Random(seed)
        while not state.over:
            state, _ = apply(state, random_action(state, chooser))
            actions += 1
        rounds += state.rounds
    elapsed = time.process_time() - started
    name = ", ".join(settings.variant_names()) or "plain game"
    print(
        f"RANDOM full games [{name}]: {games / elapsed * 60:,.0f} games/min "
        f"({elapsed / actions * 1e6:.1f} us/action, {actions / elapsed:,.0f} actions/s), "
        f"{rounds / games:.0f} rounds and {actions / games:.0f} actions per game"
    )


def playout_games(games: int) -> None:
    actions = 0
    started = time.process_time()
    for seed in range(games):
        state, _ = new_game(seed)
        actions += playout(state, random.Random(seed))
    elapsed = time.process_time() - started
    print(
        f"playout: {games / elapsed * 60:,.0f} random plain games/min "
        f"({elapsed / actions * 1e6:.2f} us/action, {actions / games:.0f} actions per game; "
        f"target 10,000)"
    )


def engine_time(plays: list[tuple[GameState, Action]]) -> float:
    """CPU seconds the engine alone takes for these positions and actions: legal_actions (the
    host shows the options) and apply, as in a real match, without the computer's thinking."""
    started = time.process_time()
    for state, action in plays:
        legal_actions(state)
        apply(state, action)
    return time.process_time() - started


def computer_games(games: int, first: str, second: str) -> tuple[float, int]:
    """`first` against `second` over `games` seeded games, seats alternating: the win rate,
    the length of the games, engine games per minute, and the strong and master levels'
    decision times. Returns (first's score: wins + half the unfinished games, games).

    Garbage collection: the benchmark keeps every position it plays (for the engine figure),
    and a full collection scanning them would land inside some decision and be counted as
    thinking (it made the strong level's worst case read 1.8 s). So before each game the
    positions kept so far are collected and frozen (gc.collect(); gc.freeze()): collections
    of the garbage the computer itself makes still run, and are included in its times."""
    wins = unfinished = 0
    decision_times: dict[str, list[float]] = {"strong": [], "master": []}
    plays: list[tuple[GameState, Action]] = []
    thinking = 0.0
    for seed in range(games):
        gc.collect()
        gc.freeze()
        seat = "N" if seed % 2 == 0 else "S"
        levels = {seat: first, ("S" if seat == "N" else "N"): second}
        state, _ = new_game(seed)
        rng = random.Random(seed * 7 + 1)
        while not state.over and state.rounds < 3000:
            level = levels[state.to_move]
            tick = time.process_time()
            action = choose_action(state, level, rng)
            took = time.process_time() - tick
            thinking += took
            if level in decision_times and state.phase == "place":
                decision_times[level].append(took)
            plays.append((state, action))
            state, _ = apply(state, action)
        wins += state.winner == seat
        unfinished += not state.over
    gc.unfreeze()
    engine = engine_time(plays)
    per_game = len(plays) / games
    print(
        f"REALISTIC {first} vs {second}: {per_game:.0f} actions per game; engine "
        f"{games / engine * 60:,.0f} games/min ({engine / len(plays) * 1e6:.1f} us/action, "
        f"legal_actions + apply, no thinking); with the computers' thinking "
        f"{games / (engine + thinking) * 60:,.0f} games/min"
    )
    targets = {("strong", "easy"): " (target >= 80 %)", ("master", "strong"): " (target >= 65 %)"}
    unfinished_text = (
        f", {unfinished} stopped at 3000 rounds (half a win each)" if unfinished else ""
    )
    print(
        f"  {first} won {wins}/{games} = {wins / games:.1%}{targets.get((first, second), '')}, "
        f"seats alternate{unfinished_text}"
    )
    for level, times in decision_times.items():
        if times:
            times.sort()
            target = " (target: median < 0.5 ms, p99 < 5 ms)" if level == "strong" else ""
            print(
                f"  {level} decision time (CPU, GC frozen for the benchmark's own data): median "
                f"{statistics.median(times) * 1000:.2f} ms, p99 "
                f"{times[int(len(times) * 0.99)] * 1000:.2f} ms, max {times[-1] * 1000:.1f} ms "
                f"over {len(times)} decisions{target}"
            )
    return wins + unfinished / 2, games


def elo_ratings(results: list[tuple[str, str, float, int]], anchor: str = "easy") -> dict:
    """Elo-style ratings that best fit the pairings' scores (maximum likelihood of the
    logistic model P(a beats b) = 1 / (1 + 10 ** ((rb - ra) / 400))), `anchor` at 1000.

    Each pairing counts one extra drawn game, so a clean sweep (medium and strong beat easy
    200-0) gives a large but finite gap instead of an infinite one."""
    results = [(a, b, score + 0.5, games + 1) for a, b, score, games in results]
    levels = sorted({name for a, b, _, _ in results for name in (a, b)})
    ratings = dict.fromkeys(levels, 1000.0)
    for _ in range(20000):
        gradient = dict.fromkeys(levels, 0.0)
        for a, b, score, games in results:
            expected = games / (1 + 10 ** ((ratings[b] - ratings[a]) / 400))
            gradient[a] += score - expected
            gradient[b] -= score - expected
        for level in levels:
            ratings[level] += 2.0 * gradient[level] / max(1, len(results))
        shift = ratings[anchor] - 1000
        ratings = {level: value - shift for level, value in ratings.items()}
    return {level: round(value) for level, value in ratings.items()}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--duel", type=int, default=200)
    args = parser.parse_args()
    if args.games > 0:
        playout_games(args.games)
        random_games(Settings(), args.games)
        chips = ["bumpers", "twisters", "gusts", "moguls", "drifting_winds"]
        random_games(Settings.with_variants(chips), args.games)
        random_games(Settings.with_variants(["assault", "barricades"]), args.games)
    if args.duel > 0:
        results = []
        for first, second in (
            ("medium", "easy"),
            ("strong", "easy"),
            ("strong", "medium"),
            ("master", "strong"),
        ):
            score, games = computer_games(args.duel, first, second)
            results.append((first, second, score, games))
        ratings = elo_ratings(results)
        print(
            "ratings (Elo-style, easy = 1000, fitted to the pairings above): "
            + ", ".join(
                f"{level} {ratings[level]}" for level in ("easy", "medium", "strong", "master")
            )
        )


if __name__ == "__main__":
    main()
