"""What real Discord refuses in the field, and what the players see then: an edit of the live card
that Discord's open gallery bug refuses."""

from __future__ import annotations

import random
import sqlite3

import pytest

from cogs.rocketball.adapter import RocketballAdapter
from host import Match
from rules.rocketball import ai
from tests.e2e.cards import card_version, is_card, posted, stored_version
from tests.e2e.rocketball_clicks import click_action
from tests.e2e.stored import until

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def bot_env() -> dict[str, str]:
    return {"GAME_SEED": "20261129"}


def newest_card(discord, thread):
    return [m for m in discord.channel_messages(thread) if is_card(m)][-1]


def engine_of(bot, game_id: int):
    with sqlite3.connect(bot.database_path) as conn:
        (state,) = conn.execute("SELECT state FROM games WHERE id = ?", (game_id,)).fetchone()
    return Match.from_json(RocketballAdapter(), state).engine


async def test_a_card_edit_discord_refuses_for_its_gallery_becomes_a_fresh_card(
    discord, bot, fake_discord, games
):
    """Discord's open bug (fakediscord/discord_bugs.py): the computer's reply in the same click
    redraws the card through the click's token with new images in its gallery, and Discord
    answers 400. The players still see the position at once: a fresh card below, the old one
    pointing to it with no controls left."""
    erin = discord.add_user("erin")
    known = len(discord.threads(games))
    await discord.slash(
        "rocketball play-computer", user=erin, channel=games, level="easy", target=1
    )
    await until(lambda: len(discord.threads(games)) > known)
    thread = discord.threads(games)[-1]
    await discord.wait_for_message(thread, is_card, since=0, timeout=15)
    with sqlite3.connect(bot.database_path) as conn:
        (game_id,) = conn.execute("SELECT MAX(id) FROM games").fetchone()
    await posted(bot, game_id)
    fake_discord.known_bugs.gallery_edit = True
    try:
        rng = random.Random(3)
        for _ in range(60):
            version, status = stored_version(bot, game_id)
            if fake_discord.known_bugs.refused or status != "active":
                break
            card = newest_card(discord, thread)
            action = ai.choose_action(engine_of(bot, game_id), "strong", rng)
            await click_action(discord, card, erin, action)
            await posted(bot, game_id)
    finally:
        fake_discord.known_bugs.gallery_edit = False
    assert fake_discord.known_bugs.refused, "the computer never replied in the same click"
    await posted(bot, game_id)
    version, status = stored_version(bot, game_id)
    fresh, old = newest_card(discord, thread), discord.message(card)
    assert fresh.id != old.id  # a fresh card was posted
    assert card_version(fresh) == version or status != "active"
    assert fresh.images  # the turn's images, in the fresh card's gallery
    assert not old.buttons and str(fresh.id) in old.text  # the old card points to it
    # the player heard of no failure: nothing ephemeral says the move could not be shown
    assert not [m for m in discord.channel_messages(thread) if "could not" in m.text]
    assert "could not post match" not in bot.log_text()
