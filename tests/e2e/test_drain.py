"""A restart's drain with the real bot: SIGTERM lets the move in progress finish, and whatever
interaction Discord delivers meanwhile (the gateway is open until the bot closes it) is refused
at once with the same private answer, before it touches the database that is about to close:
a slash command, which takes no match lock, as well as a click."""

from __future__ import annotations

import asyncio
import signal
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from fakediscord.botproc import BotProcess
from fakediscord.driver import DiscordDriver
from fakediscord.server import FakeDiscord
from host.locks import SHUTTING_DOWN

pytestmark = pytest.mark.e2e


@pytest.fixture
def own_bot(fake_discord: FakeDiscord, tmp_path: Path) -> Iterator[BotProcess]:
    """A bot of this test's own: it is stopped by the test."""
    bot = BotProcess(
        fake_discord, database_path=tmp_path / "ballcourt.db", log_path=tmp_path / "bot.log"
    )
    bot.start()
    yield bot
    bot.stop()


def games_stored(database: Path) -> int:
    with sqlite3.connect(database, timeout=10) as conn:
        return conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]


async def wait_for_log(bot: BotProcess, text: str, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while text not in bot.log_text():
        assert time.monotonic() < deadline, bot.log_tail()
        await asyncio.sleep(0.02)


async def test_a_slash_command_during_the_drain_is_refused_and_writes_nothing(
    fake_discord, own_bot, alice, bob, carol, dave, general
):
    """Another program holds the database's write lock (as a backup would), so the match's work
    in progress waits on it holding the match lock: the new card's bookkeeping, or the click
    queued behind it. SIGTERM comes, and while that holds the drain open a
    `/rocketball challenge` arrives. It is answered SHUTTING_DOWN, privately, and no match is
    created; before, it ran on into the database the drain closed, and was never answered."""
    discord = DiscordDriver(fake_discord, general)
    database = Path(own_bot.database_path)
    challenge = await discord.slash("rocketball challenge", user=alice, opponent=bob)
    await discord.click(challenge, "Accept", user=bob)
    thread = await discord.wait_for_thread(general)
    turn = await discord.wait_for_message(thread, lambda m: bool(m.buttons))
    mover = alice if alice.mention in turn.content else bob
    before = games_stored(database)

    writer = sqlite3.connect(database, timeout=10, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")  # the bot's writes wait (up to its busy timeout)
    try:
        suggested = next(b for b in turn.button_labels if b.startswith("Suggested"))
        click = asyncio.create_task(
            discord.click(turn, suggested, user=mover, settle=False, timeout=15)
        )
        await asyncio.sleep(0.3)
        assert own_bot.process is not None
        own_bot.process.send_signal(signal.SIGTERM)
        await wait_for_log(own_bot, "received SIGTERM, shutting down")
        refused = await discord.slash(
            "rocketball challenge", user=carol, opponent=dave, settle=False, timeout=5
        )
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    assert refused.ephemeral and refused.text == SHUTTING_DOWN, refused.text
    await asyncio.gather(click, return_exceptions=True)
    await asyncio.to_thread(own_bot.process.wait, 15)
    assert own_bot.process.returncode == 0, own_bot.log_tail()
    assert games_stored(database) == before
    assert own_bot.error_records() == []
