"""A command that starts a match, answered after Discord's 3 s (a loaded machine): the match was
stored before the answer, so it must still be shown where it was asked for, never left stored
with no message, thread or card (its players' teams and pair then busy with a match nobody can
see or play)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest

from fakediscord.model import DiscordViolation
from tests.e2e.cards import card_game_id, current_card, is_card

pytestmark = pytest.mark.e2e


@contextlib.contextmanager
def answers_too_late(discord) -> Iterator[None]:
    """Every interaction meanwhile is answered after Discord's deadline: the bot's first
    answer gets 404 10062 ("Unknown interaction"), as one later than 3 s does. The player saw
    "The application did not respond"."""
    fake = discord.fake
    before = fake.response_deadline
    fake.call_sync(lambda: setattr(fake, "response_deadline", 0.0))
    try:
        with pytest.raises(DiscordViolation, match="late_response"):
            yield
    finally:
        fake.call_sync(lambda: setattr(fake, "response_deadline", before))


async def test_a_match_against_the_computer_answered_too_late_is_shown_in_the_channel(
    discord, bot, alice, general
):
    """Seen in the chaos run (Rollerball II, solo): the match was stored, the "thinking" answer
    came after 3 s and was refused, and the match stayed active with no thread nor card; its
    teams could play nothing else, and a season's deadline could not settle their fixtures."""
    known = len(discord.threads(general))
    with answers_too_late(discord):
        await discord.slash("rocketball play-computer", user=alice, level="easy", target=1)
    opening = await discord.wait_for_message(
        general, lambda m: "takes on the computer" in m.content, timeout=15
    )
    assert alice.mention in opening.content
    thread = await discord.wait_for_thread(general, timeout=15)
    assert len(discord.threads(general)) == known + 1
    card = await discord.wait_for_message(thread, is_card, timeout=15, since=0)
    await current_card(discord, bot, thread, card_game_id(card))


async def test_a_challenge_answered_too_late_is_posted_in_the_channel_and_can_be_accepted(
    discord, bot, alice, bob, general
):
    with answers_too_late(discord):
        await discord.slash("rocketball challenge", user=alice, opponent=bob, target=1)
    challenge = await discord.wait_for_message(
        general, lambda m: "challenges you" in m.content, timeout=15
    )
    assert bob.mention in challenge.content and challenge.button_labels[:1] == ["Accept"]
    await discord.click(challenge, "Accept", user=bob)
    thread = await discord.wait_for_thread(general, timeout=15)
    card = await discord.wait_for_message(thread, is_card, timeout=15, since=0)
    await current_card(discord, bot, thread, card_game_id(card))
