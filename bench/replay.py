"""A long match's replay and highlight in each game, against the goals: the first frame as fast
as a turn, the highlight within Discord's 3 s (it is sent after a deferral) and under the
upload limit.

    python bench/replay.py [--runs N] [--games rocketball,rollerball,rollerball2,volleyball]

Each game's long seeded match of computers (render/catalogue.py `finished_record(long=True)`:
Rocketball first to 9, the longest a challenge allows; Rollerball for 4 players to 5 points;
a whole Rollerball II match) is written as its finished record with names, as the host writes
it for `/GAME replay` (host/replays.py); Volleyball's is the longest match (in sets) of a
seeded league's first round, its record as the league stores it (cogs/volleyball/replays.py). Timed in a warm process (fonts and cached layers
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
import dataclasses
import functools
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
from cogs.volleyball import replays as volleyball_replays
from host import Match
from host.replays import Watched, draw, moments, of_match, plain, prepare
from render.catalogue import REPLAY_NAMES, REPLAY_SALT, finished_record
from render.replay import frame, highlight
from rules.face import engine_for, engine_named
from rules.volleyball import described, new_league, round_commitment, round_records
from rules.volleyball.rounds import play_round

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


VOLLEYBALL_SECRET = "5eed" * 8  # the seeded league's secret (ruling 57)


@functools.cache
def volleyball_match() -> Watched:
    """The longest match of a seeded 8-team league's first round, as /games' Replay opens it
    (played once: the league's round is no part of a replay's cost)."""
    state = new_league([], total_teams=8, seed=3, secret=VOLLEYBALL_SECRET)
    after, report = play_round(state, {})
    fixture, text = max(
        round_records(VOLLEYBALL_SECRET, report, after.league.results),
        key=lambda played: played[1].count("\nset "),
    )
    season, number = state.league.season, state.league.round_number
    return Watched(
        volleyball_replays.KIND,
        0,
        "volleyball",
        volleyball_replays.TITLE,
        text,
        round_commitment(VOLLEYBALL_SECRET, season, number),
        [],
        (fixture.home, fixture.away),
        described(text)[1],
        None,
        volleyball_replays.set_lines,
        say=volleyball_replays.say,
    )


def volleyball_watched(game_id: int) -> Watched:
    return dataclasses.replace(volleyball_match(), game_id=game_id)


def watched_of(game: str) -> tuple[Callable[[int], Watched], str]:
    """How the game's long match is opened (a new key each time: nothing kept from the run
    before), its title and its record's text."""
    if game == "volleyball":
        return volleyball_watched, volleyball_replays.TITLE
    adapter, engine = ADAPTERS[game], engine_for(game)
    text, published, state = finished_record(game, long=True)
    players = len(engine.outcome(state))
    match = Match(state, list(REPLAY_NAMES[:players]), REPLAY_SALT, published)
    return (lambda key: of_match(adapter, match, key, text, [])), adapter.title


def bench(game: str, runs: int) -> None:
    engine = engine_named(game)
    watched, title = watched_of(game)
    text = watched(0).text
    key = iter(range(1, 10**9))

    def first() -> None:
        draw(watched(next(key)), 0)

    first()  # warm-up: fonts, cached layers
    ready = prepare(watched(0))
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
        f"\n{title}, a long match: {len(replay) - 1} record lines "
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
    parser.add_argument("--games", default=",".join([*ADAPTERS, "volleyball"]))
    args = parser.parse_args()
    for game in args.games.split(","):
        bench(game, args.runs)


if __name__ == "__main__":
    main()
