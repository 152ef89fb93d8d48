"""Pillow's block pool on the heaviest image the bot draws often (the Rocketball move GIF): what
it saves, against what it holds (bot.py leaves it off, as Pillow ships it).

    .venv/bin/python bench/pillow_blocks.py [--rounds 15]

Alternates rounds with the pool off (0 blocks) and on (8 and 64 blocks), in one process, so a
busy machine slows each alike; prints the median CPU and wall time of each. What the pool costs
is measured by bench/memory.py: a pooled block is resized to the next image's size, so the small
images the drawing caches keep sit in pieces of board-sized blocks.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from PIL import Image  # noqa: E402

from render.rocketball import render_move_gif  # noqa: E402
from rules.rocketball import Roll, apply, new_game  # noqa: E402

POOLS = (0, 8, 64)


def main(rounds: int) -> None:
    state, _ = new_game(5)
    _, events = apply(state, Roll())
    cpu: dict[int, list[float]] = {blocks: [] for blocks in POOLS}
    wall: dict[int, list[float]] = {blocks: [] for blocks in POOLS}
    for _ in range(rounds):
        for blocks in POOLS:
            Image.core.set_blocks_max(blocks)
            for _ in range(5):
                started, processor = time.perf_counter(), time.process_time()
                render_move_gif(state, events)
                cpu[blocks].append((time.process_time() - processor) * 1000)
                wall[blocks].append((time.perf_counter() - started) * 1000)
    for blocks in POOLS:
        print(
            f"move GIF with set_blocks_max({blocks}): median CPU "
            f"{statistics.median(cpu[blocks]):.1f} ms, wall {statistics.median(wall[blocks]):.1f} ms"
        )
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    main(parser.parse_args().rounds)
