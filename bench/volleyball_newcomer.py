"""A newcomer's first Volleyball league, scripted through the local fake Discord with the real
bot.py, measured as the newcomer lives it: how many clicks and how many messages each step
takes, and how tall the tallest message is on a 390-px phone (its screen is 844 px tall).

    .venv/bin/python bench/volleyball_newcomer.py

A league of four seats (three computer teams). The newcomer asks for a team made for them
(`/volleyball team create make_me_a_team:True`) and sends the form as it is, then gives round
1's orders with the orders editor (opened on the starting line-up, saved as it is) and round
2's with the card's Repeat last orders; an admin plays each round with run-now. Then the
sandbox's page (the fake Discord's own client) is opened in a headless Chromium at 390 x 844
as the newcomer and every message of the channel they see (the public posts, the league's
card and their own private answers) is measured.

Each figure is printed with its goal (docs/rules/volleyball.md, "A newcomer's league") and
the ratio; each message's screenshot is left in bench/out/newcomer/. Needs Chromium and Playwright (requirements-dev.txt), as tests/sandbox does.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from fakediscord import web  # noqa: E402
from fakediscord.botproc import BotProcess  # noqa: E402
from fakediscord.driver import DiscordDriver  # noqa: E402
from fakediscord.server import FakeDiscord  # noqa: E402
from tests.e2e.phone import PHONE, message_heights  # noqa: E402

LEAGUE = "Newcomer League"
SHOTS = REPO / "bench" / "out" / "newcomer"  # each message as the phone shows it
# Goals: a round's orders in at most 2 clicks; a team in at most 2; every message at most one
# phone screen tall.
GOALS = {"team": 2, "round": 2, "height": PHONE["height"]}


def line(name: str, figure: float, goal: float, unit: str) -> str:
    ratio = figure / goal if goal else float("inf")
    verdict = "meets" if ratio <= 1 else "MISSES"
    return f"{name:<50} {figure:>6.0f} {unit:<9} goal at most {goal:>4.0f}  ratio {ratio:4.2f} ({verdict})"


class Newcomer:
    """The driver as one user: their clicks (slash commands, buttons, menus, forms sent) and
    the messages they receive (answers only they see, DMs, and the channel's posts)."""

    def __init__(self, discord: DiscordDriver, fake: FakeDiscord, user) -> None:
        self.discord, self.fake, self.user = discord, fake, user
        self.clicks = 0

    async def slash(self, *args, **kwargs):
        self.clicks += 1
        return await self.discord.slash(*args, user=self.user, **kwargs)

    async def click(self, *args, **kwargs):
        self.clicks += 1
        return await self.discord.click(*args, user=self.user, **kwargs)

    async def submit_modal(self, *args, **kwargs):
        self.clicks += 1
        return await self.discord.submit_modal(*args, user=self.user, **kwargs)

    def messages_since(self, marker: int) -> int:
        """Messages created after `marker` that the newcomer sees: theirs or public, in the
        guild's channels and their DMs."""

        def count() -> int:
            seen = 0
            for message_id, meta in self.fake.message_meta.items():
                if message_id <= marker or meta.deleted:
                    continue
                if meta.ephemeral_for in (None, self.user.id):
                    seen += 1
            return seen

        return self.fake.call_sync(count)

    def newest(self) -> int:
        return self.fake.call_sync(lambda: max(self.fake.message_meta, default=0))


async def play(discord: DiscordDriver, bot: BotProcess, fake: FakeDiscord) -> dict[str, int]:
    general = discord.default_channel
    owner = fake.owner
    nia = Newcomer(discord, fake, fake.add_user("nia"))
    figures: dict[str, int] = {}
    await discord.slash("volleyball league create", user=owner, name=LEAGUE, teams=4)

    marker = nia.newest()
    form = await nia.slash("volleyball team create", make_me_a_team=True)
    joined = await nia.submit_modal(form, {})
    assert "joins" in joined.content, joined.content
    await discord.fake.settle()
    await asyncio.sleep(0.5)  # the private answers after the public one
    figures["team clicks"], figures["team messages"] = nia.clicks, nia.messages_since(marker)
    await discord.slash("volleyball league start", user=owner)

    for number in (1, 2):
        await discord.fake.settle()
        nia.clicks, marker = 0, nia.newest()
        card = [m for m in discord.channel_messages(general) if m.embeds][-1]
        if number == 1:
            editor = await nia.click(card, "Edit with menus")
            saved = await nia.click(editor, "Save orders")
        else:
            saved = await nia.click(card, "Repeat last orders")
        said = "\n".join([saved.text, *(f.text for f in saved.followups)])
        assert "accepted" in said, said
        figures[f"round {number} clicks"] = nia.clicks
        await discord.slash("volleyball round run-now", user=owner, timeout=60)
        await discord.wait_for_dm(
            nia.user, lambda m, n=number: f"round {n} of {LEAGUE}" in m.content, timeout=60
        )
        await asyncio.sleep(1.0)  # the round's post and the card posted again
        figures[f"round {number} messages"] = nia.messages_since(marker)
    return {**figures, "user": nia.user.id, "channel": general.id}


def measure() -> tuple[dict[str, int], list]:
    """The league played (`play`'s figures) and every message the newcomer sees, measured on
    the phone (tests/e2e/phone.py `message_heights`, tallest first)."""
    fake = FakeDiscord(guild_name="Ballcourt Bench")
    general = fake.add_channel("general")
    fake.start(setup_app=lambda app: web.setup(app, fake, web.SandboxControls()))
    folder = Path(tempfile.mkdtemp(prefix="ballcourt-bench-"))
    bot = BotProcess(
        fake,
        database_path=folder / "bench.db",
        log_path=folder / "bot.log",
        extra_env={"GAME_SEED": "390", "LOG_LEVEL": "WARNING"},
    )
    bot.start()
    try:
        discord = DiscordDriver(fake, general)
        figures = asyncio.run(play(discord, bot, fake))
        measured = message_heights(fake.port, figures["user"], figures["channel"], SHOTS)
    finally:
        bot.stop()
        fake.stop()
    return figures, measured


def main() -> None:
    figures, measured = measure()
    print("A newcomer's league of four (a team made for them, two rounds), per step:")
    print(
        line(
            "  team (Make me a team, the form sent): clicks",
            figures["team clicks"],
            GOALS["team"],
            "clicks",
        )
    )
    print(f"  team: messages the newcomer sees                  {figures['team messages']:>6}")
    for number in (1, 2):
        how = "orders editor opened and saved" if number == 1 else "Repeat last orders"
        print(
            line(
                f"  round {number} ({how}): clicks",
                figures[f"round {number} clicks"],
                GOALS["round"],
                "clicks",
            )
        )
        print(
            f"  round {number}: messages the newcomer sees               {figures[f'round {number} messages']:>6}"
        )
    print()
    print(
        f"On a {PHONE['width']}-px phone (the page of the fake Discord, Chromium), {len(measured)} messages:"
    )
    tallest = measured[0]
    print(line("  tallest message", tallest.height, GOALS["height"], "px"))
    print(f"      | {tallest.text[:70]}")
    editor = next((m for m in measured if "against a neutral side" in m.text), None)
    if editor is not None:
        print(line("  the orders editor", editor.height, GOALS["height"], "px"))
        text, *rows = editor.parts
        print(f"      | its text {text} px, its rows of menus and buttons {rows} px")
    for shown in measured[:5]:
        print(f"  {shown.height:>5} px  {shown.text[:70]}")


if __name__ == "__main__":
    main()
