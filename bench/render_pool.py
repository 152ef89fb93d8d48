"""Where to draw turn images: a thread (the default) or warm worker processes (RENDER_PROCESSES).

    python bench/render_pool.py [--repeat 3] [--workers 2]

Many matches' turns arrive at once (1, 10, 50); each is drawn off the event loop as the match
host does (host/core.py `MatchCore._draw`): in a thread (asyncio.to_thread), or in a
ProcessPoolExecutor of `--workers` processes started and warmed (fonts, cached layers) before
the clock starts, the turn's state sent to it pickled and the image bytes sent back. The turns
are a mix of real ones: a Rocketball round GIF, a Rollerball board, a Rollerball II scoreboard.

Printed for each way and number of turns at once: the time from the turns arriving to each
image drawn (median and p99 over the turns), and the event loop's lag meanwhile (a task that
wakes every millisecond; its worst delay stands for a database save or another click waiting
for the loop: 1 ms saves once took 40-72 ms with 10 matches at once). The floor is the
drawing alone: the CPU time of the turns one after the other, divided by the cores. Best of
`--repeat` runs (other processes share the two cores).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import pickle
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from render.catalogue import (
    ROCKETBALL_NAMES,
    ROLLERBALL_NAMES,
    rocketball_rounds,
    rollerball2_match,
    rollerball_moves,
)


def turns() -> list[tuple]:
    """(kind, payload) of real turns: their states, as the host would send them."""
    rocket = [("rocketball", round_) for round_ in rocketball_rounds(3, 20)]
    roller = [("rollerball", view) for view, _ in rollerball_moves()[:20]]
    state, _, _ = rollerball2_match()
    rb2 = [("rollerball2", state)] * 20
    mixed = []
    for trio in zip(rocket, roller, rb2, strict=False):
        mixed.extend(trio)
    return mixed


def draw(kind: str, payload) -> bytes:
    """One turn's image: the render call a game's adapter makes."""
    if kind == "rocketball":
        from render.rocketball import render_round

        before, events, after = payload
        return render_round(before, events, after, ROCKETBALL_NAMES)[0]
    if kind == "rollerball":
        from render.rollerball import render_board

        return render_board(payload, ROLLERBALL_NAMES)
    from render.rollerball2 import render_scoreboard

    return render_scoreboard(payload)


def warm(_: int) -> int:
    for kind, payload in turns()[:6]:
        draw(kind, payload)
    time.sleep(0.2)  # hold this worker so the next warm-up goes to another
    return os.getpid()


async def lag_probe(stop: asyncio.Event, lags: list[float]) -> None:
    while not stop.is_set():
        start = time.perf_counter()
        await asyncio.sleep(0.001)
        lags.append((time.perf_counter() - start) * 1000 - 1)


async def burst(jobs: list[tuple], pool: ProcessPoolExecutor | None) -> tuple[list[float], float]:
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    lags: list[float] = []
    probe = asyncio.create_task(lag_probe(stop, lags))
    await asyncio.sleep(0.01)
    start = time.perf_counter()
    done: list[float] = []

    async def one(kind: str, payload) -> None:
        if pool is None:
            await asyncio.to_thread(draw, kind, payload)
        else:
            await loop.run_in_executor(pool, draw, kind, payload)
        done.append((time.perf_counter() - start) * 1000)

    await asyncio.gather(*(one(kind, payload) for kind, payload in jobs))
    stop.set()
    await probe
    return done, max(lags, default=0.0)


def p99(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    work = turns()
    for kind, payload in work:  # this process warm too (the thread draws here)
        draw(kind, payload)
    start = time.process_time()
    for kind, payload in work:
        draw(kind, payload)
    cpu_ms = (time.process_time() - start) * 1000 / len(work)
    sizes = {kind: len(pickle.dumps(payload)) for kind, payload in work}
    print(
        f"{os.cpu_count()} cores; one turn image: {cpu_ms:.1f} ms of CPU on average; pickled "
        f"state sent to a worker: "
        + ", ".join(f"{kind} {size / 1024:.0f} KB" for kind, size in sizes.items())
    )
    import multiprocessing

    pool = ProcessPoolExecutor(args.workers, mp_context=multiprocessing.get_context("forkserver"))
    list(pool.map(warm, range(args.workers)))
    print(
        f"{'turns at once':<14}{'way':<12}{'median ms':>10}{'p99 ms':>9}{'loop lag':>10}"
        f"{'floor ms':>10}{'ratio':>7}"
    )
    try:
        for at_once in (1, 10, 50):
            jobs = (work * (at_once // len(work) + 1))[:at_once]
            floor = cpu_ms * at_once / min(at_once, os.cpu_count() or 1)
            for way, executor in (("thread", None), (f"{args.workers} procs", pool)):
                best: tuple[list[float], float] | None = None
                for _ in range(args.repeat):
                    done, lag = asyncio.run(burst(jobs, executor))
                    if best is None or statistics.median(done) < statistics.median(best[0]):
                        best = (done, lag)
                assert best is not None
                done, lag = best
                print(
                    f"{at_once:<14}{way:<12}{statistics.median(done):>10.1f}{p99(done):>9.1f}"
                    f"{lag:>10.1f}{floor:>10.1f}{statistics.median(done) / floor:>7.2f}"
                )
    finally:
        pool.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
