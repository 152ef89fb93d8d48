"""A new game is one entry in rules/games.py (docs/architecture.md "A new game"): /help, its
game choices, /settings server's game choice and on/off switch and /games all pick it up, with
no other list of the games to edit.

The dummy game is added to the registry before the bot is imported, in a fresh interpreter: the
slash commands' choices are built when their cog's module is imported, as in a real start."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from rules import games as registry

ROOT = Path(__file__).resolve().parents[2]

PLAY_DUMMYBALL = r"""
import asyncio, json, sys
from rules import games as registry

registry.GAMES = (*registry.GAMES, registry.Game("dummyball", "Dummyball", "A game for tests."))

import discord
from discord import app_commands

import bot as bot_module
from cogs.core import Core, help_pages
from cogs.games import GameList
from cogs.settings import Settings
from config import load_config
from db import settings as settings_store
from db.games import StoredGame
from host.lobby import Lobby


async def main(folder):
    config = load_config(
        {"DISCORD_TOKEN": "t", "DATABASE_PATH": folder + "/b.db"}, base_dir=folder
    )
    bot = bot_module.Ballcourt(config)

    async def no_sync(*, guild=None):  # the only network call setup_hook makes
        return bot.tree.get_commands(guild=guild)

    bot.tree.sync = no_sync
    await bot.setup_hook()
    seen = {}
    pages = help_pages(bot.tree)
    seen["overview before its cog"] = [field.name for field in pages[0].fields]
    # The game's own cog adds its command group, as each game's cog does.
    group = app_commands.Group(name="dummyball", description="Dummyball")

    @group.command(name="play", description="Play a round of Dummyball")
    async def play(interaction: discord.Interaction) -> None: ...

    bot.tree.add_command(group)
    pages = help_pages(bot.tree)
    seen["overview"] = [field.name for field in pages[0].fields]
    seen["pages"] = [page.title for page in pages]
    seen["help choices"] = [c.name for c in Core.help._params["game"].choices]
    seen["settings choices"] = [c.name for c in Settings.server._params["game"].choices]
    await settings_store.set_game_enabled(bot.db, 5, "dummyball", False)
    seen["enabled"] = await settings_store.game_enabled(bot.db, 5, "dummyball")
    settings = await settings_store.server_settings(bot.db, 5)
    seen["server settings"] = Settings(bot).describe_server(settings)
    lobby = Lobby(
        creator=7, seats=2, options={}, describe="", names=["Alice"], seed=1, salt="s",
        commitment="c", remind_minutes=60, takeover_minutes=None,
    )
    stored = StoredGame(
        id=12, game="dummyball", guild_id=5, channel_id=6, thread_id=None, status="pending",
        state=lobby.to_json(), version=1, players=(7,),
    )
    entry = GameList(bot).match_entry(stored, 7, [], [], 0.0)
    seen["games"] = entry.title if entry else None
    await bot.close()
    print(json.dumps(seen))


asyncio.run(main(sys.argv[1]))
"""


def test_a_game_added_to_the_registry_alone_is_on_help_settings_and_games(tmp_path):
    run = subprocess.run(
        [sys.executable, "-c", PLAY_DUMMYBALL, str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    seen = json.loads(run.stdout.strip().splitlines()[-1])
    assert "Dummyball (coming soon)" in seen["overview before its cog"]
    assert "Dummyball (`/dummyball`)" in seen["overview"]
    assert "Dummyball: commands" in seen["pages"]
    assert seen["help choices"][-1] == "Dummyball"
    assert seen["settings choices"][-1] == "Dummyball"
    assert seen["enabled"] is False
    assert any(line.startswith("**Dummyball** (off)") for line in seen["server settings"])
    assert seen["games"] == "Dummyball #12"


def test_every_game_is_named_once():
    names = [game.name for game in registry.GAMES]
    titles = [game.title for game in registry.GAMES]
    assert len(set(names)) == len(names) and len(set(titles)) == len(titles)
    assert registry.title_of("rollerball2") == "Rollerball II"
    assert registry.title_of("a game long gone") == "a game long gone"
