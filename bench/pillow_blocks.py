"""Pillow's block allocator on the heaviest image the bot draws often (the Rocketball move GIF):
bot.py sets `Image.core.set_blocks_max` at start-up only because this shows it pays.

    .venv/bin/python bench/pillow_blocks.py [--rounds 15]

Alternates rounds with the allocator's cache off (0 blocks) and on (PILLOW_BLOCKS_MAX), in one
process, so a busy machine slows both alike; prints the median of each.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from PIL import Image  # noqa: E402

from bot import PILLOW_BLOCKS_MAX  # noqa: E402
from render.rocketball import render_move_gif  # noqa: E402
from rules.rocketball import Roll, apply, new_game  # noqa: E402


def main(rounds: int) -> None:
    state, _ = new_game(5)
    _, events = apply(state, Roll())
    samples: dict[int, list[float]] = {0: [], PILLOW_BLOCKS_MAX: []}
    for _ in range(rounds):
        for blocks in samples:
            Image.core.set_blocks_max(blocks)
            for _ in range(5):
                started = time.perf_counter()
                render_move_gif(state, events)
                samples[blocks].append((time.perf_counter() - started) * 1000)
    for blocks, times in samples.items():
        print(f"move GIF with set_blocks_max({blocks}): median {statistics.median(times):.1f} ms")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    main(parser.parse_args().rounds)
