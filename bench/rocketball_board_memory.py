"""Rocketball boards for many pairs of players in one process: what the drawing caches keep.

    .venv/bin/python bench/rocketball_board_memory.py [--pairs 1500]

Draws the opening board of a plain and of an Assault match (whose legend names each ball's
owner) for `--pairs` pairs of players, each with names of their own, as a thousand matches in
play would; prints the process's resident set (VmRSS) before and after and the entries each
cache holds. Goal: the growth does not follow the number of players (one board weighs 0.5 MiB
in the round palette, 1.6 MiB in RGB).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from render.rocketball import board, paint, render_board  # noqa: E402
from rules.rocketball.engine import new_game  # noqa: E402
from rules.rocketball.state import Settings  # noqa: E402


def rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--pairs", type=int, default=1500)
    args = parser.parse_args()
    for assault in (False, True):
        state, _ = new_game(1, Settings(assault=assault))
        render_board(state, names={"N": "North", "S": "South"})
        before, started = rss_mib(), time.process_time()
        for index in range(args.pairs):
            render_board(state, names={"N": f"north {index}", "S": f"south {index}"})
        cpu = (time.process_time() - started) / args.pairs * 1000
        held = {
            name: cached.cache_info().currsize
            for name, cached in (
                ("static layers", board.static_palette),
                ("text blocks", paint.palette_block),
                ("line masks", paint._line_mask),
            )
        }
        print(
            f"{'Assault' if assault else 'plain'}: {args.pairs:,} pairs of players, RSS "
            f"{before:.1f} -> {rss_mib():.1f} MiB; {cpu:.1f} ms CPU a board; cached: "
            + ", ".join(f"{count} {name}" for name, count in held.items())
        )


if __name__ == "__main__":
    main()
