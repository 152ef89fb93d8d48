"""/live through the fake Discord (docs/async-play.md "What's on"): the matches in play of the
server it is used in, never another server's nor a match not yet started; a kind refusal in a
DM; and nothing hidden in it: two runs that differ only in a secret Rollerball bid give the same
list."""

from __future__ import annotations

import re
import sqlite3

import pytest

from tests.e2e import test_async_play
from tests.e2e.cards import current_card
from tests.e2e.stored import sql
from tests.e2e.test_async_play import latest_game_id, rocketball

pytestmark = pytest.mark.e2e

# the first server's usual fixtures and a second server with #lobby
fake_discord = test_async_play.fake_discord

SNOWFLAKE = re.compile(r"\b\d{15,21}\b")
TIMESTAMP = re.compile(r"<t:\d+(:[tTdDfFR])?>")


@pytest.fixture(scope="module")
def bot_env() -> dict[str, str]:
    return {"GAME_SEED": "2020"}


async def test_live_lists_the_matches_in_play_of_this_server_only(
    discord, bot, fake_discord, general, games
):
    erin, finn, gil, hal, ike = (discord.add_user(n) for n in ("erin", "finn", "gil", "hal", "ike"))
    here, here_thread = await rocketball(discord, bot, erin, finn, general)
    there, there_thread = await rocketball(discord, bot, gil, hal, fake_discord.lobby)
    await discord.slash("rocketball challenge", user=hal, channel=games, opponent=ike)
    challenge = latest_game_id(bot)

    listed = await discord.slash("live", user=ike, channel=general)
    assert listed.ephemeral
    text = listed.text
    assert "1 match in play" in text
    line = next(line for line in text.splitlines() if f"Rocketball #{here}**" in line)
    # who plays, the score, whose turn, the last move, a link to the card (its thread)
    assert "North (Erin) vs South (Finn)" in line
    assert "North 0-0 South" in line
    assert re.search(r"(North \(Erin\)|South \(Finn\)) \w+", line)
    assert "last move <t:" in line and ":R>" in line
    assert f"/{here_thread.id}/" in line
    # never another server's match, nor a challenge not yet accepted
    assert f"#{there}" not in text and str(there_thread.id) not in text
    assert f"#{challenge}" not in text

    # the second server sees its own match only
    elsewhere = await discord.slash("live", user=gil, channel=fake_discord.lobby)
    assert f"Rocketball #{there}**" in elsewhere.text and f"#{here}" not in elsewhere.text

    # in a DM there is no server to list: a kind refusal that says where it works
    refused = await discord.slash("live", user=ike, channel=discord.open_dm(ike))
    assert refused.ephemeral and "one of the server's channels" in refused.text


async def test_live_pages_many_matches_and_each_page_fits_a_message(discord, bot, general):
    """Eleven more copies of a match in play, as if as many had been started: two pages."""
    kim, lou = discord.add_user("kim"), discord.add_user("lou")
    first, _ = await rocketball(discord, bot, kim, lou, general)
    with sqlite3.connect(bot.database_path) as conn:
        for _ in range(11):
            copy = conn.execute(
                "INSERT INTO games (game, guild_id, channel_id, thread_id, status, state, version,"
                " created_at, updated_at) SELECT game, guild_id, channel_id, thread_id, status,"
                " state, version, created_at, updated_at FROM games WHERE id = ?",
                (first,),
            ).lastrowid
            conn.execute(
                "INSERT INTO game_players (game_id, seat, user_id) SELECT ?, seat, user_id"
                " FROM game_players WHERE game_id = ?",
                (copy, first),
            )
    in_play = sql(
        bot,
        "SELECT COUNT(*) FROM games WHERE status = 'active' AND guild_id ="
        " (SELECT guild_id FROM games WHERE id = ?)",
        first,
    )[0][0]
    assert in_play > 10
    pages = -(-in_play // 10)
    one = await discord.slash("live", user=kim, channel=general)
    assert f"{in_play} matches in play__ (page 1 of {pages}" in one.text
    assert sum(line.startswith("• **Rocketball #") for line in one.text.splitlines()) == 10
    last = await discord.slash("live", user=kim, channel=general, page=99)
    assert f"(page {pages} of {pages}:" in last.text
    shown_last = sum(line.startswith("• **Rocketball #") for line in last.text.splitlines())
    assert shown_last == in_play - 10 * (pages - 1)


async def live_after_a_secret_bid(discord, bot, users, general, alice_bids: int) -> str:
    """A Rollerball table of Alice, Bob, Carol and a computer in which Alice has bid in secret;
    what Dave's /live says then, with ids and moments put aside."""
    alice, bob, carol, dave = users
    lobby = await discord.slash("rollerball new", user=alice, channel=general, players=4)
    await discord.click(lobby, "Join", user=bob)
    await discord.click(lobby, "Join", user=carol)
    await discord.click(lobby, "Add computer", user=alice)
    await discord.click(lobby, "Start", user=alice)
    thread = await discord.wait_for_thread(general)
    game_id = int(thread.name.split("#")[1])
    card = await current_card(discord, bot, thread, game_id)
    panel = await discord.click(card, "My hand", user=alice)
    menu = panel.select("Pick the cards to bid")
    chosen = [option.value for option in menu.options[:alice_bids]]
    await discord.select(panel, menu.custom_id, chosen, user=alice)
    card = await current_card(discord, bot, thread, game_id)
    assert "Alice has bid." in card.text
    listed = await discord.slash("live", user=dave, channel=general)
    assert f"Rollerball #{game_id}**" in listed.text
    text = TIMESTAMP.sub("<t>", listed.text)
    names: dict[str, str] = {}
    return SNOWFLAKE.sub(lambda m: names.setdefault(m[0], f"<id{len(names)}>"), text)


async def test_live_shows_nothing_of_a_secret_bid(discord, bot, alice, bob, carol, dave, general):
    users = (alice, bob, carol, dave)
    bot.start_afresh()
    one = await live_after_a_secret_bid(discord, bot, users, general, alice_bids=1)
    bot.start_afresh()
    three = await live_after_a_secret_bid(discord, bot, users, general, alice_bids=3)
    assert one == three, "a spectator's /live told how many cards Alice bid"
    assert "Alice" in one and "VP" in one
