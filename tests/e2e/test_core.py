"""End-to-end tests of the core commands (/roll, /help, /about, /admin sync) as players and
the operator see them in Discord."""

from __future__ import annotations

import re

import pytest

from fakediscord import DriverError
from fakediscord.model import ADMINISTRATOR

pytestmark = pytest.mark.e2e

ROLL_3D6_PLUS_2 = re.compile(
    r"rolled `3d6\+2`: \[(?P<a>\d+), (?P<b>\d+), (?P<c>\d+)\] \+ 2 = \*\*(?P<total>\d+)\*\*$"
)


async def test_roll_shows_every_die_and_the_total_to_the_channel(discord, alice, general):
    reply = await discord.slash("roll", user=alice, notation="3d6+2")
    assert not reply.ephemeral  # everyone at the table sees the roll
    assert reply.content.startswith("🎲 ")
    assert alice.mention in reply.content
    match = ROLL_3D6_PLUS_2.search(reply.content)
    assert match, reply.content
    dice = [int(match[name]) for name in ("a", "b", "c")]
    assert all(1 <= die <= 6 for die in dice)
    assert int(match["total"]) == sum(dice) + 2
    assert discord.last_message(general).id == reply.id


async def test_roll_mixed_terms_shows_each_term(discord, bob):
    reply = await discord.slash("roll", user=bob, notation="1d8 + 1d6 - 1")
    match = re.search(
        r"rolled `1d8\+1d6-1`: \[(\d+)\] \+ \[(\d+)\] - 1 = \*\*(-?\d+)\*\*", reply.content
    )
    assert match, reply.content
    d8, d6, total = (int(group) for group in match.groups())
    assert 1 <= d8 <= 8 and 1 <= d6 <= 6
    assert total == d8 + d6 - 1


async def test_bad_notation_gets_an_ephemeral_explanation(discord, alice, general):
    before = [message.id for message in discord.channel_messages(general)]
    reply = await discord.slash("roll", user=alice, notation="3x6")
    assert reply.ephemeral
    assert "`3x6` is not dice notation I understand" in reply.content
    assert "`2d10`" in reply.content  # it says what is accepted
    # nothing was posted for the channel to see
    assert [message.id for message in discord.channel_messages(general)] == before


async def test_too_many_dice_is_refused_politely(discord, alice):
    reply = await discord.slash("roll", user=alice, notation="101d6")
    assert reply.ephemeral
    assert "Roll between 1 and 100 dice at a time, not 101." in reply.content


async def test_roll_works_in_a_dm_with_the_bot(discord, carol):
    """One die shows its face once: no sum that changes nothing ("[5] = 5 → 5")."""
    dm = discord.open_dm(carol)
    reply = await discord.slash("roll", user=carol, channel=dm, notation="d20")
    match = re.search(r"rolled `1d20`: \*\*(\d+)\*\*$", reply.content)
    assert match and 1 <= int(match[1]) <= 20
    assert [message.content for message in discord.dm_messages(carol)] == [reply.content]


async def test_help_pages_through_with_buttons(discord, alice, bob):
    first = await discord.slash("help", user=alice)
    assert first.ephemeral  # help does not clutter the channel
    [overview] = first.embeds
    assert overview["title"] == "Ballcourt: ball games in chat"
    games = [field["name"] for field in overview["fields"]]
    for title in ("Rollerball II", "Rollerball", "Volleyball", "Rocketball"):
        assert any(name.startswith(f"{title} (") for name in games)
    pages = int(re.fullmatch(r"Page 1 of (\d+)", overview["footer"]["text"])[1])
    assert first.button_labels[:2] == ["Previous", "Next"]  # then a button per game
    assert first.button("Previous").disabled
    with pytest.raises(DriverError, match="bob cannot see that ephemeral message"):
        await discord.click(first, "Next", user=bob)
    with pytest.raises(DriverError, match="disabled"):
        await discord.click(first, "Previous", user=alice)
    if pages == 1:
        assert first.button("Next").disabled
        return
    second = await discord.click(first, "Next", user=alice)
    assert second.response_type == 7  # the help message is edited in place
    assert second.id == first.id
    assert second.embeds[0]["title"].endswith(": commands")
    assert second.embeds[0]["footer"]["text"] == f"Page 2 of {pages}"
    assert not second.button("Previous").disabled
    back = await discord.click(second, "Previous", user=alice)
    assert back.embeds[0]["title"] == "Ballcourt: ball games in chat"


async def test_help_for_one_game(discord, alice):
    overview = (await discord.slash("help", user=alice)).embeds[0]
    playable = [f["name"] for f in overview["fields"] if "(`/" in f["name"]]
    coming = [f["name"] for f in overview["fields"] if "(coming soon)" in f["name"]]
    for name in playable:
        title = name.split(" (")[0]
        page = await discord.slash("help", user=alice, game=title)
        assert page.embeds[0]["title"] == f"{title}: commands"
        group = re.search(r"\(`(/[\w-]+)`\)", name)[1]
        assert f"`{group} " in page.embeds[0]["description"]  # lists the game's commands
    for name in coming:
        title = name.split(" (")[0]
        reply = await discord.slash("help", user=alice, game=title)
        assert reply.ephemeral
        assert f"{title} is not playable on this bot yet" in reply.content


async def test_about_reports_version_and_servers(discord, bob):
    reply = await discord.slash("about", user=bob)
    assert reply.ephemeral
    fields = {field["name"]: field["value"] for field in reply.embeds[0]["fields"]}
    assert re.fullmatch(r"\d+\.\d+\.\d+", fields["Version"])
    assert fields["Servers"] == "1"
    assert re.fullmatch(r"\d+h \d\dm \d\ds", fields["Uptime"])
    assert fields["Database"].endswith("KiB")


async def test_admin_sync_is_for_owners_only(discord, owner, alice):
    with pytest.raises(DriverError, match="cannot see /admin"):
        await discord.slash("admin sync", user=alice)
    moderator = discord.add_user("moderator", permissions=ADMINISTRATOR)
    refused = await discord.slash("admin sync", user=moderator)
    assert refused.ephemeral
    assert refused.content == "Only the bot's owners can sync its commands."
    syncs = len(discord.fake.command_syncs)
    done = await discord.slash("admin sync", user=owner)
    assert done.response_type == 5 and done.ephemeral
    assert re.fullmatch(r"Synced \d+ commands with Discord\.", done.content)
    assert len(discord.fake.command_syncs) == syncs + 1


async def test_help_buttons_work_after_a_restart(discord, bot, alice):
    first = await discord.slash("help", user=alice)
    if first.button("Next").disabled:
        pytest.skip("only one help page: no button to press")
    await bot.restart()
    second = await discord.click(first, "Next", user=alice)
    assert second.embeds[0]["footer"]["text"].startswith("Page 2 of ")


async def test_a_mention_is_pointed_at_slash_commands(discord, bot, alice, general):
    typed = await discord.send_message(general, f"{discord.bot_user.mention} play", user=alice)
    answer = await discord.wait_for_message(general, lambda m: "/help" in m.content)
    assert answer.content == "I work with slash commands: type `/help` to see the games."
    assert answer.id != typed.id
    assert bot.take_errors() == []
