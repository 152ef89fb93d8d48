"""A newcomer's first Rocketball match, as the sandbox offers it (a benchmark, not a test):
`python bench/rocketball_newcomer.py [--games 100] [--levels easy,medium,strong,master]`.

The newcomer starts `/rocketball play-computer level:L` (first to 2, no variants) and presses
only the card's **Suggested** move until the match ends. Played with the engine alone: each
click is one action of the newcomer's (the d4 is rolled for them as their turn begins, so a
roll costs no click; a pass or an aim would be a click of its own). For each level, over
`--games` seeded matches (the newcomer North, the computer South, as the command seats them):

- clicks per match, median and 90th percentile, the goal being a median of at most GOAL_CLICKS
  against medium (half of the 324 clicks counted by hand before the roll was made for the
  player and the suggestion attacked);
- "before": the same matches as they were played before, the Roll pressed every round and the
  suggestion being the medium computer's choice;
- the newcomer's wins, and the rounds (rolls) per match.

Then the rounds per match between the levels (each level against itself, the computer's own
games: a stronger defence makes them longer), median and 90th percentile, for the labels of
the levels (docs/rules/rocketball.md "Computer opponent").

`--discord` also plays one match against medium through the fake Discord and counts the
newcomer's clicks and the messages in the thread (bench/rocketball_thread.py's harness).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.rocketball import GameState, apply, choose_action, new_game, suggest_action
from rules.rocketball.actions import Action, Roll
from rules.rocketball.state import PHASE_ROLL

GOAL_CLICKS = 160
LIMIT = 6000  # rounds: a match still running then is stopped and counted at its length
Chooser = Callable[[GameState, random.Random], Action]


def suggestion_rng(state: GameState) -> random.Random:
    """The card's suggestion is seeded from the position (cogs/rocketball/presenter.py)."""
    return random.Random(state.seed + len(state.history))


def newcomer_match(seed: int, level: str, *, before: bool) -> tuple[int, int, str | None]:
    """One match: (the newcomer's clicks, rounds, winner). `before`: the roll pressed and the
    medium computer's choice suggested, as it was."""
    state, _ = new_game(seed)
    rng = random.Random(seed * 7 + 1)
    clicks = rounds = 0
    while not state.over and rounds < LIMIT:
        if state.phase == PHASE_ROLL:
            rounds += 1
            if state.to_move == "N":
                clicks += before  # the Roll button, when the player pressed it
            state, _ = apply(state, Roll())
            continue
        if state.to_move == "N":
            clicks += 1
            if before:
                action = choose_action(state, "medium", suggestion_rng(state))
            else:
                action = suggest_action(state, suggestion_rng(state))
        else:
            action = choose_action(state, level, rng)
        state, _ = apply(state, action)
    return clicks, rounds, state.winner


def computers_match(seed: int, level: str) -> int:
    """Rounds of one match between two computers of `level`."""
    state, _ = new_game(seed)
    rng = random.Random(seed * 7 + 1)
    rounds = 0
    while not state.over and rounds < LIMIT:
        rounds += state.phase == PHASE_ROLL
        state, _ = apply(state, choose_action(state, level, rng))
    return rounds


def spread(values: list[int]) -> str:
    ordered = sorted(values)
    return f"median {statistics.median(ordered):g}, p90 {ordered[int(0.9 * (len(ordered) - 1))]}"


def discord_match(level: str) -> None:
    """One match against `level` through the fake Discord: the clicks and the thread's
    messages (the card is one message, redrawn; pings and goals are messages of their own)."""
    import asyncio

    from rocketball_thread import newcomer_thread

    clicks, messages = asyncio.run(newcomer_thread(level))
    print(
        f"through the fake Discord, against {level}: {clicks} clicks, {messages} messages in "
        "the thread (the card, a message a goal, the pings, the result)"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--levels", default="easy,medium,strong,master")
    parser.add_argument("--discord", action="store_true")
    parser.add_argument("--only", choices=("newcomer", "levels"), default=None)
    args = parser.parse_args()
    levels = args.levels.split(",")
    for level in levels if args.only != "levels" else ():
        started = time.process_time()
        now = [newcomer_match(seed, level, before=False) for seed in range(args.games)]
        was = [newcomer_match(seed, level, before=True) for seed in range(args.games)]
        goal = f" (goal: median <= {GOAL_CLICKS})" if level == "medium" else ""
        print(
            f"newcomer vs {level}: clicks per match {spread([c for c, _, _ in now])}{goal}; "
            f"before (Roll pressed, medium's choice suggested) {spread([c for c, _, _ in was])}; "
            f"rounds {spread([r for _, r, _ in now])}; the newcomer won "
            f"{sum(w == 'N' for _, _, w in now)}/{args.games} (before "
            f"{sum(w == 'N' for _, _, w in was)}) ({time.process_time() - started:.0f} s)",
            flush=True,
        )
    for level in levels if args.only != "newcomer" else ():
        started = time.process_time()
        rounds = [computers_match(seed, level) for seed in range(args.games)]
        print(
            f"{level} vs {level}: rounds per match {spread(rounds)} "
            f"({time.process_time() - started:.0f} s)",
            flush=True,
        )
    if args.discord:
        discord_match("medium")


if __name__ == "__main__":
    main()
