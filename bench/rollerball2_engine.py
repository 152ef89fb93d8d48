"""Benchmark: how long the Rollerball II engine takes to auto-play a whole match.

    python bench/rollerball2_engine.py [MATCHES]

Prints the median (and spread) of a full auto-played match (target: under 20 ms), the cost of one
copying apply() as the bot uses it per button press, and of a JSON round trip of the state.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.rollerball2 import (
    auto_play,
    choose_action,
    from_json,
    generate_roster,
    new_match,
    to_json,
)
from rules.rollerball2.engine import apply


def main() -> None:
    matches = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    generate_roster(0, "warm-up")  # load the content once, outside the timings
    timings = []
    cards = []
    for i in range(matches):
        home = generate_roster(i, "Houston")
        away = generate_roster(i, "Tokyo")
        state = new_match(i, home, away)
        start = time.perf_counter()
        final, _ = auto_play(state)
        timings.append((time.perf_counter() - start) * 1000)
        cards.append(final.fac_count)
    timings.sort()
    print(f"Full auto-played match ({matches} matches, {statistics.mean(cards):.0f} FACs avg):")
    print(
        f"  median {statistics.median(timings):.2f} ms, p10 {timings[len(timings) // 10]:.2f} ms, "
        f"p90 {timings[9 * len(timings) // 10]:.2f} ms (target < 20 ms)"
    )

    state = new_match(1, generate_roster(1, "Houston"), generate_roster(1, "Tokyo"))
    per_action = []
    while not state.over:
        action = choose_action(state)
        start = time.perf_counter()
        state, _ = apply(state, action)
        per_action.append((time.perf_counter() - start) * 1000)
    print(f"One apply() with its state copy: median {statistics.median(per_action):.3f} ms")

    start = time.perf_counter()
    for _ in range(50):
        text = json.dumps(to_json(state))
        from_json(json.loads(text))
    elapsed = (time.perf_counter() - start) * 1000 / 50
    print(f"JSON round trip of a finished match: {elapsed:.2f} ms ({len(text) // 1024} KiB)")


if __name__ == "__main__":
    main()
