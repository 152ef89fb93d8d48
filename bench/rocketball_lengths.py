"""Rocketball game lengths per computer level (a benchmark, not a test):
`python bench/rocketball_lengths.py [--games 200] [--pairs easy-easy,strong-easy]`.

For each pairing, `--games` seeded games at the default target (first to 2), seats
alternating, played through `apply` with `choose_action`: the number of actions per game
(rolls and placements: two a round) as median, 90th percentile and maximum, the games the
first level won, and the stalls: games still running after LIMIT actions (stopped there and
counted at LIMIT) and the most actions any game took before its first goal.

The floor each pairing is compared to: the same levels' median when the second level faces a
player who picks uniformly among the legal actions (`random`): how long a game lasts when
only one side plays. Ratio = median / floor. The goals are absolute too: no game of two
computers stalls (every game ends before LIMIT actions), and no game with the easy level in it
passes MAX_GOAL actions (easy never lets a game stall; between the stronger levels both sides
defend well and games are long, docs/rules/rocketball.md "Computer opponent").

Head-to-head win rates for the stronger levels (medium-easy, strong-medium, master-strong,
...) are printed by the same pairings; bench/rocketball_engine.py has the decision times.

`--against REV` plays each level against the same level of the computer as it was at git
revision REV (rules/rocketball/ai.py read from git, the rest of the engine as it is now), e.g.
`--against main --pairs medium-medium,strong-strong`: "medium vs medium@main ... medium won
N/200" is how the new level fares against the old one.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.rocketball import apply, choose_action, legal_actions, new_game

ROOT = Path(__file__).resolve().parents[1]
#: level name -> a choose_action; "LEVEL@REV" levels come from git (--against)
CHOOSERS = {}


def chooser(level: str):
    """choose_action for `level`, or for "LEVEL@REV" the one of revision REV's ai.py."""
    if "@" not in level:
        return lambda state, rng: choose_action(state, level, rng)
    name, rev = level.split("@", 1)
    if rev not in CHOOSERS:
        source = subprocess.run(
            ["git", "show", f"{rev}:rules/rocketball/ai.py"],
            cwd=ROOT,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        spec = importlib.util.spec_from_loader(f"ai_at_{len(CHOOSERS)}", loader=None)
        assert spec is not None  # made from a name, with no loader to ask
        module = importlib.util.module_from_spec(spec)
        exec(compile(source, f"{rev}:rules/rocketball/ai.py", "exec"), module.__dict__)
        CHOOSERS[rev] = module.choose_action
    old = CHOOSERS[rev]
    return lambda state, rng: old(state, name, rng)


LIMIT = 6000
MAX_GOAL = 1000
PAIRS = (
    "random-easy",
    "easy-easy",
    "medium-easy",
    "random-medium",
    "medium-medium",
    "random-strong",
    "strong-easy",
    "strong-medium",
    "strong-strong",
    "master-strong",
    "random-master",
    "master-master",
)


def play(seed: int, north: str, south: str) -> tuple[int, str | None, int]:
    """One seeded game: (actions, winner "N"/"S" or None if stopped at LIMIT, actions played
    at 0-0, before the first goal)."""
    state, _ = new_game(seed)
    rng = random.Random(seed * 7 + 1)
    levels = {"N": north, "S": south}
    choosers = {
        seat: (lambda state, rng: rng.choice(legal_actions(state)))
        if level == "random"
        else chooser(level)
        for seat, level in levels.items()
    }
    actions = scoreless = 0
    while not state.over and actions < LIMIT:
        action = choosers[state.to_move](state, rng)
        state, _ = apply(state, action)
        actions += 1
        if state.score == {"N": 0, "S": 0}:
            scoreless = actions
    return actions, state.winner if state.over else None, scoreless


def pairing(first: str, second: str, games: int) -> dict:
    lengths, wins, stalls, scoreless = [], 0, 0, 0
    started = time.process_time()
    for seed in range(games):
        seat = "N" if seed % 2 == 0 else "S"
        other = "S" if seat == "N" else "N"
        levels = {seat: first, other: second}
        actions, winner, before_goal = play(seed, levels["N"], levels["S"])
        lengths.append(actions)
        wins += winner == seat
        stalls += winner is None
        scoreless = max(scoreless, before_goal)
    lengths.sort()
    return {
        "median": statistics.median(lengths),
        "p90": lengths[int(0.9 * (len(lengths) - 1))],
        "max": lengths[-1],
        "wins": wins,
        "stalls": stalls,
        "scoreless": scoreless,
        "seconds": time.process_time() - started,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--pairs", default=",".join(PAIRS))
    parser.add_argument("--against", default=None, help="a git revision: its levels second")
    args = parser.parse_args()
    pairs = [tuple(pair.split("-")) for pair in args.pairs.split(",")]
    if args.against:
        pairs = [(first, f"{second}@{args.against}") for first, second in pairs]
    floors: dict[str, float] = {}
    for first, second in pairs:
        result = pairing(first, second, args.games)
        if first == "random":
            floors[second] = result["median"]
        floor = floors.get(second)
        ratio = f", ratio {result['median'] / floor:.1f}" if floor else ""
        floor_text = f"floor (random vs {second}) {floor:g}" if floor else "floor not measured"
        goal = f" (goal <= {MAX_GOAL})" if "easy" in (first, second.split("@")[0]) else ""
        print(
            f"{first} vs {second}: actions per game median {result['median']:g}, p90 "
            f"{result['p90']}, max {result['max']}{goal}; {floor_text}{ratio}; "
            f"{first} won {result['wins']}/{args.games}; stalled (>= {LIMIT} actions) "
            f"{result['stalls']}; most actions at 0-0 {result['scoreless']} "
            f"({result['seconds']:.0f} s)",
            flush=True,
        )


if __name__ == "__main__":
    main()
