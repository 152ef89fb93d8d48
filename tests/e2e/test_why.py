"""Why? through the fake Discord (host/why.py): the card's Why? button and `/GAME why` answer
privately with the rules behind the latest moves: each event as the card told it, the rulings it
names from docs/rules/GAME.md, and the rules menu; nothing changes, and nothing hidden (a secret
bid's cards) is worded."""

from __future__ import annotations

import pytest

from rules.rollerball import kind_of
from tests.e2e.cards import current_card, stored_version
from tests.e2e.test_replays import challenge
from tests.e2e.test_rollerball import CARD_NAMES, FORM, open_table, stored

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def bot_env() -> dict[str, str]:
    return {"GAME_SEED": "20261129"}


async def test_why_explains_the_roll_made_for_the_holder_and_changes_nothing(
    discord, bot, alice, bob, carol, general
):
    game_id, thread, card = await challenge(discord, bot, alice, bob, general)
    assert "Why?" in card.button_labels
    before = stored_version(bot, game_id)

    # carol only watches: the latest moves, privately, each ruling with its clause
    answer = await discord.click(card, "Why?", user=carol)
    assert answer.ephemeral
    assert f"Why? Rocketball #{game_id}" in answer.text
    assert "rolls d4" in answer.text  # the roll, as the card told it
    assert "Ruling R18" in answer.text and "The roll is made for you" in answer.text
    assert "*A turn*" in answer.text and "/rocketball rules" in answer.text
    assert answer.selects, "the rules menu, to read a topic whole"
    # nothing was played, posted or changed
    assert stored_version(bot, game_id) == before
    assert not any("Ruling" in m.content for m in discord.channel_messages(thread))
    assert discord.message(card).button_labels == card.button_labels


async def test_why_of_the_set_up_and_of_a_move_that_does_not_exist(discord, bot, dave, games):
    erin = discord.add_user("erin")
    game_id, _, _ = await challenge(discord, bot, dave, erin, games)
    setup = await discord.slash("rocketball why", user=erin, match=game_id, move=0)
    assert setup.ephemeral and "The set-up" in setup.text and "*Setup*" in setup.text
    assert "d4 =" in setup.text  # the start roll, as the thread told it

    refused = await discord.slash("rocketball why", user=erin, match=game_id, move=999)
    assert refused.ephemeral and "pick one of those" in refused.text
    # a match of no server here is not explained
    nothing = await discord.slash("rocketball why", user=erin, match=99999)
    assert nothing.ephemeral and "no Rocketball match #99999" in nothing.text


async def test_a_rollerball_why_words_the_bid_without_its_cards(discord, bot, carol, games):
    fay = discord.add_user("fay")
    game_id, thread, first = await open_table(discord, bot, carol, games, joiners=[fay])
    assert "Why?" in first.button_labels
    _, _, match, _ = stored(bot, game_id)
    assert match is not None
    carol_cards = [kind_of(card) for card in match.engine.game.hands[0]][:2]
    form = await discord.click(first, FORM, user=carol)
    await discord.submit_modal(form, {form.modal_inputs[0]["custom_id"]: " ".join(carol_cards)})
    card = await current_card(discord, bot, thread, game_id)

    # Fay still bids: the record keeps Carol's bid back until every bid is in, so Why? has the
    # deal to explain, and nothing of her cards
    secret = await discord.click(card, "Why?", user=fay)
    assert secret.ephemeral and "Carol deals 5 cards" in secret.text and "*Set-up*" in secret.text
    assert not any(name in secret.text for name in CARD_NAMES)
    assert not any(kind in secret.text for kind in carol_cards)

    form = await discord.click(card, FORM, user=fay)
    await discord.submit_modal(form, {form.modal_inputs[0]["custom_id"]: "0"})
    card = await current_card(discord, bot, thread, game_id)
    shown = await discord.click(card, "Why?", user=fay)
    assert "Bids: Carol 2, Fay 0." in shown.text and "Carol wins the bid" in shown.text
    # the bid's winner places first (ruling 10 of docs/rules/rollerball.md)
    assert "Ruling R10" in shown.text and "The bid winner takes the first turn" in shown.text


async def test_a_rollerball2_why_names_the_line_ups_ruling_and_changes_nothing(discord, bot, games):
    from tests.e2e.test_rollerball2 import first_turn, latest_game_id

    gus = discord.add_user("gus")
    for name, colour in (("Quito", "green"), ("Oslo", "blue")):
        await discord.slash("rollerball2 team create", user=gus, name=name, colour=colour)
    known = len(discord.threads(games))
    await discord.slash(
        "rollerball2 match start", user=gus, channel=games, home="Quito", away="Oslo", mode="solo"
    )
    game_id = latest_game_id(bot)
    thread, card = await first_turn(discord, bot, games, known)
    assert "Why?" in card.button_labels
    before = stored_version(bot, game_id)

    # gus turns a card; a watcher asks: the card, as the card told it, under it its topics
    await discord.click(card, "Next card", user=gus, timeout=30)
    card = await current_card(discord, bot, thread, game_id, timeout=60)
    before = stored_version(bot, game_id)
    answer = await discord.click(card, "Why?", user=discord.add_user("hal"))
    assert answer.ephemeral and f"Why? Rollerball II #{game_id}" in answer.text
    assert "*The cards*" in answer.text and "*The flow of a match*" in answer.text
    assert "/rollerball2 rules" in answer.text and answer.selects
    assert stored_version(bot, game_id) == before
    assert not any("Ruling" in m.content for m in discord.channel_messages(thread))

    # the opening is the hosted match's own line, not the record's: Why? words its ruling too
    setup = await discord.slash("rollerball2 match why", user=gus, match=game_id, move=0)
    assert setup.ephemeral and "Quito (home)" in setup.text and "Ruling D1**" in setup.text
