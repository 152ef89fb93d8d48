"""What real Discord refuses in the field, and what the players see then: an edit of the live card
that Discord's open gallery bug refuses."""

from __future__ import annotations

import random
import sqlite3

import pytest

from cogs.rocketball.presenter import RocketballAdapter
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


@pytest.mark.parametrize("channel_too", [False, True], ids=["token-edit", "every-edit"])
async def test_a_card_edit_discord_refuses_for_its_gallery_still_shows_the_turn(
    discord, bot, fake_discord, games, channel_too
):
    """Discord's open bug (fakediscord/discord_bugs.py): the computer's reply in the same click
    redraws the card through the click's token with new images in its gallery, and Discord
    answers 400. The players still see the position at once: the card edited through the
    channel, or where Discord refuses that edit too, a fresh card below, the old one pointing
    to it with no controls left."""
    erin = discord.add_user(f"erin{int(channel_too)}")
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
    fake_discord.known_bugs.gallery_edit_channel = channel_too
    refused_before = fake_discord.known_bugs.refused
    try:
        rng = random.Random(3)
        for _ in range(60):
            version, status = stored_version(bot, game_id)
            if fake_discord.known_bugs.refused > refused_before or status != "active":
                break
            card = newest_card(discord, thread)
            action = ai.choose_action(engine_of(bot, game_id), "strong", rng)
            await click_action(discord, card, erin, action)
            await posted(bot, game_id)
    finally:
        fake_discord.known_bugs.gallery_edit = False
        fake_discord.known_bugs.gallery_edit_channel = False
    assert fake_discord.known_bugs.refused > refused_before, "no reply in the same click"
    await posted(bot, game_id)
    version, status = stored_version(bot, game_id)
    fresh, old = newest_card(discord, thread), discord.message(card)
    assert card_version(fresh) == version or status != "active"
    assert fresh.images  # the turn's images, in the card's gallery
    if channel_too:
        assert fresh.id != old.id  # a fresh card was posted
        assert not old.buttons and str(fresh.id) in old.text  # the old card points to it
    else:
        assert fresh.id == old.id  # the card itself, edited through the channel
    # the player heard of no failure: nothing ephemeral says the move could not be shown
    assert not [m for m in discord.channel_messages(thread) if "could not" in m.text]
    assert "could not post match" not in bot.log_text()


async def test_a_decision_on_a_panel_redraws_the_card_through_an_interaction(
    discord, bot, fake_discord, general
):
    """A decision made on a player's private panel redraws the live card through the token of
    the click on the card that opened the panel (an interaction edit, which Discord's global
    rate limit does not count), never through an edit in the channel."""
    from rules.rollerball import Play, actors, choose_action, view_for
    from tests.e2e.rollerball_clicks import ClickingTable, stored_match

    ann, ben, cy = (discord.add_user(name) for name in ("ann", "ben", "cy"))
    known = len(discord.threads(general))
    lobby = await discord.slash("rollerball new", user=ann, channel=general, players=4, target=3)
    await discord.click(lobby, "Join", user=ben)
    await discord.click(lobby, "Join", user=cy)
    await discord.click(lobby, "Add computer", user=ann)
    await discord.click(lobby, "Start", user=ann)
    await until(lambda: len(discord.threads(general)) > known)
    thread = discord.threads(general)[-1]
    card = await discord.wait_for_message(thread, is_card, since=0, timeout=15)
    game_id = int(thread.name.split("#")[1])
    table = ClickingTable(discord, bot, thread, game_id, {0: ann, 1: ben, 2: cy})
    rng = random.Random(8)
    requests_before = len(fake_discord.requests)
    for _ in range(200):
        _, status, match = stored_match(bot, game_id)
        if status != "active" or table.panel_decisions >= 4:
            break
        game = match.engine.game
        seat = min(actors(game))
        play = Play(choose_action(view_for(game, seat), rng, "sensible"), game.settings.board)
        await table.play(seat, play)
    assert table.panel_decisions >= 1, "no decision was made on a panel"
    routes = fake_discord.requests[requests_before:]
    channel_edits = [
        route
        for route in routes
        if route.startswith(f"PATCH /channels/{thread.id}/messages/")
        and int(route.rsplit("/", 1)[1]) in table.card_ids | {card.id}
    ]
    assert not channel_edits, channel_edits
    assert any(r.startswith("PATCH /webhooks/") and r.endswith("/@original") for r in routes)
