"""bot.py with SHARD_COUNT and SHARD_IDS: discord.py's AutoShardedBot identifies the
shards it was given, and of a cluster only the process that runs shard 0 syncs the commands."""

from __future__ import annotations

import pytest

from fakediscord.botproc import BotProcess
from fakediscord.driver import DiscordDriver
from tests.e2e.stored import until

pytestmark = pytest.mark.e2e


def sharded_bot(fake, tmp_path, ids: str) -> BotProcess:
    return BotProcess(
        fake,
        database_path=tmp_path / "ballcourt.db",
        log_path=tmp_path / f"shards-{ids}.log",
        extra_env={"SHARD_COUNT": "2", "SHARD_IDS": ids},
    )


async def test_only_the_process_with_shard_zero_syncs_the_commands(fake_discord, tmp_path, alice):
    second = sharded_bot(fake_discord, tmp_path, "1")
    second.start()
    try:
        assert fake_discord.call_sync(lambda: fake_discord.commands[None]) == []
        # discord.py logs the connection once it has handled READY, which a busy machine
        # may do after the harness has seen the IDENTIFY
        await until(lambda: "Shard ID 1 has connected to Gateway" in second.log_text())
        assert "commands are synced by the process that runs shard 0" in second.log_text()
    finally:
        second.stop()

    first = sharded_bot(fake_discord, tmp_path, "0")
    first.start()
    try:
        names = {c["name"] for c in fake_discord.call_sync(lambda: fake_discord.commands[None])}
        assert {"roll", "rocketball", "volleyball"} <= names
        await until(lambda: "Shard ID 0 has connected to Gateway" in first.log_text())
        discord = DiscordDriver(fake_discord, fake_discord.fixtures.general)
        reply = await discord.slash("roll", user=alice, notation="2d6")
        assert "rolled `2d6`" in reply.text
    finally:
        first.stop()
    assert first.take_errors() == [] and second.take_errors() == []
