"""Two bot processes, one shard each, over one PostgreSQL database: the fake Discord
speaks the sharded gateway (fakediscord/sharded.py) with one guild on each shard, so each
process gets its own guild's events, while both run their timer dispatchers on the shared
timers.

Played here: matches in the guilds of both shards at once, each through its own process; a
reminder due while both processes run is posted once; 50 clicks on one turn applied once, both
when they reach one process and when they are spread over both (the guild held by both shards,
as while a shard moves between processes); the process of a guild killed with SIGKILL mid-match
loses nothing, the other guild plays on meanwhile, and the buttons work again when it is back."""

from __future__ import annotations

import asyncio
import collections
import time
from collections.abc import Iterator

import pytest

from fakediscord.botproc import BotProcess
from fakediscord.driver import DiscordDriver
from fakediscord.sharded import ShardedFakeDiscord
from tests.e2e.cards import is_card
from tests.e2e.conftest import Fixtures
from tests.support.postgres_reader import PostgresReader
from tests.support.postgres_server import PostgresServer

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]


@pytest.fixture(scope="module")
def fake_discord() -> Iterator[ShardedFakeDiscord]:
    """Guild A (the fixtures' channels #general and #games) on shard 0, guild B with #court on
    shard 1; every user is a member of both."""
    fake = ShardedFakeDiscord(shard_count=2, first_guild_shard=0)
    fake.fixtures = Fixtures(fake)  # type: ignore[attr-defined]
    fake.second_guild = fake.add_guild("Second Court", shard=(1, 2))  # type: ignore[attr-defined]
    fake.court = fake.add_channel("court", guild=fake.second_guild)  # type: ignore[attr-defined]
    fake.start()
    yield fake
    fake.stop()


class Cluster:
    def __init__(self, fake: ShardedFakeDiscord, url: str, folder) -> None:
        self.url = url

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

        self.processes = [process(0), process(1)]  # shard 0 has guild A, shard 1 guild B

    def sql(self, query: str, *parameters):
        with PostgresReader(self.url).connect(None) as conn:
            return conn.execute(query, parameters).fetchall()


@pytest.fixture(scope="module")
def cluster(fake_discord, tmp_path_factory, postgres_server: PostgresServer) -> Iterator[Cluster]:
    cluster = Cluster(
        fake_discord, postgres_server.create_database("cluster"), tmp_path_factory.mktemp("c")
    )
    for process in cluster.processes:
        process.start()
    yield cluster
    for process in cluster.processes:
        process.stop()


@pytest.fixture(autouse=True)
def _no_errors_in_either_process(cluster: Cluster) -> Iterator[None]:
    yield
    errors = [error for process in cluster.processes for error in process.take_errors()]
    assert errors == [], errors


@pytest.fixture
def discord(fake_discord) -> DiscordDriver:
    return DiscordDriver(fake_discord, fake_discord.fixtures.general)


def is_ping(message) -> bool:
    """The message that pings whoever's move it is (the live card itself pings nobody)."""
    return "your move" in message.content


async def new_thread(discord, channel, known: int):
    for _ in range(200):
        threads = discord.threads(channel)
        if len(threads) > known:
            return threads[-1]
        await asyncio.sleep(0.05)
    raise AssertionError("the bot opened no thread")


async def start_match(discord, cluster, challenger, opponent, channel):
    # Both press the d4 themselves (/settings me): each roll is a click the test can time.
    for player in (challenger, opponent):
        await discord.slash("settings me", user=player, channel=channel, dice="myself")
    await_reply = await discord.slash(
        "rocketball challenge", user=challenger, channel=channel, opponent=opponent
    )
    ((game_id,),) = cluster.sql("SELECT MAX(id) FROM games WHERE channel_id = ?", channel.id)
    known = len(discord.threads(channel))
    await discord.click(await_reply, "Accept", user=opponent)
    thread = await new_thread(discord, channel, known)
    await discord.wait_for_message(thread, is_ping, timeout=15, since=0)
    first = await discord.wait_for_message(thread, is_card, timeout=15, since=0)
    return game_id, thread, first


async def resign(discord, user, channel) -> None:
    """Resign through the command and its confirmation: the match ends, the pair may play again."""
    asked = await discord.slash("rocketball resign", user=user, channel=channel)
    await discord.click(asked, "Resign", user=user)
    await discord.wait_for_message(channel, lambda m: "resigned" in m.text)


