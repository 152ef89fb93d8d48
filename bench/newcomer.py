"""A newcomer's first match in each of the four games, as the sandbox offers it: the clicks
it takes and the tallest card (Volleyball: message) on a 390 x 844 phone, each printed with
the goal it is compared to (a figure without a goal says so).

    .venv/bin/python bench/newcomer.py [--games 20] [--no-volleyball]

Clicks, with the engines alone over `--games` seeded matches (median and 90th percentile):
- Rocketball against the medium computer, pressing only the card's Suggested move (the d4
  rolls itself): bench/rocketball_newcomer.py's match; goal a median of 160 clicks.
- Rollerball, a table of 3 (the newcomer and two sensible computers, the earlier edition's
  default options): one click per decision of the newcomer's, made as the computer would;
  a move picked in stages (a card, then a square) costs more clicks, so this is a floor.
- Rollerball II, a solo match: the newcomer's decisions, made as the default coach would;
  one click each.
- Volleyball, a first round (bench/volleyball_newcomer.py, through the fake Discord with the
  real bot, one league): a team made for them and round 1's orders with the editor; goal 2
  clicks each.
Heights: the tallest card of a seeded match of each game (bench/phone_fit.py, the sandbox page
in Chromium) and the tallest Volleyball message the newcomer sees; goal one screen, 844 px.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.phone_fit import card_heights
from bench.rocketball_newcomer import GOAL_CLICKS, newcomer_match
from tests.sandbox.phone import SCREEN_HEIGHT, rollerball2_solo_options

LIMIT = 5000  # decisions: a match still running then is stopped and counted at its length


def decisions(engine, options: dict, seed: int, levels: dict[int, str]) -> int:
    """The newcomer's (seat 0) decisions in one seeded match, every seat played by the engine's
    computer at its level in `levels` (the newcomer's: what the card's buttons would pick)."""
    state, _ = engine.new_state(seed, options)
    rng = random.Random(seed * 7 + 1)
    count = 0
    while not engine.is_over(state) and count < LIMIT:
        seat = min(engine.actors(state))
        count += seat == 0
        state, _ = engine.apply(state, seat, engine.computer_action(state, seat, levels[seat], rng))
    return count


def spread(values: list[int]) -> tuple[float, int]:
    ordered = sorted(values)
    return statistics.median(ordered), ordered[int(0.9 * (len(ordered) - 1))]


def line(name: str, figure: float, goal: float | None, unit: str, note: str = "") -> str:
    if goal is None:
        return f"{name:<44} {figure:>7.0f} {unit:<7} no goal set {note}"
    ratio = figure / goal
    verdict = "meets" if ratio <= 1 else "misses"
    return f"{name:<44} {figure:>7.0f} {unit:<7} goal {goal:>4.0f}  ratio {ratio:4.2f} ({verdict}) {note}"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--no-volleyball", action="store_true", help="skip the bot's league")
    args = parser.parse_args()
    from rules.rollerball import ENGINE as ROLLERBALL
    from rules.rollerball2 import ENGINE as ROLLERBALL2

    seeds = range(1, args.games + 1)
    clicks: dict[str, tuple[list[int], float | None, str]] = {
        "Rocketball": (
            [newcomer_match(seed, "medium", before=False)[0] for seed in seeds],
            GOAL_CLICKS,
            "v medium, Suggested only",
        ),
        "Rollerball": (
            [
                decisions(ROLLERBALL, {"players": 3}, seed, dict.fromkeys(range(3), "sensible"))
                for seed in seeds
            ],
            None,
            "a table of 3, at least",
        ),
        "Rollerball II": (
            [
                decisions(ROLLERBALL2, rollerball2_solo_options(), seed, {0: "default coach"})
                for seed in seeds
            ],
            None,
            "solo",
        ),
    }
    print(f"A newcomer's first match, {args.games} seeded matches each (median, p90):")
    for game, (counts, goal, note) in clicks.items():
        median, p90 = spread(counts)
        print(line(f"  {game}: clicks", median, goal, "clicks", f"p90 {p90}; {note}"))
    tallest: dict[str, tuple[float, str]] = {
        game: max(heights) for game, heights in card_heights(per_kind=2).items()
    }
    if not args.no_volleyball:
        from bench.volleyball_newcomer import GOALS, measure

        figures, measured = measure()
        for step in ("team", "round 1"):
            goal = GOALS["team" if step == "team" else "round"]
            print(line(f"  Volleyball: {step}: clicks", figures[f"{step} clicks"], goal, "clicks"))
        tallest["Volleyball"] = max(tallest["Volleyball"], (measured[0].height, "a message"))
    print(f"On a 390 x {SCREEN_HEIGHT} phone (the sandbox page), the tallest card:")
    for game, (height, moment) in tallest.items():
        print(line(f"  {game}: tallest card", height, SCREEN_HEIGHT, "px", moment))
    return 0


if __name__ == "__main__":
    sys.exit(main())
