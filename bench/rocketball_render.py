"""Rocketball render benchmark: median time and size of the board PNG and the move GIF.

    python bench/rocketball_render.py [--repeat N]

Targets: board PNG median under 15 ms and under 150 KB; move GIF under 150 ms and
under 1 MB. ONE image per round (`render_round`), under 30 KB per round on average:
measured over every round of seeded computer games (strong against easy, plain rules, the
players' names on the board), printed on one line as `round image: N KB per round`. The busy board is a real position: a seeded random game with every chip variant,
played until the field is crowded; the GIF is the longest move (most steps) of those games.
The first render of a match setup also draws the static field and the palette (cached after);
that one-off cost is printed separately.
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

from render.rocketball import render_board, render_move_gif, render_round
from rules.rocketball.ai import choose_action
from rules.rocketball.engine import apply, legal_actions, new_game
from rules.rocketball.events import MoveEvent
from rules.rocketball.state import GameState, Settings

SETTINGS = Settings.with_variants(["bumpers", "twisters", "gusts", "barricades", "moguls"])


def busy_position(seed: int = 4, chips_wanted: int = 60) -> tuple[GameState, list[str]]:
    """A crowded field from a seeded random game, and the squares of its last move."""
    rng = random.Random(seed)
    for attempt in range(200):
        state, _ = new_game(seed + attempt, SETTINGS)
        path: list[str] = []
        while state.phase != "over":
            state, events = apply(state, rng.choice(legal_actions(state)))
            moves = [event for event in events if isinstance(event, MoveEvent)]
            if moves:
                path = [moves[0].start_square, *(step.square for step in moves[0].steps)]
            if len(state.chips) >= chips_wanted and state.phase == "roll":
                return state, path
    raise RuntimeError("no crowded position found")


def longest_move(settings: Settings, games: int = 30) -> tuple[GameState, list, int]:
    """The move with the most steps over some seeded random games: (state before, events, steps)."""
    best: tuple[GameState, list, int] | None = None
    for seed in range(games):
        rng = random.Random(seed)
        state, _ = new_game(seed, settings)
        while state.phase != "over":
            before = state
            state, events = apply(state, rng.choice(legal_actions(state)))
            steps = sum(len(event.steps) for event in events if isinstance(event, MoveEvent))
            if best is None or steps > best[2]:
                best = (before, events, steps)
    assert best is not None
    return best


def round_images(seeds: range) -> None:
    """Every round of seeded strong-vs-easy games drawn as its one round image."""
    names = {"N": "Computer (strong)", "S": "Alice"}
    sizes: list[int] = []
    times: list[float] = []
    kinds = {"round.gif": 0, "board.png": 0}
    for seed in seeds:
        state, _ = new_game(seed)
        rng = random.Random(seed)
        levels = {"N": "strong", "S": "easy"}
        while state.phase != "over":
            before, events = state, []
            state, new = apply(state, choose_action(state, levels[state.to_move], rng))
            events += new
            while state.phase not in ("roll", "over"):
                state, new = apply(state, choose_action(state, levels[state.to_move], rng))
                events += new
            start = time.perf_counter()
            data, filename = render_round(before, events, state, names)
            times.append((time.perf_counter() - start) * 1000)
            sizes.append(len(data))
            kinds[filename] += 1
    print(
        f"round image: {statistics.mean(sizes) / 1024:.1f} KB per round on average "
        f"(target < 30 KB; max {max(sizes) / 1024:.1f} KB, {len(sizes)} rounds of "
        f"{len(seeds)} seeded strong-vs-easy games, {kinds['round.gif']} GIFs and "
        f"{kinds['board.png']} PNGs; median {statistics.median(times):.0f} ms to draw)"
    )


def median_ms(work: Callable[[], bytes], repeat: int) -> tuple[float, int]:
    times = []
    size = 0
    for _ in range(repeat):
        start = time.perf_counter()
        size = len(work())
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), size


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeat", type=int, default=50)
    parser.add_argument("--round-games", type=int, default=4)
    args = parser.parse_args()
    if args.round_games > 0:
        round_images(range(1, args.round_games + 1))

    state, path = busy_position()
    names = {"N": "Alice", "S": "Bob"}
    start = time.perf_counter()
    render_board(state, highlight=path, names=names)
    first = (time.perf_counter() - start) * 1000
    board_ms, board_bytes = median_ms(
        lambda: render_board(state, highlight=path, names=names), args.repeat
    )
    print(f"first board render (draws and caches the static field): {first:.1f} ms")
    print(
        f"busy board PNG ({len(state.chips)} chips on the field): median {board_ms:.1f} ms, "
        f"{board_bytes / 1024:.1f} KB  (target < 15 ms, < 150 KB)"
    )
    assault = Settings.with_variants(["assault", "bumpers", "twisters", "gusts"])
    for label, settings in (("move GIF", SETTINGS), ("Assault move GIF", assault)):
        before, events, steps = longest_move(settings)
        gif_ms, gif_bytes = median_ms(
            lambda before=before, events=events: render_move_gif(before, events, names=names),
            max(10, args.repeat // 2),
        )
        goal = any(event.kind == "goal" for event in events)
        print(
            f"{label} ({steps} steps{', goal' if goal else ''}): median {gif_ms:.1f} ms, "
            f"{gif_bytes / 1024:.1f} KB  (target < 150 ms, < 1 MB)"
        )


if __name__ == "__main__":
    main()