def holder_of(discord, thread, *players):
    """Who the match's first ping names: the player whose move it is."""
    ping = next(m for m in discord.channel_messages(thread) if is_ping(m))
    return next(player for player in players if ping.content.startswith(player.mention))


async def roll(discord, cluster, game_id, thread, first, *players) -> int:
    """The player to move rolls; the roll is shown in the thread; the match's version after."""
    await discord.click(first, "Roll the d4", user=holder_of(discord, thread, *players))
    await discord.wait_for_edit(first, lambda m: "rolls d4 =" in m.text)
    ((version,),) = cluster.sql("SELECT version FROM games WHERE id = ?", game_id)
    return version


async def test_each_process_serves_the_guild_of_its_shard_and_one_synced(fake_discord, cluster):
    a, b = fake_discord.guild, fake_discord.second_guild
    assert sorted(fake_discord.identified_shards) == [(0, 2), (1, 2)]
    assert fake_discord.ready_guilds == {0: [a.id], 1: [b.id]}
    assert "synced" in cluster.processes[0].log_text()
    assert "commands are synced by the process" in cluster.processes[1].log_text()
    for process in cluster.processes:
        for _ in range(200):
            if "Ballcourt ready as ballcourt in 1 servers" in process.log_text():
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError(process.log_tail())


async def test_matches_in_the_guilds_of_both_shards_are_played_at_once(
    discord, cluster, fake_discord
):
    users = fake_discord.fixtures.users
    alice, bob, carol, dave = (users[name] for name in ("alice", "bob", "carol", "dave"))
    court = fake_discord.court
    sent_before = max(fake_discord.interaction_shards, default=0)
    (a_game, a_thread, a_first), (b_game, b_thread, b_first) = await asyncio.gather(
        start_match(discord, cluster, alice, bob, fake_discord.fixtures.general),
        start_match(discord, cluster, carol, dave, court),
    )
    a_version, b_version = await asyncio.gather(
        roll(discord, cluster, a_game, a_thread, a_first, alice, bob),
        roll(discord, cluster, b_game, b_thread, b_first, carol, dave),
    )
    assert (a_version, b_version) == (2, 2)  # accepted, rolled
    rows = cluster.sql("SELECT id, guild_id FROM games WHERE id IN (?, ?)", a_game, b_game)
    assert dict(rows) == {a_game: fake_discord.guild.id, b_game: fake_discord.second_guild.id}
    # every interaction of the test (commands and clicks) went to the shard of its guild
    routed = {
        (fake_discord.shard_of_guild(fake_discord.guild_of_channel(record.channel_id)), shard)
        for interaction_id, shard in fake_discord.interaction_shards.items()
        if interaction_id > sent_before
        for record in [fake_discord.interactions[interaction_id]]
    }
    assert routed == {(0, 0), (1, 1)}
    await resign(discord, alice, a_thread)
    await resign(discord, carol, b_thread)


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


async def test_a_process_killed_mid_match_loses_nothing_and_the_other_guild_plays_on(
    discord, cluster, fake_discord
):
    users = fake_discord.fixtures.users
    alice, bob, carol, dave = (users[name] for name in ("alice", "bob", "carol", "dave"))
    game_id, thread, first = await start_match(
        discord, cluster, alice, carol, fake_discord.fixtures.general
    )
    before = cluster.sql("SELECT version, state FROM games WHERE id = ?", game_id)[0]
    process = cluster.processes[0]  # guild A's
    process.process.kill()  # SIGKILL: no shutdown at all
    process.process.wait(10)
    await asyncio.to_thread(process.stop)
    assert cluster.sql("SELECT version, state FROM games WHERE id = ?", game_id)[0] == before
    # guild B, on the other process, is not affected
    b_game, b_thread, b_first = await start_match(discord, cluster, bob, dave, fake_discord.court)
    assert await roll(discord, cluster, b_game, b_thread, b_first, bob, dave) == 2
    await asyncio.to_thread(process.start)
    # a button drawn before the kill works
    assert await roll(discord, cluster, game_id, thread, first, alice, carol) == before[0] + 1
    await resign(discord, alice, thread)
    await resign(discord, bob, b_thread)


