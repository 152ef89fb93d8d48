"""The fake Discord with several guilds: the bot answers in each guild as that guild's,
and the sharded gateway routes each guild to its shard, so each bot process gets its own guilds
(READY lists exactly them, their interactions reach only that process). In a handover
(``share_guild``) a guild's interactions alternate between the processes that hold it.

Which process handled a command is read from the process's own database: here each process of
the sharded bot has its own SQLite file (the routing, not the shared database, is under test;
tests/e2e/test_cluster.py runs two processes on one PostgreSQL database), and a challenge is
stored with its guild by the process that got it."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Iterator

import pytest

from fakediscord import persist
from fakediscord.botproc import BotProcess
from fakediscord.driver import DiscordDriver
from fakediscord.model import SEND_MESSAGES
from fakediscord.server import FakeDiscord
from fakediscord.sharded import ShardedFakeDiscord, shard_of
from tests.e2e.conftest import Fixtures

pytestmark = pytest.mark.e2e


def games_by_guild(database) -> list[tuple[int, str]]:
    """(guild id, status) of every game the process stored, oldest first."""
    with sqlite3.connect(database) as conn:
        return conn.execute("SELECT guild_id, status FROM games ORDER BY id").fetchall()


async def wait_until_ready(process: BotProcess, servers: int) -> None:
    """The bot logs that it is ready in ``servers`` servers (after their GUILD_CREATEs)."""
    for _ in range(200):
        if f"Ballcourt ready as ballcourt in {servers} servers" in process.log_text():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(process.log_tail())


# --- one bot process, two guilds ----------------------------------------------------------------


@pytest.fixture(scope="module")
def fake_discord() -> Iterator[FakeDiscord]:
    """The usual fixtures in the first guild, plus a second guild with #lobby."""
    fake = FakeDiscord()
    fake.fixtures = Fixtures(fake)  # type: ignore[attr-defined]
    fake.second = fake.add_guild("Second Server")  # type: ignore[attr-defined]
    fake.lobby = fake.add_channel("lobby", guild=fake.second)  # type: ignore[attr-defined]
    fake.start()
    yield fake
    fake.stop()


async def test_the_bot_answers_in_the_second_guild_as_that_guilds(
    discord, fake_discord, bot, alice, bob
):
    second, lobby = fake_discord.second, fake_discord.lobby
    await wait_until_ready(bot, 2)
    assert second.id != fake_discord.guild.id and second.bot_role_id != fake_discord.bot_role_id

    reply = await discord.slash("roll", user=alice, channel=lobby, notation="2d6")
    assert "rolled `2d6`" in reply.text and reply.channel_id == lobby.id
    sent = fake_discord.interactions[reply.interaction_id].payload
    assert sent["guild_id"] == str(second.id)
    assert sent["authorizing_integration_owners"] == {"0": str(second.id)}

    challenge = await discord.slash("rocketball challenge", user=alice, channel=lobby, opponent=bob)
    await discord.click(challenge, "Accept", user=bob)
    for _ in range(200):
        if discord.threads(lobby):
            break
        await asyncio.sleep(0.05)
    (thread,) = discord.threads(lobby)
    assert thread.guild_id == second.id  # a thread is in its parent's guild
    card = await discord.wait_for_message(thread, lambda m: bool(m.buttons), timeout=15, since=0)
    assert "Type a move…" in card.button_labels  # the live card, in the second guild's thread
    ping = await discord.wait_for_message(thread, lambda m: "your move" in m.content, since=0)
    assert ping.content.startswith((alice.mention, bob.mention))
    assert games_by_guild(bot.database_path) == [(second.id, "active")]
    await discord.slash("rocketball resign", user=alice, channel=thread)


async def test_a_channel_that_denies_the_bot_in_the_second_guild_uses_that_guilds_role(
    discord, fake_discord
):
    second = fake_discord.second
    quiet = discord.add_channel("quiet", deny_bot=SEND_MESSAGES, guild=second)
    overwrite = fake_discord.channels[quiet.id]["permission_overwrites"][0]
    assert int(overwrite["id"]) == second.bot_role_id
    assert not fake_discord.bot_permissions_in(quiet.id) & SEND_MESSAGES
    assert fake_discord.bot_permissions_in(fake_discord.lobby.id) & SEND_MESSAGES
    roles = {r["name"]: int(r["id"]) for r in fake_discord.roles_json(second)}
    assert roles == {"@everyone": second.id, "Ballcourt": second.bot_role_id}


async def test_a_guild_added_while_the_bot_runs_is_announced_and_answered(discord, fake_discord):
    late = fake_discord.add_guild("Late Server")
    announced = fake_discord.call_sync(
        lambda: [e["d"]["id"] for e in fake_discord.session.backlog if e["t"] == "GUILD_CREATE"]
    )
    assert announced[-1] == str(late.id)
    corner = discord.add_channel("corner", guild=late)
    reply = await discord.slash("roll", user=fake_discord.owner, channel=corner, notation="1d4")
    assert "rolled `1d4`" in reply.text
    assert fake_discord.interactions[reply.interaction_id].payload["guild_id"] == str(late.id)


