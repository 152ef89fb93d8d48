"""Hidden information in a Volleyball league, the strong way (docs/rules/volleyball.md, "What
the public sees"): the same seeded league is played twice through the fake Discord,
the two runs differing only in one manager's secrets (her sponsor, a spying order with player
detail, her ageing split, and so her money, her team sheet and her spy report). Everything
anyone else can see (the channel's posts with their images and the card, the other manager's
DMs) must be identical in both runs, byte for byte, up to the deadlines' timestamps (the runs
start at different moments).
"""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3

import pytest

from fakediscord import Upload
from rules.volleyball import AgeingSplit, LeagueState, ageing_split_problems

pytestmark = pytest.mark.e2e

LEAGUE = "Hidden League"
ROSTER = "\n".join(
    [
        "Anna Visser A 12 8",
        "Bram de Wit B 6 6",
        "Cees Jansen B 5 3",
        "Dirk Smit C 7 7",
        "Eva Bakker C 11 7",
        "Femke Mol D 9 15",
        "Gijs Kok E 3 6",
        "Hans Berg E 4 5",
    ]
)
TIMESTAMP = re.compile(r"<t:\d+(:[tTdDfFR])?>")


@pytest.fixture(scope="module")
def bot_env() -> dict[str, str]:
    return {"GAME_SEED": "4747"}


def state_of(bot) -> LeagueState:
    with sqlite3.connect(bot.database_path) as conn:
        (row,) = conn.execute("SELECT state FROM volleyball_leagues").fetchall()
    return LeagueState.from_dict(json.loads(row[0]))


def seen(message) -> dict:
    """What a user sees of a message, timestamps aside: text, embeds, buttons, each
    attachment's bytes."""
    embeds = json.loads(TIMESTAMP.sub("<t>", json.dumps(message.embeds, sort_keys=True)))
    for embed in embeds:
        embed.pop("timestamp", None)
    return {
        "content": TIMESTAMP.sub("<t>", message.content),
        "embeds": embeds,
        "buttons": [(b.label, b.custom_id, b.disabled) for b in message.buttons],
        "files": [(a.filename, hashlib.sha256(a.data).hexdigest()) for a in message.attachments],
    }


def ageing_line(state: LeagueState, team_name: str, choice: int) -> str:
    """An AGEING line for Anna Visser the rules accept: the `choice`-th legal split."""
    team = state.league.team(team_name)
    assert team is not None
    legal = [
        loss
        for loss in range(0, 15)
        if not ageing_split_problems(team, [AgeingSplit("Anna Visser", loss)])
    ]
    return f"AGEING: Anna Visser OL {legal[choice]}"


async def play_league(discord, bot, alice, bob, owner, general, secret: int) -> dict:
    """The league from its creation to the next season; alice's secrets by `secret`.
    Returns what bob (or anyone in the channel) saw."""
    channel_marker = discord.last_message(general).id if discord.channel_messages(general) else 0
    dms = discord.dm_messages(bob)
    dm_marker = dms[-1].id if dms else 0
    await discord.slash(
        "volleyball league create", user=owner, name=LEAGUE, teams=2, every_hours=24
    )
    form = await discord.slash("volleyball team create", user=alice)
    await discord.submit_modal(form, {"name": "Red Rockets", "players": ROSTER}, user=alice)
    rival = next(t.name for t in state_of(bot).league.teams if t.manager_id is None)
    await discord.slash("volleyball take-seat", user=bob, team=rival)
    await discord.slash("volleyball league start", user=owner)
    await discord.wait_for_message(
        general,
        lambda m: bool(m.embeds) and "orders due" in m.embeds[0].get("description", ""),
        timeout=20,
    )
    while not state_of(bot).season_over:
        state = state_of(bot)
        number = state.league.round_number
        spied = next(
            f.match_number for f in state.fixtures(number, "league") if rival in (f.home, f.away)
        )
        lines = (
            f"SPONSOR: Champion Cola\nSPY: {rival} match {spied} detail"
            if secret
            else "SPONSOR: Set Point Sports"
        )
        for user, text in ((alice, lines), (bob, "")):
            modal = await discord.slash("volleyball orders send", user=user)
            sent = await discord.submit_modal(modal, {"lines": text}, user=user)
            assert "accepted" in sent.text + "".join(f.text for f in sent.followups)
        await discord.slash("volleyball round run-now", user=owner, timeout=20)
        for user in (alice, bob):
            await discord.wait_for_dm(
                user, lambda m, n=number: f"round {n} of {LEAGUE}" in m.content, timeout=20
            )
    line = ageing_line(state_of(bot), "Red Rockets", secret)
    upload = await discord.slash(
        "volleyball orders upload", user=alice, file=Upload("ageing.txt", line.encode())
    )
    assert "accepted" in upload.content, upload.content
    await discord.slash("volleyball round run-now", user=owner, timeout=20)
    for user in (alice, bob):
        await discord.wait_for_dm(user, lambda m: "season 2 begins in" in m.content, timeout=20)
    await discord.wait_for_message(
        general,
        lambda m: bool(m.embeds) and "Season 2, round 1" in m.embeds[0].get("description", ""),
        timeout=20,
    )
    alice_dms = [m for m in discord.dm_messages(alice) if m.id > dm_marker]
    return {
        "channel": [seen(m) for m in discord.channel_messages(general) if m.id > channel_marker],
        "bob": [seen(m) for m in discord.dm_messages(bob) if m.id > dm_marker],
        "alice": "\n".join(m.content for m in alice_dms),
    }


async def test_what_others_see_is_the_same_whatever_one_managers_secrets(
    discord, bot, alice, bob, owner, general
):
    first = await play_league(discord, bot, alice, bob, owner, general, secret=1)
    # the same league again from scratch: a new database, the same seed
    bot.start_afresh()
    second = await play_league(discord, bot, alice, bob, owner, general, secret=0)
    # the secrets did differ: alice's own DMs say so (her spy report, her money, her ageing)
    assert "Spy report on" in first["alice"] and "Spy report on" not in second["alice"]
    assert first["alice"] != second["alice"]
    assert len(first["channel"]) == len(second["channel"]) > 4
    for one, other in zip(first["channel"], second["channel"], strict=True):
        assert one == other
    assert first["bob"] == second["bob"] and first["bob"]
