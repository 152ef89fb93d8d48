"""Why? through the fake Discord (host/why.py): the card's Why? button and `/rocketball why`
answer privately with the rules behind the latest moves: each event as the card told it, the
rulings it names from docs/rules/rocketball.md, and the rules menu; nothing changes."""

from __future__ import annotations

import pytest

from tests.e2e.cards import stored_version
from tests.e2e.test_replays import challenge

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
