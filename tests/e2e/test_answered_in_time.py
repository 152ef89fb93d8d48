"""Every interaction is answered within Discord's 3 seconds whatever waits in front of it
("Interactions", Receiving and Responding: the first response within 3 s, else the player is
told "The application did not respond"), and whatever the answer carries: Discord has an
answer once all of it has arrived, and an image takes long to upload on a busy machine or a
slow link. A pile-up (50 challenges and their Accepts arriving while 50 cards were still being
drawn) answered one `/rocketball challenge` after 3.00 s: only a move's click was acknowledged
when it waited. Here the queue is placed on purpose: a test-only extension
(tests/e2e/slow_database_cog.py) makes every database call wait its turn; another
(tests/e2e/slow_answer_cog.py) answers a click with an image after a wait, while the fake
Discord takes long to receive each upload. The driver fails a test on an answer later than
Discord's deadline."""

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


def started(fake: FakeDiscord, tmp_path: Path, extension: str) -> BotProcess:
    """The bot, on a database of its own, with a test-only extension."""
    bot = BotProcess(
        fake,
        database_path=tmp_path / "ballcourt.db",
        log_path=tmp_path / "bot.log",
        extra_env={"EXTRA_EXTENSIONS": extension},
    )
    bot.start()
    return bot


@pytest.fixture
def queued_bot(fake_discord: FakeDiscord, tmp_path: Path) -> Iterator[BotProcess]:
    bot = started(fake_discord, tmp_path, "tests.e2e.slow_database_cog")
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


# ---- an answer carrying an image, begun late -------------------------------------------------

UPLOAD_SECONDS = 2.0  # a slow link: each upload's bytes take this long to reach Discord


@pytest.fixture
def answering_bot(fake_discord: FakeDiscord, tmp_path: Path) -> Iterator[BotProcess]:
    bot = started(fake_discord, tmp_path, "tests.e2e.slow_answer_cog")
    yield bot
    bot.stop()
    fake_discord.upload_seconds = 0.0


def requests_of(fake: FakeDiscord, interaction_id: int) -> list[str]:
    """The bot's requests through one interaction's token (its response, edits, followups)."""
    record = fake.interactions[interaction_id]
    return [route for route in list(fake.requests) if record.token in route]


@pytest.mark.parametrize("begun_at", [1.3, 1.9])
async def test_an_image_answer_begun_late_on_a_slow_link_reaches_the_player(
    fake_discord: FakeDiscord, answering_bot: BotProcess, begun_at: float
):
    """The click's answer, an image, begins `begun_at` s after the click (before the
    automatic acknowledgement, or just before it was due at 2 s), and its upload takes longer
    than what is left of Discord's 3 s: the click is acknowledged first (a few bytes), and the
    image follows by an edit of the message clicked or a followup, which the interaction's
    token allows for 15 minutes."""
    users = fake_discord.fixtures.users  # type: ignore[attr-defined]
    general = fake_discord.fixtures.general  # type: ignore[attr-defined]
    driver = DiscordDriver(fake_discord, general)
    posted = await driver.slash("slowanswer", user=users["alice"], delay=begun_at)
    fake_discord.upload_seconds = UPLOAD_SECONDS
    redrawn = await driver.click(posted, "Redraw", user=users["bob"])
    assert redrawn.response_type == 6  # DEFERRED_UPDATE_MESSAGE, then the edit
    assert redrawn.text == "Redrawn", redrawn.text
    assert [a.filename for a in redrawn.attachments] == ["board.png"]
    shown = await driver.click(redrawn, "Show me", user=users["bob"])
    # "thinking" (private, as the answer is) then the followup in its place; or, acknowledged
    # before the answer began, a deferred update then a followup of its own
    assert shown.response_type in (5, 6)
    assert shown.ephemeral and shown.text == "Yours", shown.text
    assert [a.filename for a in shown.attachments] == ["board.png"]


async def test_a_quick_image_answer_is_still_one_response(
    fake_discord: FakeDiscord, answering_bot: BotProcess
):
    """A click answered at once, image and all, is answered by its one response (the message
    updated, or a message of its own): no acknowledgement in front of it."""
    users = fake_discord.fixtures.users  # type: ignore[attr-defined]
    general = fake_discord.fixtures.general  # type: ignore[attr-defined]
    driver = DiscordDriver(fake_discord, general)
    posted = await driver.slash("slowanswer", user=users["alice"], delay=0)
    redrawn = await driver.click(posted, "Redraw", user=users["bob"])
    assert redrawn.response_type == 7  # UPDATE_MESSAGE
    assert [a.filename for a in redrawn.attachments] == ["board.png"]
    assert len(requests_of(fake_discord, redrawn.interaction_id)) == 1
    shown = await driver.click(redrawn, "Show me", user=users["bob"])
    assert shown.response_type == 4  # CHANNEL_MESSAGE
    assert len(requests_of(fake_discord, shown.interaction_id)) == 1
