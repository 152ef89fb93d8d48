"""Every interaction is answered within Discord's 3 seconds whatever waits in front of it
("Interactions", Receiving and Responding: the first response within 3 s, else the player is
told "The application did not respond"). A pile-up (50 challenges and their Accepts arriving
while 50 cards were still being drawn) answered one `/rocketball challenge` after 3.00 s: only
a move's click was acknowledged when it waited. Here the queue is placed on purpose: a test-only
extension (tests/e2e/slow_database_cog.py) makes every database call wait its turn. The driver
fails a test on an answer later than Discord's deadline."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from fakediscord.botproc import BotProcess
from fakediscord.driver import DiscordDriver
from fakediscord.server import FakeDiscord
from tests.e2e.cards import card_game_id, current_card, is_card, stored_row
from ui.timely import FORM_TOO_LATE

EPHEMERAL = 1 << 6  # a message flag (Discord's Message resource, "Message Flags")

pytestmark = pytest.mark.e2e

DEADLINE = 3.0
QUEUED = 1.2  # what each database call waits: a challenge makes several


@pytest.fixture
def queued_bot(fake_discord: FakeDiscord, tmp_path: Path) -> Iterator[BotProcess]:
    bot = BotProcess(
        fake_discord,
        database_path=tmp_path / "ballcourt.db",
        log_path=tmp_path / "bot.log",
        extra_env={"EXTRA_EXTENSIONS": "tests.e2e.slow_database_cog"},
    )
    bot.start()
    yield bot
    bot.stop()


async def queue_ahead(driver: DiscordDriver, fake: FakeDiscord, seconds: float) -> None:
    owner = fake.fixtures.users["carol"]  # type: ignore[attr-defined]
    await driver.slash("slowdb", user=owner, seconds=seconds, delay=QUEUED)


async def test_a_challenge_behind_a_queue_is_answered_in_time_and_stays_public(
    fake_discord: FakeDiscord, queued_bot: BotProcess
):
    users = fake_discord.fixtures.users  # type: ignore[attr-defined]
    general = fake_discord.fixtures.general  # type: ignore[attr-defined]
    driver = DiscordDriver(fake_discord, general)
    await queue_ahead(driver, fake_discord, 30)
    sent = time.monotonic()
    reply = await driver.slash("rocketball challenge", user=users["alice"], opponent=users["bob"])
    assert time.monotonic() - sent > DEADLINE  # the queue really was in front of it
    # the challenge itself, shown to everyone: bob can take it
    assert not reply.ephemeral, reply.text
    assert "Accept" in reply.button_labels, reply.text
    accepted = await driver.click(reply, "Accept", user=users["bob"])
    assert not accepted.ephemeral, accepted.text
    thread = await driver.wait_for_thread(general, timeout=60)
    await driver.wait_for_message(thread, is_card, timeout=60, since=0)


async def test_a_private_answer_behind_a_queue_stays_private(
    fake_discord: FakeDiscord, queued_bot: BotProcess
):
    users = fake_discord.fixtures.users  # type: ignore[attr-defined]
    general = fake_discord.fixtures.general  # type: ignore[attr-defined]
    driver = DiscordDriver(fake_discord, general)
    await driver.slash("rocketball challenge", user=users["alice"], opponent=users["bob"])
    await queue_ahead(driver, fake_discord, 30)
    again = await driver.slash("rocketball challenge", user=users["alice"], opponent=users["bob"])
    # the channel saw the command think, then a neutral line; the reason is alice's alone
    assert again.text == "Answered privately.", again.text

    def refusals() -> list[dict]:
        return [
            message
            for message in list(fake_discord.messages.values())
            if "You already have" in message.get("content", "")
        ]

    await fake_discord.call(lambda: fake_discord.wait_until(lambda: bool(refusals()), 30))
    (refusal,) = refusals()
    assert refusal["flags"] & EPHEMERAL
    assert not [m for m in driver.channel_messages(general) if "You already have" in m.text]


async def test_a_form_behind_a_queue_is_refused_in_time_with_a_word(
    fake_discord: FakeDiscord, queued_bot: BotProcess
):
    """A form can only be the first response (Discord has no modal followup): a click that
    opens one after waiting past the acknowledgement is told privately to press again, instead
    of the application not responding."""
    users = fake_discord.fixtures.users  # type: ignore[attr-defined]
    general = fake_discord.fixtures.general  # type: ignore[attr-defined]
    driver = DiscordDriver(fake_discord, general)
    challenge = await driver.slash(
        "rocketball challenge", user=users["alice"], opponent=users["bob"]
    )
    await driver.click(challenge, "Accept", user=users["bob"])
    thread = await driver.wait_for_thread(general)
    card = await driver.wait_for_message(thread, is_card, timeout=30, since=0)
    game_id = card_game_id(card)

    def engine() -> dict:
        (state,) = stored_row(queued_bot, "SELECT state FROM games WHERE id = ?", game_id)
        return json.loads(state)["engine"]

    mover = {"N": users["alice"], "S": users["bob"]}[engine()["to_move"]]
    if "Roll the d4" in card.button_labels:
        card = await driver.click(card, "Roll the d4", user=mover)
    card = await current_card(driver, queued_bot, thread, game_id)
    if "Type a move…" not in card.button_labels:
        pytest.skip("this seed has no move to type after the first roll")  # pragma: no cover
    mover = {"N": users["alice"], "S": users["bob"]}[engine()["to_move"]]
    await queue_ahead(driver, fake_discord, 30)
    reply = await driver.click(card, "Type a move…", user=mover)
    assert reply.ephemeral, reply.text
    assert reply.text == FORM_TOO_LATE
