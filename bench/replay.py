"""A long match's replay and highlight in each game, against the goals: the first frame as fast
as a turn, the highlight within Discord's 3 s (it is sent after a deferral) and under the
upload limit.

    python bench/replay.py [--runs N] [--games rocketball,rollerball,rollerball2]

Each game's long seeded match of computers (render/catalogue.py `finished_record(long=True)`:
Rocketball first to 9, the longest a challenge allows; Rollerball for 4 players to 5 points;
a whole Rollerball II match) is written as its finished record with names, as the host writes
it for `/GAME replay` (host/replays.py). Timed in a warm process (fonts and cached layers
loaded by one warm-up, as in a running bot), CPU time (time.process_time):

- a turn: the card's image of one step (render/replay.py `frame`, which is what the live card
  draws), median over steps across the match: the goal of the first frame;
- first frame: what `/GAME replay` costs before its card is sent (host/replays.py `draw` at
  the set-up: the record opened, its seed checked against the published commitment, the
  set-up played and drawn, the card built), for a record never shown before;
- the whole check (the engine's `verify`: every line replayed, the [Result] compared), which
  the host runs after the first card is sent and before any later step is shown, once per
  record (kept by its hash); and the positions played (the engine's `plays`) for reference;
- a replay click: one more step's frame of the prepared replay;
- the highlight: the moments chosen and drawn into one GIF (host/replays.py `moments`,
  render/replay.py `highlight`), from the prepared replay; its bytes against Discord's
  smallest upload limit (10 MiB: an unboosted server's, a user without Nitro).

Each line prints median and p95 in ms, the goal and the ratio (median / goal; at most 1.00
meets it).
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

from cogs.rocketball.presenter import RocketballAdapter
from cogs.rollerball.presenter import RollerballAdapter
from cogs.rollerball2.presenter import Rollerball2Adapter
from host import Match
from host.replays import draw, moments, of_match, plain, prepare
from render.catalogue import REPLAY_NAMES, REPLAY_SALT, finished_record
from render.replay import frame, highlight
from rules.face import engine_for

ADAPTERS = {
    "rocketball": RocketballAdapter(),
    "rollerball": RollerballAdapter(),
    "rollerball2": Rollerball2Adapter(),
}
UPLOAD_LIMIT = 10 * 1024 * 1024  # bytes: Discord's smallest (no boost, no Nitro)
DEFERRED_GOAL_MS = 3000.0  # Discord waits 3 s for the deferral; the highlight comes after it


def cpu_ms(work: Callable[[], object]) -> float:
    start = time.process_time()
    work()
    return (time.process_time() - start) * 1000


def line(label: str, samples: list[float], goal: float) -> None:
    samples = sorted(samples)
    median = statistics.median(samples)
    p95 = samples[min(len(samples) - 1, int(0.95 * len(samples)))]
    print(f"{label:<36}{median:>9.1f}{p95:>9.1f}{goal:>9.1f}{median / goal:>8.2f}{len(samples):>6}")


def bench(game: str, runs: int) -> None:
    adapter, engine = ADAPTERS[game], engine_for(game)
    text, published, state = finished_record(game, long=True)
    players = len(engine.outcome(state))
    match = Match(state, list(REPLAY_NAMES[:players]), REPLAY_SALT, published)
    key = iter(range(10**9))  # a new key each time: nothing kept from the run before

    def first() -> None:
        draw(of_match(adapter, match, next(key), text, []), 0)

    first()  # warm-up: fonts, cached layers
    ready = prepare(of_match(adapter, match, 0, text, []))
    replay = ready.replay
    replay.check()
    steps = random.Random(1).sample(range(1, len(replay)), min(runs * 2, len(replay) - 1))
    turns = [cpu_ms(lambda step=step: frame(replay, step)) for step in steps]
    goal = statistics.median(turns)
    verify = [cpu_ms(lambda: engine.verify(text)) for _ in range(runs)]
    plays = [cpu_ms(lambda: list(engine.plays(text))) for _ in range(runs)]
    firsts = [cpu_ms(first) for _ in range(runs)]
    chosen = [(index, plain(caption)) for index, caption in moments(ready)]
    gif = highlight(replay, chosen)
    highlights = [cpu_ms(lambda: highlight(replay, chosen)) for _ in range(max(3, runs // 5))]

    load = Path("/proc/loadavg").read_text().split()[0]
    print(
        f"\n{adapter.title}, a long match: {len(replay) - 1} record lines "
        f"({len(text):,} characters), {len(ready.milestones)} milestones; load average {load}"
    )
    print(f"{'CPU ms':<36}{'median':>9}{'p95':>9}{'goal':>9}{'ratio':>8}{'n':>6}")
    line("a turn (the step's card image)", turns, goal)
    line("first replay frame (all of it)", firsts, goal)
    line("whole check, after it (engine.verify)", verify, DEFERRED_GOAL_MS)
    line("  positions played (engine.plays)", plays, DEFERRED_GOAL_MS)
    line("a replay click (one frame)", [cpu_ms(lambda s=s: frame(replay, s)) for s in steps], goal)
    line(f"highlight ({len(chosen)} moments)", highlights, DEFERRED_GOAL_MS)
    print(
        f"{'highlight bytes':<36}{len(gif):>9,}{'':>9}{UPLOAD_LIMIT:>12,}"
        f"{len(gif) / UPLOAD_LIMIT:>8.3f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--games", default=",".join(ADAPTERS))
    args = parser.parse_args()
    for game in args.games.split(","):
        bench(game, args.runs)


if __name__ == "__main__":
    main()
