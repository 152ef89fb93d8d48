"""Two bot processes, one shard each, over one PostgreSQL database (issue 14): the fake Discord
speaks the sharded gateway (fakediscord/sharded.py), so the guild's events reach only the
process of its shard, while both processes run their timer dispatchers on the shared timers.

Played here: a match in the guild through its process; a reminder due while both processes run
is posted once; 50 clicks on one turn apply one move; the guild's process killed with SIGKILL
mid-match loses nothing, and its buttons work again when it is back. Not here: guilds on both
shards (the fake has one guild) and clicks on one match reaching both processes (Discord sends a
guild's interactions to one shard)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import pytest

from fakediscord.botproc import BotProcess
from fakediscord.driver import DiscordDriver
from fakediscord.sharded import ShardedFakeDiscord
from tests.e2e.conftest import Fixtures
from tests.postgres.reader import PostgresReader
from tests.postgres.server import PostgresServer

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]


@pytest.fixture(scope="module")
def fake_discord() -> Iterator[ShardedFakeDiscord]:
    fake = ShardedFakeDiscord(shard_count=2)
    fake.fixtures = Fixtures(fake)  # type: ignore[attr-defined]
    fake.start()
    yield fake
    fake.stop()


class Cluster:
    def __init__(self, fake: ShardedFakeDiscord, url: str, folder) -> None:
        self.url = url
        self.home = fake.guild_shard  # the shard, and so the process, with the guild

        def process(shard: int) -> BotProcess:
            return BotProcess(
                fake,
                database_path=folder / "unused.db",
                log_path=folder / f"shard-{shard}.log",
                owner_ids=[fake.owner.id],
                extra_env={
                    "DATABASE_URL": url,
                    "SHARD_COUNT": "2",
                    "SHARD_IDS": str(shard),
                    "GAME_SEED": "14014",
                    "TIMER_RECHECK_SECONDS": "0.5",
                },
            )

        self.guild_process = process(self.home)
        self.other_process = process(1 - self.home)

    def sql(self, query: str, *parameters):
        with PostgresReader(self.url).connect(None) as conn:
            return conn.execute(query, parameters).fetchall()


@pytest.fixture(scope="module")
def cluster(fake_discord, tmp_path_factory, postgres_server: PostgresServer) -> Iterator[Cluster]:
    cluster = Cluster(
        fake_discord, postgres_server.create_database("cluster"), tmp_path_factory.mktemp("c")
    )
    cluster.guild_process.start()
    cluster.other_process.start()
    yield cluster
    cluster.guild_process.stop()
    cluster.other_process.stop()


@pytest.fixture(autouse=True)
def _no_errors_in_either_process(cluster: Cluster) -> Iterator[None]:
    yield
    errors = cluster.guild_process.take_errors() + cluster.other_process.take_errors()
    assert errors == [], errors


@pytest.fixture
def discord(fake_discord) -> DiscordDriver:
    return DiscordDriver(fake_discord, fake_discord.fixtures.general)


def is_turn(message) -> bool:
    return bool(message.buttons) and "your move" in message.content


async def new_thread(discord, channel, known: int):
    for _ in range(200):
        threads = discord.threads(channel)
        if len(threads) > known:
            return threads[-1]
        await asyncio.sleep(0.05)
    raise AssertionError("the bot opened no thread")


async def start_match(discord, cluster, challenger, opponent, channel):
    await_reply = await discord.slash(
        "rocketball challenge", user=challenger, channel=channel, opponent=opponent
    )
    (game_id,) = cluster.sql("SELECT MAX(id) FROM games")[0]
    known = len(discord.threads(channel))
    await discord.click(await_reply, "Accept", user=opponent)
    thread = await new_thread(discord, channel, known)
    first = await discord.wait_for_message(thread, is_turn, timeout=15)
    return game_id, thread, first


async def test_each_process_identified_its_own_shard_and_one_synced(fake_discord, cluster):
    assert sorted(fake_discord.identified_shards) == [(0, 2), (1, 2)]
    assert fake_discord.shard_connected(0) and fake_discord.shard_connected(1)
    synced = "synced" if cluster.home == 0 else "commands are synced by the process"
    assert synced in cluster.guild_process.log_text()
    for _ in range(200):  # the process without the guild gets ready too
        if "Ballcourt ready as ballcourt in 0 servers" in cluster.other_process.log_text():
            break
        await asyncio.sleep(0.05)
    else:
        raise AssertionError(cluster.other_process.log_tail())


async def test_a_match_in_the_guild_is_played_through_its_process(discord, cluster, fake_discord):
    alice, bob = fake_discord.fixtures.users["alice"], fake_discord.fixtures.users["bob"]
    game_id, thread, first = await start_match(
        discord, cluster, alice, bob, discord.default_channel
    )
    holder = alice if first.content.startswith(alice.mention) else bob
    after = await discord.click(first, "Roll the d4", user=holder)
    assert not after.ephemeral
    turn = await discord.wait_for_message(thread, lambda m: "rolls d4 =" in m.text, since=first)
    assert turn is not None
    ((version, status),) = cluster.sql("SELECT version, status FROM games WHERE id = ?", game_id)
    assert (version, status) == (2, "active")  # accepted, rolled
    await discord.slash("rocketball resign", user=alice, channel=thread)


async def test_a_reminder_due_while_both_processes_run_is_posted_once(
    discord, cluster, fake_discord
):
    carol, dave = fake_discord.fixtures.users["carol"], fake_discord.fixtures.users["dave"]
    games = fake_discord.fixtures.games
    game_id, thread, first = await start_match(discord, cluster, carol, dave, games)
    reminders = cluster.sql(
        "SELECT id FROM timers WHERE game_id = ? AND event = 'match_remind'", game_id
    )
    assert len(reminders) == 1
    # both dispatchers look every half second: both see it due
    cluster.sql("UPDATE timers SET due_at = ? WHERE id = ?", time.time() - 1, reminders[0][0])
    await discord.wait_for_message(thread, lambda m: "waiting for your move" in m.text, since=first)
    await asyncio.sleep(2.0)  # time enough for a second posting, if there were one
    posted = [m for m in discord.channel_messages(thread) if "waiting for your move" in m.text]
    assert len(posted) == 1
    assert cluster.sql("SELECT COUNT(*) FROM timers WHERE id = ?", reminders[0][0])[0][0] == 0


async def test_the_guilds_process_killed_mid_match_loses_nothing(discord, cluster, fake_discord):
    alice, carol = fake_discord.fixtures.users["alice"], fake_discord.fixtures.users["carol"]
    game_id, thread, first = await start_match(
        discord, cluster, alice, carol, discord.default_channel
    )
    before = cluster.sql("SELECT version, state FROM games WHERE id = ?", game_id)[0]
    process = cluster.guild_process
    process.process.kill()  # SIGKILL: no shutdown at all
    process.process.wait(10)
    await asyncio.to_thread(process.stop)
    assert cluster.sql("SELECT version, state FROM games WHERE id = ?", game_id)[0] == before
    await asyncio.to_thread(process.start)
    holder = alice if first.content.startswith(alice.mention) else carol
    await discord.click(first, "Roll the d4", user=holder)  # a button drawn before the kill
    await discord.wait_for_message(thread, lambda m: "rolls d4 =" in m.text, since=first)
    ((version,),) = cluster.sql("SELECT version FROM games WHERE id = ?", game_id)
    assert version == before[0] + 1
    await discord.slash("rocketball resign", user=alice, channel=thread)


async def test_fifty_clicks_while_both_processes_run_apply_one_move(discord, cluster, fake_discord):
    """The guild's 50 clicks on one turn reach its process (Discord routes them there) while
    the match's reminder falls due for both processes at the same moment: one move is stored
    and shown, and the reminder, if it was not replaced by the move first, is posted once."""
    bob, dave = fake_discord.fixtures.users["bob"], fake_discord.fixtures.users["dave"]
    game_id, thread, first = await start_match(discord, cluster, bob, dave, discord.default_channel)
    ((version,),) = cluster.sql("SELECT version FROM games WHERE id = ?", game_id)
    holder = bob if first.content.startswith(bob.mention) else dave
    cluster.sql(
        "UPDATE timers SET due_at = ? WHERE game_id = ? AND event = 'match_remind'",
        time.time() - 1,
        game_id,
    )
    await asyncio.gather(
        *(discord.click(first, "Roll the d4", user=holder) for _ in range(50)),
        return_exceptions=True,
    )
    await discord.wait_for_message(thread, lambda m: "rolls d4 =" in m.text, since=first)
    await asyncio.sleep(2.0)
    ((after,),) = cluster.sql("SELECT version FROM games WHERE id = ?", game_id)
    ((moves,),) = cluster.sql("SELECT COUNT(*) FROM game_moves WHERE game_id = ?", game_id)
    assert (after, moves) == (version + 1, version + 1)
    rolls = [m for m in discord.channel_messages(thread) if "rolls d4 =" in m.text]
    assert len(rolls) == 1
    reminders = [m for m in discord.channel_messages(thread) if "waiting for your move" in m.text]
    assert len(reminders) <= 1
    await discord.slash("rocketball resign", user=bob, channel=thread)
