"""How many messages a Rollerball II match leaves in its thread, per mode, through the local fake
Discord with the real bot.py in its own process, against the goals of the live match card: solo
at most 25 messages a match, coach against coach at most 40, simulated 3 (the card, the
periods' story and the result: the story was on the card, which made it 2,000 px tall on a phone;
everything else is redrawn in place on the card).

    .venv/bin/python bench/rollerball2_thread.py [--matches 1] [--style until|next|both]

Each match is between two freshly generated teams (GAME_SEED fixes the teams and the dice, so a
run plays the same matches) and is played with clicks on the live card only, by whoever the
stored match says must act now, as a player in a hurry would ("until": Play to next event
where it is offered; the decision's first button otherwise, "Roll on his card" for a
catcher's choice) or card by card ("next": Next card). Coach against coach is played twice:
each coach rolling his own die, and both leaving their dice to the bot from the start
(`bot_rolls`, then the other coach's toggle on the card). Both coaches click within seconds, so
no turn ping is due (a ping goes only to a coach not active in the match for five minutes).

Printed per mode and style: messages per match (the card, the milestones, pings, the result),
clicks per match and the wall time, each against its goal (ratio = figure / goal; at most 1
meets it). Everything runs on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from match_card import start_bench, stop_bench  # noqa: E402

from fakediscord.botproc import BotProcess  # noqa: E402
from fakediscord.driver import DiscordDriver, OptionValue  # noqa: E402
from fakediscord.server import FakeDiscord  # noqa: E402
from rules.rollerball2 import ENGINE  # noqa: E402
from tests.e2e.cards import card_game_id, current_card, is_card, is_result  # noqa: E402

GOALS = {"solo": 25, "coaches": 40, "coaches, the bot rolls": 40, "simulate": 3}
UNTIL = "Play to next event"
DECISION_FIRST = ("Roll on his card",)  # a catcher's choice: roll at once, as the default coach


@dataclass
class Played:
    """One match's thread."""

    messages: int = 0
    clicks: int = 0
    seconds: float = 0.0
    kinds: Counter[str] = field(default_factory=Counter)


def kind_of(message) -> str:
    if is_card(message):
        return "card"
    if is_result(message):
        return "result"
    if "your move" in message.content:
        return "ping"
    return "milestone"


class Bench:
    def __init__(self, discord: DiscordDriver, bot: BotProcess, fake: FakeDiscord) -> None:
        self.discord, self.bot, self.fake = discord, bot, fake
        self.channel = discord.default_channel
        self.teams = 0

    def stored(self, game_id: int):
        with sqlite3.connect(self.bot.database_path) as conn:
            status, state = conn.execute(
                "SELECT status, state FROM games WHERE id = ?", (game_id,)
            ).fetchone()
        return status, ENGINE.load(json.loads(state)["engine"])

    async def new_thread(self, known: int):
        while len(self.discord.threads(self.channel)) == known:
            await asyncio.sleep(0.01)
        return self.discord.threads(self.channel)[-1]

    async def teams_for(self, coaches) -> tuple[str, str]:
        names = []
        for coach in coaches:
            self.teams += 1
            name = f"Team{self.teams}"
            await self.discord.slash(
                "rollerball2 team create", user=coach, channel=self.channel, name=name
            )
            names.append(name)
        return names[0], names[1]

    async def one_match(self, mode: str, style: str) -> Played:
        coaches = [
            self.fake.add_user(f"coach{self.teams}a"),
            self.fake.add_user(f"coach{self.teams}b"),
        ]
        coaches_mode = mode.startswith("coaches")
        home, away = await self.teams_for(coaches if coaches_mode else [coaches[0]] * 2)
        started = time.perf_counter()
        known = len(self.discord.threads(self.channel))
        options: dict[str, OptionValue] = (
            {"bot_rolls": True} if mode == "coaches, the bot rolls" else {}
        )
        reply = await self.discord.slash(
            "rollerball2 match start",
            user=coaches[0],
            channel=self.channel,
            home=home,
            away=away,
            mode="coaches" if coaches_mode else mode,
            options=options,
        )
        if coaches_mode:
            await self.discord.click(reply, "Accept", user=coaches[1])
        thread = await self.new_thread(known)
        card = await self.discord.wait_for_message(thread, is_card, timeout=60, since=0)
        played = Played()
        game_id = card_game_id(card) if mode != "simulate" else 0
        if mode == "coaches, the bot rolls":
            card = await current_card(self.discord, self.bot, thread, game_id, timeout=60)
            toggle = next(b for b in card.button_labels if b.startswith("Bot rolls for"))
            await self.discord.click(card, toggle, user=coaches[1], timeout=60)
            played.clicks += 1
        while mode != "simulate":
            card = await current_card(self.discord, self.bot, thread, game_id, timeout=60)
            status, match = self.stored(game_id)
            if status != "active":
                break
            seat = min(ENGINE.actors(match))
            labels = card.button_labels
            wanted = (UNTIL,) if style == "until" else ("Next card",)
            label = next(
                (
                    b
                    for b in labels
                    if b in wanted or b in DECISION_FIRST or b.startswith("Roll the die")
                ),
                labels[0],
            )
            await self.discord.click(card, label, user=coaches[seat], timeout=60)
            played.clicks += 1
        await self.discord.wait_for_message(thread, is_result, timeout=120, since=0)
        played.seconds = time.perf_counter() - started
        messages = self.discord.channel_messages(thread)
        played.messages = len(messages)
        played.kinds = Counter(kind_of(m) for m in messages)
        return played


def line(name: str, figure: float, goal: float, unit: str = "") -> str:
    ratio = figure / goal if goal else float("inf")
    verdict = "meets" if ratio <= 1 else "misses"
    return f"{name:<52} {figure:7.1f}{unit}  goal {goal:g}{unit}  ratio {ratio:4.2f} ({verdict})"


async def measure(bench: Bench, matches: int, styles: list[str]) -> None:
    runs = [("simulate", "until")] + [
        (mode, style) for style in styles for mode in ("solo", "coaches", "coaches, the bot rolls")
    ]
    for mode, style in runs:
        played = [await bench.one_match(mode, style) for _ in range(matches)]
        label = mode if mode == "simulate" else f"{mode} ({style})"
        worst = max(p.messages for p in played)
        print(line(f"{label}: messages per match, worst of {matches}", worst, GOALS[mode]))
        kinds = sum((p.kinds for p in played), Counter())
        print(
            f"    median {statistics.median(p.messages for p in played):.0f} messages;"
            f" per match: "
            + ", ".join(
                f"{kinds[k] / matches:.1f} {k}" for k in ("card", "milestone", "ping", "result")
            )
            + f"; {statistics.median(p.clicks for p in played):.0f} clicks,"
            f" {statistics.median(p.seconds for p in played):.0f} s"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--matches", type=int, default=1, help="matches per mode and style")
    parser.add_argument("--style", choices=("until", "next", "both"), default="both")
    parser.add_argument("--seed", default="7", help="GAME_SEED: the teams and the dice")
    args = parser.parse_args()
    styles = ["until", "next"] if args.style == "both" else [args.style]
    started = time.perf_counter()
    started_bench = start_bench(name="rollerball2", environment={"GAME_SEED": args.seed})
    try:
        discord, bot, fake = started_bench.discord, started_bench.bot, started_bench.fake
        asyncio.run(measure(Bench(discord, bot, fake), args.matches, styles))
    finally:
        stop_bench(started_bench)
    print(f"(the whole run: {time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
