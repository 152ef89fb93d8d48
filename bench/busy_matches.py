"""A busy server: 1, 10 and 50 matches whose players click at the same moment, each waiting
for the next turn to show on the match's card, against the same requests with no drawing.

    .venv/bin/python bench/busy_matches.py [--game rocketball] [--counts 1,10,50] [--rounds 3]

Three real bots (bot.py in its own process, SQLite, each on its own local fake Discord) run side
by side: one as shipped; one whose drawing is replaced by fixed images of the usual size
(bench/fixed_turn_image.py, loaded only here through EXTRA_EXTENSIONS): the floor, everything a
turn costs but its images; and one that answers the click by sending the card back as it is with
those images (bench/bare_edit.py): the bare-edit floor, what answering a click with a card of
these bytes costs any bot on discord.py. The rounds alternate between the three, so all see the
same load from whatever else the machine runs.

The games (--game): Rocketball, every mover clicks "Roll the d4" (its card: the round GIF;
players who press Roll themselves, whose roll the seeded dice have decided already, so the
drawing worker draws the round while they look at the card, render/idle.py); rocketball-place,
every mover clicks the card's "Suggested: …" chip and the bot rolls the d4 for the next player
at once (the default, where nothing of the round is known before the click), in matches where
both players have placed a chip already (`match_card.in_play`), the suggested chip's round being
drawn ahead while they look at the card (render/rocketball/round.py); rocketball-other, the same
with the card's second button, the next best chip, whose round is drawn ahead after every
match's suggested one;
Rollerball, at a table of two clicked to its first workman's action, the player to act clicks
"Pass", which ends the turn, and the next begins with the balls moving (its card: the GIF of
their moves); Rollerball II, the coach of a solo match clicks "Next card" (its card: the
scoreboard and the section of the FAC read, two PNGs). Each bot first plays one match's click
untimed (its drawing workers start with its first turn). For each number of matches at once,
every match is started and shown first (not timed); a second later (BENCH_THINK seconds), as
players look at their cards before clicking, every mover clicks at once and each click is timed
until its card shows the turn (`match_card.rolls_at_once`). Printed: median and p99 over all
clicks of all rounds, the floor's, their ratio, and the goal: at 10 and 50 at once, at most
twice the bare-edit floor's median and p99 (the `x` column of the second table), and p99 under 1
s at 50 at once; when the cards showed, by tenths and quarters of the clicks; and the bot's CPU
time per click (user + system time of its process, every thread, from /proc), which other
sessions' load inflates much less, then by part: its event loop, its other threads, its drawing
workers; and the drawing workers' CPU in the second before the clicks (what they drew ahead).
The fake Discord runs in this process and shares the two cores with the bot; its check of every
request against Discord's OpenAPI description (about 1.5 ms of CPU a click, work real Discord
does elsewhere) is off unless --spec-check is given. Everything runs on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from figures import cpu_by_part, cpu_seconds, percentile  # noqa: E402
from match_card import rolls_at_once, start_bench, stop_bench  # noqa: E402

THINK = float(os.environ.get("BENCH_THINK", "1.0"))  # seconds from the cards shown to the clicks

GOALS = {  # (at most this many times the bare edit, p99 ms) by matches at once
    10: (2.0, None),
    50: (2.0, 1000.0),
}


# Each game's click, and what its card shows once the turn is drawn (None: any edit of it;
# a Rollerball II card shows the card read, which has no one word).
CLICKS = {
    "rocketball": ("Roll the d4", "rolls d4"),
    "rocketball-place": ("Suggested: …", None),
    "rocketball-other": ("#2", None),  # the card's second button: the next best chip
    "rollerball": ("Pass", None),
    "rollerball2": ("Next card", None),
}


class Server:
    """One fake Discord with its bot, and the figures measured on it."""

    def __init__(
        self,
        name: str,
        extensions: tuple[str, ...],
        *,
        spec_check: bool = False,
        render_processes: str = "auto",
        game: str = "rocketball",
    ) -> None:
        self.game = game
        self.name = name
        # the bare edit answers bare only while this file exists: for the timed clicks, not
        # for the clicks of a Rollerball table's set-up (bench/bare_edit.py)
        self.mark = Path(tempfile.mkdtemp(prefix="ballcourt-bench-")) / "timing"
        self.bench = start_bench(
            name=name,
            extensions=extensions,
            environment={
                "RENDER_PROCESSES": render_processes,
                "BENCH_GAME": game,
                "BENCH_BARE_MARK": str(self.mark),
            },
            spec_check=spec_check,
            # timed clicks of many matches at once: what the bot's own load costs, without
            # the waits Discord's limits add (bench/rate_limits.py counts those requests)
            rate_limits=False,
        )
        self.fake, self.bot = self.bench.fake, self.bench.bot
        self.waits: dict[int, list[float]] = {}
        self.cpu: dict[int, float] = {}
        self.parts: dict[int, dict[str, float]] = {}  # the CPU above, by part of the bot
        # the drawing workers' CPU while the players looked at their cards, before the clicks
        self.ahead: dict[int, float] = {}

    async def burst(self, count: int, *, timed: bool = True) -> None:
        label, shows = CLICKS[self.game]
        if self.game == "rollerball2":
            matches = await self.bench.start_rollerball2_matches(count)
        elif self.game == "rollerball":
            matches = await self.bench.start_rollerball_matches(count)
        else:
            press_roll = self.game == "rocketball"
            matches = await self.bench.start_matches(count, press_roll=press_roll)
            if not press_roll:
                matches = await self.bench.in_play(matches)
        # The players look at their cards before they click, as people do: what the bot does
        # between two turns (render/idle.py) is done by then, as between real players' clicks.
        pid = self.bot.process.pid  # type: ignore[union-attr]
        looking = cpu_by_part(pid)
        await asyncio.sleep(THINK)
        if not timed:
            await rolls_at_once(self.fake, matches, label=label, shows=shows)
            return
        self.mark.touch()
        before, parts = cpu_seconds(pid), cpu_by_part(pid)
        ahead = parts.get("drawing workers", 0.0) - looking.get("drawing workers", 0.0)
        self.ahead[count] = self.ahead.get(count, 0.0) + ahead
        waits = await rolls_at_once(self.fake, matches, label=label, shows=shows)
        self.cpu[count] = self.cpu.get(count, 0.0) + cpu_seconds(pid) - before
        kept = self.parts.setdefault(count, dict.fromkeys(parts, 0.0))
        for part, seconds in cpu_by_part(pid).items():
            kept[part] += seconds - parts.get(part, 0.0)
        self.mark.unlink()
        self.waits.setdefault(count, []).extend(waits)

    def stop(self) -> None:
        stop_bench(self.bench)
        shutil.rmtree(self.mark.parent, ignore_errors=True)


def spread(waits: list[float]) -> str:
    """When the clicks' cards showed, by the share of them shown: whether a burst is answered
    first come, first served (a tenth by a fraction of the whole) or all near its end."""
    shares = (0.1, 0.25, 0.5, 0.75, 0.9)
    return "  ".join(f"{p:.0%} {percentile(waits, p):6.1f}" for p in shares) + (
        f"  all {max(waits):6.1f} ms"
    )


def report(count: int, drawn: Server, floor: Server, rounds: int, *, goals: bool) -> None:
    """Median and p99 against `floor`'s; with `goals` (the bare-edit floor), each against the
    goal: a ratio of at most GOALS' and, at 50 at once, p99 under GOALS' milliseconds."""
    times, p99_goal = GOALS.get(count, (None, None))
    for name, p in (("median", 0.5), ("p99", 0.99)):
        figure, bottom = percentile(drawn.waits[count], p), percentile(floor.waits[count], p)
        against = ""
        if goals and times is not None:
            met = figure / bottom <= times and (
                name == "median" or p99_goal is None or figure < p99_goal
            )
            within = f", under {p99_goal:.0f} ms" if name == "p99" and p99_goal else ""
            against = f"goal x{times:.1f}{within}: {'meets' if met else 'misses'}"
        print(
            f"{count:>3} at once  {name:<6} {figure:8.1f} ms   floor {bottom:7.1f} ms  "
            f"x{figure / bottom:5.1f}   {against}"
        )
    for server in (drawn, floor):
        print(f"{count:>3} at once  {server.name:<6} {spread(server.waits[count])}")
    clicks = count * rounds
    cpu, cpu_floor = drawn.cpu[count] / clicks * 1000, floor.cpu[count] / clicks * 1000
    print(
        f"{count:>3} at once  bot CPU per click {cpu:6.1f} ms   floor {cpu_floor:6.1f} ms  "
        f"x{cpu / max(cpu_floor, 0.1):5.1f}   (n={len(drawn.waits[count])} clicks)"
    )
    for server in (drawn, floor):
        shares = ", ".join(
            f"{part} {seconds / clicks * 1000:.1f}" for part, seconds in server.parts[count].items()
        )
        print(f"{count:>3} at once  {server.name:<6} CPU per click by part: {shares} ms")
    print(
        f"{count:>3} at once  drawn  drawing workers' CPU before the clicks, while the players "
        f"looked (render/idle.py): {drawn.ahead[count] / clicks * 1000:.1f} ms per click"
    )


async def measure(servers: tuple[Server, ...], counts: list[int], rounds: int) -> None:
    for server in servers:  # each bot's first turn (its drawing workers start with it)
        await server.burst(1, timed=False)
    for _ in range(rounds):
        for count in counts:
            for server in servers:
                await server.burst(count)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--counts", default="1,10,50", help="matches clicking at once")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--game",
        choices=tuple(CLICKS),
        default="rocketball",
        help="rocketball: every mover rolls the d4 (players who press Roll themselves); "
        "rocketball-place: every mover clicks the suggested chip and the bot rolls the d4 for "
        "the next player (the default flow); rocketball-other: the same with the next best "
        "chip, the card's second button (drawn ahead after the suggestions); rollerball: the player to act passes the "
        "workman's action and the balls move; rollerball2: a solo match's coach turns the next "
        "card (its card: the scoreboard and the card or FAC read)",
    )
    parser.add_argument(
        "--spec-check",
        action="store_true",
        help="the fake checks every request against Discord's OpenAPI description (as in the "
        "tests): CPU on this machine that real Discord spends on its own",
    )
    parser.add_argument(
        "--render-processes",
        default="auto",
        help="the drawing bot's RENDER_PROCESSES (auto, the bot's default: a worker per core "
        "but one, at most two; 0: a thread); the floors draw nothing either way",
    )
    args = parser.parse_args()
    counts = [int(part) for part in args.counts.split(",")]
    load_before = os.getloadavg()[0]
    servers: list[Server] = []
    try:
        servers.append(
            Server(
                "drawn",
                (),
                spec_check=args.spec_check,
                render_processes=args.render_processes,
                game=args.game,
            )
        )
        # The floors draw nothing, in the bot's own process: the fixed image replaces the
        # presenter's drawing there, not in a drawing worker (which imports its own).
        for name, extension in (("floor", "bench.fixed_turn_image"), ("bare", "bench.bare_edit")):
            servers.append(
                Server(
                    name,
                    (extension,),
                    spec_check=args.spec_check,
                    render_processes="0",
                    game=args.game,
                )
            )
        asyncio.run(measure(tuple(servers), counts, args.rounds))
    finally:
        for server in servers:
            server.stop()
    drawn, floor, bare = servers
    print(
        f"{args.game}; machine: {os.cpu_count()} cores; load average {load_before:.1f} before the run, "
        f"{os.getloadavg()[0]:.1f} after ({args.rounds} rounds, drawn and floor alternating; "
        f"the fake's OpenAPI request check {'on' if args.spec_check else 'off'}; "
        f"RENDER_PROCESSES={args.render_processes})"
    )
    print("click -> card shows the turn (floor: the same clicks, the images not drawn)")
    for count in counts:
        report(count, drawn, floor, args.rounds, goals=False)
    print("the same clicks against the bare-edit floor (the same card read back and sent again")
    print("with images of the usual size: no match, no drawing; bench/bare_edit.py)")
    for count in counts:
        report(count, drawn, bare, args.rounds, goals=True)


if __name__ == "__main__":
    main()
