"""The bot's own wiring without a network: command sync only when the tree changed, /help pages,
and that the help and roll commands fit Discord's limits."""

import gc
import weakref

import pytest

import bot as bot_module
from cogs.core import help_pages
from config import load_config
from rules.games import GAMES


@pytest.fixture
async def ballcourt(tmp_path):
    config = load_config(
        {"DISCORD_TOKEN": "t", "DATABASE_PATH": str(tmp_path / "b.db")}, base_dir=tmp_path
    )
    instance = bot_module.Ballcourt(config)
    synced = []

    async def fake_sync(*, guild=None):
        synced.append(guild)
        return instance.tree.get_commands(guild=guild)

    # the only network call setup_hook makes
    instance.tree.sync = fake_sync  # pyright: ignore[reportAttributeAccessIssue]
    instance.synced = synced  # pyright: ignore[reportAttributeAccessIssue]
    await instance.setup_hook()
    yield instance
    await instance.close()


async def test_first_start_syncs_then_an_unchanged_tree_does_not(ballcourt):
    assert len(ballcourt.synced) == 1
    assert await ballcourt.sync_commands_if_changed() is False
    assert len(ballcourt.synced) == 1


async def test_a_changed_tree_syncs_again(ballcourt):
    from discord import app_commands

    @app_commands.command(name="extra", description="A new command")
    async def extra(interaction):  # pragma: no cover - never invoked
        pass

    ballcourt.tree.add_command(extra)
    assert await ballcourt.sync_commands_if_changed() is True
    assert len(ballcourt.synced) == 2


async def test_a_sharded_bot_syncs_commands_only_on_the_process_with_shard_zero(tmp_path):
    """SHARD_COUNT=4: the process with shards 2,3 leaves the command tree to the one with 0,1
    (what must happen once in a cluster happens once)."""
    from discord.ext import commands

    synced = {}
    for ids in ("2,3", "0,1"):
        config = load_config(
            {
                "DISCORD_TOKEN": "t",
                "DATABASE_PATH": str(tmp_path / "b.db"),
                "SHARD_COUNT": "4",
                "SHARD_IDS": ids,
            },
            base_dir=tmp_path,
        )
        instance = bot_module.make_bot(config)
        assert isinstance(instance, commands.AutoShardedBot)
        assert config.shard_ids is not None
        assert (instance.shard_count, instance.shard_ids) == (4, list(config.shard_ids))
        calls = synced[ids] = []

        async def fake_sync(*, guild=None, calls=calls, instance=instance):
            calls.append(guild)
            return instance.tree.get_commands(guild=guild)

        instance.tree.sync = fake_sync  # pyright: ignore[reportAttributeAccessIssue]
        async with instance:  # what bot.run does before it logs in
            await instance.setup_hook()
    assert synced == {"2,3": [], "0,1": [None]}


async def test_without_shard_settings_the_bot_is_not_sharded(tmp_path):
    from discord.ext import commands

    config = load_config(
        {"DISCORD_TOKEN": "t", "DATABASE_PATH": str(tmp_path / "b.db")}, base_dir=tmp_path
    )
    instance = bot_module.make_bot(config)
    assert not isinstance(instance, commands.AutoShardedBot)
    assert instance.shard_count is None


async def test_help_overview_lists_every_game_and_the_core_commands(ballcourt):
    pages = help_pages(ballcourt.tree)
    overview = pages[0]
    names = " ".join(str(field.name) for field in overview.fields)
    for game in GAMES:
        assert game.title in names
    everywhere = next(f for f in overview.fields if f.name == "Everywhere")
    assert everywhere.value is not None
    assert "/roll" in everywhere.value and "/help" in everywhere.value
    assert overview.footer.text == f"Page 1 of {len(pages)}"
    for page in pages:
        assert len(page) <= 6000
        assert all(field.value is not None and len(field.value) <= 1024 for field in page.fields)


async def test_core_commands_are_registered(ballcourt):
    names = {command.name for command in ballcourt.tree.get_commands()}
    assert {"help", "roll", "about", "admin"} <= names


def test_what_a_new_session_replaced_is_collected_when_the_bot_is_ready_again():
    """`settle_memory` at each READY freezes what the ready bot holds; a later READY (after an
    invalid session, the servers' cache built anew) must still let the old cache go: frozen
    objects are never looked at by the collector."""

    class Node:
        pass

    cached = Node()
    cached.me = cached  # type: ignore[attr-defined]  # a cycle, as a server's cache is
    gone = weakref.ref(cached)
    try:
        bot_module.settle_memory()
        del cached
        bot_module.settle_memory()
        assert gone() is None
    finally:
        gc.unfreeze()
