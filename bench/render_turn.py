"""Drawing a turn: the CPU time of each image a game draws for one turn, in a warm process.

    python bench/render_turn.py [--turns N]

For each game, the turns of a seeded match are drawn one after the other as the match host
draws them (the same render calls as the game's adapter in cogs/), after one warm-up turn (fonts,
cached backgrounds and palettes loaded, as in a running bot). The figure is the CPU time
(time.process_time) of one image: median and 95th percentile over the turns; the goal is 10 ms
for every turn image, and 150 ms for the whole Rollerball II box score (4 pages).
Each line prints the figure, the goal and their ratio (p95 / goal; at most 1.00 meets it).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from render.catalogue import (
    ROCKETBALL_NAMES,
    ROLLERBALL_NAMES,
    rocketball_busy,
    rocketball_rounds,
    rollerball2_match,
    rollerball_moves,
)

TURN_GOAL_MS = 10.0
BOX_SCORE_GOAL_MS = 150.0


def cpu_ms(work: Callable[[], object]) -> float:
    start = time.process_time()
    work()
    return (time.process_time() - start) * 1000


def report(label: str, samples: list[float], goal: float, note: str = "") -> None:
    samples = sorted(samples)
    p95 = samples[min(len(samples) - 1, int(0.95 * len(samples)))]
    median = statistics.median(samples)
    print(
        f"{label:<38}{median:>8.1f}{p95:>8.1f}{goal:>7.0f}{p95 / goal:>7.2f}"
        f"{len(samples):>6}  {note}"
    )


def timed(calls: Iterable[Callable[[], object]]) -> list[float]:
    calls = list(calls)
    calls[0]()  # warm-up: fonts, cached layers
    return [cpu_ms(call) for call in calls[1:]]


def rocketball(turns: int) -> None:
    from render.rocketball import render_board, render_round
    from render.rocketball.render import turn_squares

    rounds = rocketball_rounds(3, turns + 1)
    report(
        "Rocketball board PNG",
        timed(
            lambda after=after, events=events: render_board(
                after, highlight=turn_squares(events), names=ROCKETBALL_NAMES
            )
            for _, events, after in rounds
        ),
        TURN_GOAL_MS,
    )
    state, path = rocketball_busy()
    report(
        "Rocketball board PNG, 60 chips",
        timed([lambda: render_board(state, highlight=path, names=ROCKETBALL_NAMES)] * (turns + 1)),
        TURN_GOAL_MS,
    )
    report(
        "Rocketball round GIF (every round)",
        timed(
            lambda before=before, events=events, after=after: render_round(
                before, events, after, ROCKETBALL_NAMES
            )
            for before, events, after in rounds
        ),
        TURN_GOAL_MS,
    )


def rollerball(turns: int) -> None:
    from render.rollerball import render_board, render_movement

    for players, board in ((4, 9), (6, 11)):
        moves = rollerball_moves(players, board)[: turns + 1]
        report(
            f"Rollerball board PNG ({players} players, {board}x{board})",
            timed(lambda view=view: render_board(view, ROLLERBALL_NAMES) for view, _ in moves),
            TURN_GOAL_MS,
        )
    moves = rollerball_moves()[: turns + 1]
    report(
        "Rollerball movement GIF",
        timed(
            lambda view=view, moved=moved: render_movement(view, moved, ROLLERBALL_NAMES)
            for view, moved in moves
        ),
        TURN_GOAL_MS,
    )


def rollerball2(turns: int) -> None:
    import render.rollerball2 as rb2
    from rules.rollerball2 import generate_roster, new_match
    from rules.rollerball2.coach import choose_action
    from rules.rollerball2.content import load_content
    from rules.rollerball2.engine import apply

    content = load_content()
    state = new_match(1, generate_roster(31, "Houston"), generate_roster(32, "Tokyo"))
    tracks, sections, cards, extra = [], [], [], []
    while len(tracks) < turns + 1 and state.phase != "over":
        state, events = apply(state, choose_action(state))
        tracks.append(lambda state=state: rb2.render_track(state))
        read = [(e.fac, e.section) for e in events if e.kind == "card" and e.fac and e.section]
        if read:
            fac = content.fac(read[-1][0])
            sections.append(lambda fac=fac, h=read[-1][1]: rb2.render_fac_section(fac, h))
        rolls = [
            (roll, roll.number)
            for event in events
            for roll in event.rolls
            if roll.column in ("offense", "defense") and roll.number is not None
        ]
        if rolls:
            last, number = rolls[-1]
            card = state.team(last.side).roster.card(number)
            cards.append(
                lambda card=card, roll=last: rb2.render_player_card(card, (roll.column, roll.face))
            )
        for name in ("render_scoreboard", "render_roster"):
            if hasattr(rb2, name):
                extra.append((name, lambda state=state, name=name: getattr(rb2, name)(state)))
    report("Rollerball II track (every turn)", timed(tracks), TURN_GOAL_MS)
    for name in ("render_scoreboard", "render_roster"):
        calls = [call for label, call in extra if label == name]
        if calls:
            report(f"Rollerball II {name[7:]} (every turn)", timed(calls), TURN_GOAL_MS)
    report("Rollerball II FAC section", timed(sections), TURN_GOAL_MS)
    report("Rollerball II player card, row lit", timed(cards), TURN_GOAL_MS)
    _, _, final = rollerball2_match()
    boxes = timed([lambda: rb2.render_box_score_pages(final)] * 6)
    report("Rollerball II box score (4 pages)", boxes, BOX_SCORE_GOAL_MS)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--turns", type=int, default=40)
    args = parser.parse_args()
    print(f"{'image (CPU ms per image)':<38}{'median':>8}{'p95':>8}{'goal':>7}{'ratio':>7}{'n':>6}")
    rocketball(args.turns)
    rollerball(args.turns)
    rollerball2(args.turns)
    return 0


if __name__ == "__main__":
    sys.exit(main())