def test_a_saved_world_keeps_every_guild_and_a_world_saved_with_one_still_loads(
    fake_discord, tmp_path
):
    fake_discord.call_sync(lambda: persist.save(fake_discord, tmp_path))
    restored = FakeDiscord()
    assert persist.load(restored, tmp_path)
    assert list(restored.guilds.values()) == list(fake_discord.guilds.values())
    assert restored.guild == fake_discord.guild
    assert restored.guild_json(restored.guilds[fake_discord.second.id])["channels"][0]["name"] == (
        "lobby"
    )

    state = json.loads((tmp_path / "state.json").read_text())
    first = state.pop("guilds")[0]
    state["bot_role_id"] = first.pop("bot_role_id")
    state["guild"] = first  # as the sandbox saved it before guilds
    (tmp_path / "state.json").write_text(json.dumps(state))
    old = FakeDiscord()
    assert persist.load(old, tmp_path)
    assert list(old.guilds.values()) == [fake_discord.guild]
    assert old.bot_role_id == fake_discord.bot_role_id


# --- two bot processes, one shard each ----------------------------------------------------------


class TwoShards:
    """A sharded fake with guild A on shard 0 and guild B on shard 1, and a bot process per
    shard, each with its own database."""

    def __init__(self, folder) -> None:
        self.fake = ShardedFakeDiscord(shard_count=2, first_guild_shard=0)
        self.fixtures = Fixtures(self.fake)
        self.a = self.fake.guild
        self.b = self.fake.add_guild("Guild B", shard=(1, 2))
        self.a_channel = self.fixtures.general
        self.b_channel = self.fake.add_channel("b-general", guild=self.b)
        self.processes = [
            BotProcess(
                self.fake,
                database_path=folder / f"shard-{shard}.db",
                log_path=folder / f"shard-{shard}.log",
                extra_env={"SHARD_COUNT": "2", "SHARD_IDS": str(shard)},
            )
            for shard in (0, 1)
        ]
        self.discord = DiscordDriver(self.fake, self.a_channel)

    def games(self, shard: int) -> list[tuple[int, str]]:
        return games_by_guild(self.processes[shard].database_path)

    async def challenge(self, channel, challenger: str, opponent: str):
        users = self.fixtures.users
        return await self.discord.slash(
            "rocketball challenge",
            user=users[challenger],
            channel=channel,
            opponent=users[opponent],
        )


@pytest.fixture(scope="module")
def two_shards(tmp_path_factory) -> Iterator[TwoShards]:
    setup = TwoShards(tmp_path_factory.mktemp("shards"))
    setup.fake.start()
    try:
        for process in setup.processes:
            process.start()
        yield setup
    finally:
        for process in setup.processes:
            process.stop()
        setup.fake.stop()
    problems = [str(v) for v in setup.fake.violations if not v.consumed]
    problems += [e for p in setup.processes for e in p.take_errors()]
    assert problems == []


async def test_each_shard_gets_ready_with_exactly_its_guilds(two_shards):
    fake, a, b = two_shards.fake, two_shards.a, two_shards.b
    assert (shard_of(a.id, 2), shard_of(b.id, 2)) == (0, 1)
    assert fake.ready_guilds == {0: [a.id], 1: [b.id]}
    for process in two_shards.processes:
        await wait_until_ready(process, 1)


async def test_a_guilds_commands_reach_only_the_process_of_its_shard(two_shards):
    fake, a, b = two_shards.fake, two_shards.a, two_shards.b
    in_b = await two_shards.challenge(two_shards.b_channel, "alice", "bob")
    in_a = await two_shards.challenge(two_shards.a_channel, "carol", "dave")
    assert "Accept" in in_b.button_labels and "Accept" in in_a.button_labels
    assert two_shards.games(0) == [(a.id, "pending")]
    assert two_shards.games(1) == [(b.id, "pending")]
    assert [fake.interaction_shards[r.interaction_id] for r in (in_b, in_a)] == [1, 0]
    for reply, user in ((in_b, "bob"), (in_a, "dave")):
        await two_shards.discord.click(reply, "Decline", user=two_shards.fixtures.users[user])
    assert two_shards.games(0) == [(a.id, "cancelled")]
    assert two_shards.games(1) == [(b.id, "cancelled")]


async def test_a_shared_guilds_commands_alternate_between_the_processes(two_shards):
    fake, a = two_shards.fake, two_shards.a
    assert fake.share_guild(a) == [0, 1]  # shard 1's process now holds guild A too
    try:
        first = await two_shards.challenge(two_shards.a_channel, "alice", "bob")
        second = await two_shards.challenge(two_shards.a_channel, "carol", "dave")
    finally:
        fake.unshare_guild(a)
    assert [fake.interaction_shards[r.interaction_id] for r in (first, second)] == [0, 1]
    assert two_shards.games(0)[-1] == (a.id, "pending")  # alice's, by shard 0's process
    assert two_shards.games(1)[-1] == (a.id, "pending")  # carol's, by shard 1's process
    again = await two_shards.discord.slash(
        "roll", user=two_shards.fixtures.users["bob"], notation="1d6"
    )
    assert fake.interaction_shards[again.interaction_id] == 0  # guild A is shard 0's again
