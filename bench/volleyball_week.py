"""A Volleyball manager's week, measured through the local fake Discord with the real bot.py:
what each league post and DM costs a reader (characters, messages, images), and how many
interactions a manager needs per round by each order route.

    .venv/bin/python bench/volleyball_week.py

An 8-team league, four managers (the rest computer teams), two rounds played with run-now and
the season's end; round 2's reminder (one manager reminded in the channel, one by DM). Printed with the goal each is held to (docs/rules/volleyball.md, "A
manager's week") and the ratio; the "before" figures are what a played-through season measured
with the previous layout: the public round summary about 4,900 characters in 89 lines, the
private round DM 3,300-4,700 characters over 2-3 messages, the season-end post 8,500
characters.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from fakediscord import Upload  # noqa: E402
from fakediscord.botproc import BotProcess  # noqa: E402
from fakediscord.driver import DiscordDriver  # noqa: E402
from fakediscord.server import FakeDiscord  # noqa: E402
from rules.volleyball import (  # noqa: E402
    LeagueState,
    RoundOrders,
    format_round_forms,
    round_fixtures,
    starting_lineup,
    team_fixtures,
)

LEAGUE = "Bench League"
ROSTERS = [
    "\n".join(
        f"{first} {last} {age} {ol} {dl}"
        for first, (age, ol, dl) in zip(
            ("Anna", "Bram", "Cees", "Dirk", "Eva", "Femke", "Gijs", "Hans"),
            (
                ("A", 12, 8),
                ("B", 6, 6),
                ("B", 5, 3),
                ("C", 7, 7),
                ("C", 11, 7),
                ("D", 9, 15),
                ("E", 3, 6),
                ("E", 4, 5),
            ),
            strict=True,
        )
    )
    for last in ("Visser", "Berg", "Mol", "Kok")
]


class Counted:
    """The driver, counting the interactions a manager makes."""

    def __init__(self, discord: DiscordDriver) -> None:
        self.discord = discord
        self.count = 0

    async def slash(self, *args, **kwargs):
        self.count += 1
        return await self.discord.slash(*args, **kwargs)

    async def click(self, *args, **kwargs):
        self.count += 1
        return await self.discord.click(*args, **kwargs)

    async def select(self, *args, **kwargs):
        self.count += 1
        return await self.discord.select(*args, **kwargs)

    async def submit_modal(self, *args, **kwargs):
        self.count += 1
        return await self.discord.submit_modal(*args, **kwargs)


def state_of(bot: BotProcess) -> LeagueState:
    with sqlite3.connect(bot.database_path) as conn:
        (row,) = conn.execute("SELECT state FROM volleyball_leagues").fetchall()
    return LeagueState.from_dict(json.loads(row[0]))


def filled_forms(state: LeagueState, team_name: str) -> str:
    team = state.league.team(team_name)
    assert team is not None
    allowance = state.league.config.home_advantage_points(state.league.round_number)
    fixtures = team_fixtures(round_fixtures(state, state.league.round_number), team_name)
    matches = [
        starting_lineup(
            team,
            opponent=f.away if f.home == team_name else f.home,
            home=f.home == team_name,
            match_number=f.match_number,
            home_advantage=allowance,
        )
        for f in fixtures
    ]
    return format_round_forms(team, fixtures, RoundOrders(team=team_name, matches=matches))


def line(name: str, figure: float, goal: float, unit: str, *, at_most: bool = True) -> str:
    ratio = figure / goal if goal else float(figure == 0)
    verdict = "ok" if (figure <= goal if at_most else figure >= goal) else "MISSED"
    bound = "at most" if at_most else "at least"
    return (
        f"{name:<52} {figure:>7.0f} {unit:<11} goal {bound} {goal:>5.0f}   "
        f"ratio {ratio:4.2f}  {verdict}"
    )


def accepted(reply) -> bool:
    return "accepted" in "\n".join([reply.text, *(f.text for f in reply.followups)])


async def measure(discord: DiscordDriver, bot: BotProcess, fake: FakeDiscord) -> None:
    general = discord.default_channel
    owner = fake.owner
    managers = [fake.add_user(name) for name in ("ann", "ben", "cas", "dee")]
    await discord.slash(
        "volleyball league create", user=owner, name=LEAGUE, teams=8, every_hours=24
    )
    for index, user in enumerate(managers):
        form = await discord.slash("volleyball team create", user=user)
        await discord.submit_modal(
            form, {"name": f"Team {'ABCD'[index]}", "players": ROSTERS[index]}, user=user
        )
    await discord.slash("volleyball league start", user=owner)
    await discord.wait_for_message(
        general, lambda m: bool(m.embeds) and "orders due" in m.embeds[0].get("description", "")
    )

    print("Interactions a manager needs for complete, legal orders for a round (each route):")
    ann, ben, cas, dee = managers
    counted = Counted(discord)

    # the orders form, opened prefilled (five full sets, home advantage spread) and sent
    counted.count = 0
    modal = await counted.slash("volleyball orders send", user=ann)
    assert accepted(await counted.submit_modal(modal, {}, user=ann))
    form_route = counted.count
    # the editor: opened on the starting line-up and saved as it is
    counted.count = 0
    editor = await counted.slash("volleyball orders edit", user=ben)
    assert accepted(await counted.click(editor, "Save orders", user=ben))
    editor_route = counted.count
    # shaping one set in the editor: players, positions, concept, points (the form's two)
    counted.count = 0
    editor = await counted.slash("volleyball orders edit", user=cas)
    names = [o.label.split(" (")[0] for o in editor.select("Players of set 1 (pick six)").options]
    picked = await counted.select(editor, "Players of set 1 (pick six)", names[:6], user=cas)
    positions = await counted.select(
        picked,
        "Positions (the others play Allround)",
        [f"{names[0]}: Setter", f"{names[1]}: Attacker"],
        user=cas,
    )
    concept = await counted.select(
        positions, "Concept and risk", ["NC (Neutral), risk 5"], user=cas
    )
    points = await counted.click(concept, "Points", user=cas)
    shaped = await counted.submit_modal(points, {"dp": "2 0"}, user=cas)
    one_set = counted.count - 1  # opening the editor is not part of shaping the set
    assert accepted(await counted.click(shaped, "Save orders", user=cas))
    # the seed's forms as a file: the printable forms, then the upload
    counted.count = 0
    forms = await counted.slash("volleyball orders form", user=dee)
    assert forms.attachments  # the manager fills the file in (here: the starting line-ups)
    text = filled_forms(state_of(bot), "Team D").encode()
    assert accepted(
        await counted.slash("volleyball orders upload", user=dee, file=Upload("f.txt", text))
    )
    upload_route = counted.count

    marker = discord.last_message(general)
    await discord.slash("volleyball round run-now", user=owner, timeout=30)
    sheets = {}
    for user in managers:
        sheets[user.id] = await discord.wait_for_dm(
            user, lambda m: "round 1 of Bench League" in m.content, timeout=30
        )
    posted = [m for m in discord.channel_messages(general) if m.id > marker.id and not m.embeds]
    post_chars = sum(len(m.content) for m in posted)
    images = sum(len(m.attachments) for m in posted)

    # round 2: last round's orders again in one click on the card
    card = [m for m in discord.channel_messages(general) if m.embeds][-1]
    counted.count = 0
    assert accepted(await counted.click(card, "Repeat last orders", user=ann))
    repeat_route = counted.count
    counted.count = 0
    assert accepted(await counted.slash("volleyball sponsor", user=ben, sponsor="Champion Cola"))
    single_order = counted.count

    # round 2's reminder: cas and dee have sent nothing; dee is reminded by DM (/settings me)
    await discord.slash("settings me", user=dee, ping="dm")
    marker = discord.last_message(general)
    with sqlite3.connect(bot.database_path) as conn:
        conn.execute(
            "UPDATE timers SET due_at = 0 WHERE id = (SELECT remind_timer FROM volleyball_leagues)"
        )
    reminder = await discord.wait_for_message(
        general, lambda m: "are due" in m.content, since=marker, timeout=30
    )
    by_dm = await discord.wait_for_dm(dee, lambda m: "are due" in m.content, timeout=30)
    await asyncio.sleep(0.5)
    reminders = [m for m in discord.channel_messages(general) if m.id > marker.id]
    assert cas.mention in reminder.content and dee.mention not in reminder.content

    print(f"  orders form, prefilled, sent as it is      {form_route} interactions")
    print(f"  orders editor, starting line-up saved      {editor_route} interactions")
    print(
        f"  orders editor, shaping one set             {one_set} interactions (players,"
        " positions, concept, the points form: as before; later sets are refilled when a"
        " change tires a player)"
    )
    print(
        f"  the seed's forms: printable form + upload  {upload_route} interactions"
        " (and editing the file)"
    )
    print(f"  Repeat last orders (round 2, the card)     {repeat_route} interaction")
    print(f"  one order line (sponsor, bid, spy, sell)   {single_order} interaction")
    print(line("  interactions for a round's orders, best route", repeat_route, 2, "clicks"))

    print()
    print(
        "What each post and DM costs its reader (round 1 of an 8-team league, 2 matches a round):"
    )
    print(line("  public round post: messages", len(posted), 1, "messages"))
    print(line("  public round post: characters (was 4,900)", post_chars, 2000, "chars"))
    print(
        f"  public round post: images                   {images} (each division's results"
        " and table, the cup when it played)"
    )
    for user in managers[:1]:
        own = [m for m in discord.dm_messages(user) if m.id >= sheets[user.id].id]
        chars = sum(len(m.content) for m in own)
        fenced = sum(m.content.count("```") for m in own)
        first3 = sheets[user.id].content.splitlines()[:3]
        print(line("  private sheet: messages (was 2-3)", len(own), 1, "messages"))
        print(line("  private sheet: characters (was 3,300-4,700)", chars, 2000, "chars"))
        print(line("  private sheet: code blocks (they scroll sideways)", fenced, 0, "fences"))
        says = [
            " won " in first3[0] or " lost " in first3[0],
            first3[1].startswith("Money "),
            first3[2].startswith("Next: "),
        ]
        print(
            line(
                "  private sheet: result, money, next in lines 1-3",
                sum(says),
                3,
                "of 3",
                at_most=False,
            )
        )
        for text in first3:
            print(f"      | {text[:110]}")

    print(line("  reminder in the channel: messages", len(reminders), 1, "messages"))
    print(line("  reminder in the channel: characters", len(reminder.content), 500, "chars"))
    print(line("  reminder by DM (ping: by DM): characters", len(by_dm.content), 500, "chars"))
    print(f"      | {reminder.content[:110]}")

    # to the season's end
    while not state_of(bot).season_over:
        number = state_of(bot).league.round_number
        await discord.slash("volleyball round run-now", user=owner, timeout=30)
        await discord.wait_for_dm(
            ann, lambda m, n=number: f"round {n} of Bench League" in m.content, timeout=30
        )
    marker = discord.last_message(general)
    await discord.slash("volleyball round run-now", user=owner, timeout=30)
    own = await discord.wait_for_dm(ann, lambda m: "season 2 begins in" in m.content, timeout=30)
    await asyncio.sleep(1.0)
    public = [m for m in discord.channel_messages(general) if m.id > marker.id and not m.embeds]
    private = [m for m in discord.dm_messages(ann) if m.id >= own.id]
    print()
    print("The season's end:")
    print(
        line(
            "  public post: characters (was 8,500)",
            sum(len(m.content) for m in public),
            4000,
            "chars",
        )
    )
    print(line("  public post: messages", len(public), 2, "messages"))
    print(line("  private DM: messages", len(private), 2, "messages"))


def main() -> None:
    fake = FakeDiscord()
    general = fake.add_channel("general")
    fake.start()
    folder = Path(tempfile.mkdtemp(prefix="ballcourt-bench-"))
    bot = BotProcess(
        fake,
        database_path=folder / "bench.db",
        log_path=folder / "bot.log",
        # a reminder made due fires within 0.2 s
        extra_env={"GAME_SEED": "22", "LOG_LEVEL": "WARNING", "TIMER_RECHECK_SECONDS": "0.2"},
    )
    bot.start()
    try:
        discord = DiscordDriver(fake, general)
        asyncio.run(measure(discord, bot, fake))
    finally:
        bot.stop()
        fake.stop()


if __name__ == "__main__":
    main()