async def fifty_clicks(discord, cluster, fake_discord, channel, first_user, second_user):
    """50 clicks at once on the roll button of a new match's first turn, by the player to move,
    while the match's reminder falls due for both processes: one move stored and shown, the
    reminder posted at most once. The shards the clicks were sent to, in order."""
    game_id, thread, first = await start_match(discord, cluster, first_user, second_user, channel)
    ((version,),) = cluster.sql("SELECT version FROM games WHERE id = ?", game_id)
    holder = holder_of(discord, thread, first_user, second_user)
    cluster.sql(
        "UPDATE timers SET due_at = ? WHERE game_id = ? AND event = 'match_remind'",
        time.time() - 1,
        game_id,
    )
    sent_before = len(fake_discord.interaction_shards)
    # the bot idle once, then the 50 clicks at once, each on the card as the players saw it:
    # sent one after the other, the last ones can leave after the first move's card came (the
    # faster the bot, the likelier), and Discord delivers them with the card they were made on
    await discord.fake.call(discord.fake.settle)
    card = discord.message(first)
    answers = await asyncio.gather(
        *(
            discord.click(card, "Roll the d4", user=holder, settle=False, as_read=True)
            for _ in range(50)
        ),
        return_exceptions=True,
    )
    shards = list(fake_discord.interaction_shards.values())[sent_before:]
    await discord.wait_for_edit(first, lambda m: "rolls d4 =" in m.text)
    await asyncio.sleep(2.0)
    ((after,),) = cluster.sql("SELECT version FROM games WHERE id = ?", game_id)
    ((moves,),) = cluster.sql("SELECT COUNT(*) FROM game_moves WHERE game_id = ?", game_id)
    assert (after, moves) == (version + 1, version + 1)
    card = discord.message(first)
    assert card.text.count("rolls d4 =") == 1  # the card shows one roll
    assert [m.id for m in discord.channel_messages(thread) if is_card(m)] == [first.id]
    reminders = [m for m in discord.channel_messages(thread) if "waiting for your move" in m.text]
    assert len(reminders) <= 1
    # every click was answered: none failed, none told "something went wrong", and none had
    # its move computed and then refused as stale (the match's lock kept the clicks in line)
    failures = [answer for answer in answers if isinstance(answer, BaseException)]
    assert failures == [], failures[:3]
    texts = collections.Counter(
        answer.text.split("\n")[0][:60]
        for answer in answers
        if not isinstance(answer, BaseException)
    )
    assert not any("Something went wrong" in text or "saved first" in text for text in texts), texts
    await resign(discord, first_user, thread)
    return shards


async def test_fifty_clicks_on_one_turn_in_one_process_apply_one_move(
    discord, cluster, fake_discord
):
    users = fake_discord.fixtures.users
    shards = await fifty_clicks(
        discord, cluster, fake_discord, fake_discord.court, users["bob"], users["dave"]
    )
    assert set(shards) == {1}  # guild B's clicks all went to its own shard


async def test_fifty_clicks_spread_over_both_processes_apply_one_move(
    discord, cluster, fake_discord
):
    """Guild A held by both shards, as while a shard moves between processes: the clicks go to
    the two processes in turn, and the match's lock, held across processes through the
    database, lets one move through (the others see it was made)."""
    users = fake_discord.fixtures.users
    a = fake_discord.guild
    assert await asyncio.to_thread(fake_discord.share_guild, a) == [0, 1]
    try:
        shards = await fifty_clicks(
            discord,
            cluster,
            fake_discord,
            fake_discord.fixtures.general,
            users["alice"],
            users["bob"],
        )
    finally:
        await asyncio.to_thread(fake_discord.unshare_guild, a)
    assert shards.count(0) == shards.count(1) == 25


async def test_the_whole_cluster_down_comes_back_one_process_at_a_time(
    discord, cluster, fake_discord
):
    """After an outage of every process (a host rebooted, the chaos run's recovery), an operator
    starts them one by one: the first is up once its own shard is connected, while the others
    are still down, and serves its guild before the next one starts."""
    for process in cluster.processes:
        process.process.kill()
        process.process.wait(10)
        await asyncio.to_thread(process.stop)
    first_process, second_process = cluster.processes
    await asyncio.to_thread(first_process.start, 30)
    assert not fake_discord.call_sync(lambda: fake_discord.shard_connected(1))
    users = fake_discord.fixtures.users
    game_id, thread, first = await start_match(
        discord, cluster, users["alice"], users["carol"], fake_discord.fixtures.general
    )
    assert await roll(discord, cluster, game_id, thread, first, users["alice"], users["carol"]) == 2
    await resign(discord, users["alice"], thread)
    await asyncio.to_thread(second_process.start, 30)
    assert fake_discord.call_sync(lambda: fake_discord.bot_connected)
